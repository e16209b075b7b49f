from __future__ import annotations

import io

import pytest

from processors.archive import (
    ArchiveLimits,
    ArchiveProblem,
    ArchiveRejected,
    inspect_central_directory,
    is_junk,
)
from tests.api.helpers import make_zip

LIMITS = ArchiveLimits(max_files=3, max_total_bytes=1000)


@pytest.mark.parametrize(
    ("name", "junk"),
    [
        ("a.pdf", False),
        ("dir/a.pdf", False),
        ("dir/", True),
        ("__MACOSX/a.pdf", True),
        ("x/__MACOSX/._a.pdf", True),
        (".DS_Store", True),
        ("d/._a.pdf", True),
        ("d\\.hidden", True),
        ("Rechnung.xml", False),
    ],
)
def test_junk_entries(name: str, junk: bool) -> None:
    assert is_junk(name) is junk


def test_summary_counts_documents_only() -> None:
    archive = make_zip({"a.pdf": b"1", "b/": b"", "b/c.xml": b"22", ".DS_Store": b"junk"})
    summary = inspect_central_directory(io.BytesIO(archive), LIMITS)
    assert (summary.file_count, summary.declared_bytes) == (2, 3)
    assert set(summary.skipped) == {"b/", ".DS_Store"}


@pytest.mark.parametrize(
    ("entries", "problem"),
    [
        ({"a": b"1", "b": b"1", "c": b"1", "d": b"1"}, ArchiveProblem.TOO_MANY_FILES),
        ({"a": b"x" * 600, "b": b"x" * 401}, ArchiveProblem.TOO_LARGE),
        ({"d/": b""}, ArchiveProblem.INVALID),
    ],
)
def test_limits(entries: dict[str, bytes], problem: ArchiveProblem) -> None:
    with pytest.raises(ArchiveRejected) as rejected:
        inspect_central_directory(io.BytesIO(make_zip(entries)), LIMITS)
    assert rejected.value.problem is problem


def test_not_a_zip() -> None:
    with pytest.raises(ArchiveRejected) as rejected:
        inspect_central_directory(io.BytesIO(b"%PDF-1.4"), LIMITS)
    assert rejected.value.problem is ArchiveProblem.INVALID

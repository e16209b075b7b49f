"""The hostile corpus, e-mail part: each message through the unpack of an e-mail batch
(flows/unpack_mail.py, the code a reading process runs) into a local store, in a child
process whose peak memory is measured as in tests/processors/test_hostile.py. Each ends
in a refusal of the whole message or in its entries, within CASE_SECONDS and
MAX_PEAK_MIB above what the child held before reading."""

from __future__ import annotations

import multiprocessing
import tempfile
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from processors.archive import ArchiveLimits, ArchiveRejected
from processors.email_message import DAMAGED_BASE64
from tests.processors import hostile_mail
from tests.processors.test_hostile import _memory_kib

MiB = 1024 * 1024
CASE_SECONDS = 60.0
MAX_PEAK_MIB = 400
LIMITS = ArchiveLimits(max_files=100, max_total_bytes=200 * MiB, max_file_bytes=50 * MiB)


def _unpack_case(make: str) -> dict[str, Any]:
    from flows.unpack_mail import store_message_entries
    from storage.objectstore import LocalDirStore

    raw = getattr(hostile_mail, make)()
    Path("/proc/self/clear_refs").write_text("5")  # VmHWM := VmRSS
    before = _memory_kib("VmRSS")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as directory:
        try:
            entries, head = store_message_entries(
                LocalDirStore(Path(directory)), uuid.uuid4(), raw, LIMITS
            )
            result: dict[str, Any] = {
                "entries": [(e.name, e.size, e.too_large, e.unreadable) for e in entries],
                "head": (head.sender, head.subject),
            }
        except ArchiveRejected as rejected:
            result = {"rejected": rejected.problem.value, "message": rejected.message}
    result["seconds"] = time.perf_counter() - started
    result["peak_mib"] = (_memory_kib("VmHWM") - before) / 1024
    return result


@pytest.fixture(scope="module")
def reader() -> Iterator[ProcessPoolExecutor]:
    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        yield pool


def _read(
    reader: ProcessPoolExecutor, make: str, max_peak_mib: float = MAX_PEAK_MIB
) -> dict[str, Any]:
    result: dict[str, Any] = reader.submit(_unpack_case, make).result(timeout=CASE_SECONDS * 2)
    assert result["seconds"] < CASE_SECONDS, result
    assert result["peak_mib"] < max_peak_mib, result
    return result


@pytest.mark.parametrize(
    ("make", "problem", "message"),
    [
        ("deep_multipart", "invalid_archive", "more than 100 multipart"),
        ("huge_header", "invalid_archive", "header section is over 1 MiB"),
        ("quoted_printable_bomb", "invalid_archive", "more than 1000000 lines"),
        ("zip_bomb_attachment", "archive_too_large", "more than the limit"),
        ("too_many_attachments", "archive_too_many_files", "more than 100 attachments"),
    ],
)
def test_a_hostile_message_is_refused_whole(
    reader: ProcessPoolExecutor, make: str, problem: str, message: str
) -> None:
    result = _read(reader, make)
    assert result.get("rejected") == problem, result
    assert message in result["message"]


def test_damaged_base64_fails_its_attachment_alone(reader: ProcessPoolExecutor) -> None:
    result = _read(reader, "base64_garbage")
    assert result["entries"] == [
        ("garbled.pdf", 0, False, DAMAGED_BASE64),
        ("fine.pdf", len(hostile_mail.PDF), False, None),
    ]


def test_file_names_are_labels_without_paths(reader: ProcessPoolExecutor) -> None:
    names = [entry[0] for entry in _read(reader, "hostile_file_names")["entries"]]
    assert names[:3] == ["passwd.pdf", "evil.xml", "märz.pdf"]
    assert names[3] == "Rech nung .pdf"  # RFC 2231 continuations; the newline a space
    assert names[4].startswith("na") and names[4].endswith("me.pdf")
    assert all("/" not in name and "\\" not in name for name in names)


def test_a_charset_that_does_not_exist_is_read_with_replacements(
    reader: ProcessPoolExecutor,
) -> None:
    result = _read(reader, "unknown_charset")
    assert [entry[0] for entry in result["entries"]] == ["invoice.pdf"]
    sender, subject = result["head"]
    assert sender.endswith("<m@example.com>") and subject == "Rechnung"


def test_a_message_near_the_size_limit_is_read_within_the_memory_bound(
    reader: ProcessPoolExecutor,
) -> None:
    # Measured: 377 MiB above the raw message, in 7.3 s (the parser's text of it, its
    # lines, the base64 text and the decoded bytes); the readers may use 1536 MiB.
    result = _read(reader, "largest_message", max_peak_mib=512)
    assert [(name, too_large) for name, _, too_large, _ in result["entries"]] == [
        ("large.pdf", False)
    ]

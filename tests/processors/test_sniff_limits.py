"""Sniffing a ZIP never parses a huge central directory, nor inflates a member whole."""

from __future__ import annotations

import io
import time
import tracemalloc
import zipfile

import pytest

from processors.base import (
    CompanyProfile,
    DocumentType,
    FailureCode,
    FileKind,
    ProcessingContext,
    ProcessingError,
)
from processors.pipeline import read_document
from processors.sniff import ZIP_DOCUMENT_BOUNDS, identify, open_zip_document
from tests.processors import hostile_zip
from tests.processors.hostile_zip import zip_many_entries

MIB = 1024 * 1024


def test_a_large_central_directory_is_not_parsed() -> None:
    data = zip_many_entries(80_000)  # 4.3 MiB of directory, count given modulo 65,536
    assert open_zip_document(data) is None
    assert identify(data).kind is FileKind.ZIP


def test_a_directory_whose_end_record_lies_about_its_count_is_not_parsed() -> None:
    data = zip_many_entries(15_000, claimed=1)  # 795 KiB of directory, 15,000 records
    assert 15_000 * 53 < ZIP_DOCUMENT_BOUNDS.max_bytes < 15_000 * 90
    started = time.process_time()
    assert open_zip_document(data) is None
    assert time.process_time() - started < 0.05  # counted by headers, no entry built


def test_a_small_central_directory_is_parsed() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
    data = buffer.getvalue()
    assert open_zip_document(data) is not None
    assert identify(data).kind is FileKind.OFFICE


BOMBS = ["odf_lzma_member", "odf_bzip2_member", "datev_lzma_index"]


@pytest.mark.parametrize("make", BOMBS)
def test_bzip2_and_lzma_members_of_a_zip_document_are_not_inflated(make: str) -> None:
    data = getattr(hostile_zip, make)()  # 64 MiB in its telling member
    tracemalloc.start()
    try:
        identified = identify(data)
        with pytest.raises(ProcessingError) as refused:
            read_document(
                data, ProcessingContext(DocumentType.AUTO, "bomb.odt", CompanyProfile("T"))
            )
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert identified.kind is FileKind.ZIP  # not recognised from a member it cannot read
    assert refused.value.code is FailureCode.UNSUPPORTED_FILE_TYPE
    assert "ZIP archive" in refused.value.message
    assert peak < 2 * MIB  # zipfile inflated 64 MiB on read(200)

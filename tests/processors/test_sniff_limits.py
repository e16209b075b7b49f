"""Sniffing a ZIP never parses a huge central directory."""

from __future__ import annotations

import io
import zipfile

from processors.base import FileKind
from processors.sniff import MAX_ZIP_DIRECTORY_BYTES, identify, zip_directory_is_small
from tests.processors.hostile_zip import zip_many_entries


def test_a_large_central_directory_is_not_parsed() -> None:
    data = zip_many_entries(80_000)  # 4.3 MiB of directory, count given modulo 65,536
    assert not zip_directory_is_small(data)
    assert identify(data).kind is FileKind.ZIP


def test_a_small_central_directory_is_parsed() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
    data = buffer.getvalue()
    assert zip_directory_is_small(data)
    assert len(data) < MAX_ZIP_DIRECTORY_BYTES
    assert identify(data).kind is FileKind.OFFICE

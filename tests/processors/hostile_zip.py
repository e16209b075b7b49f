"""The hostile corpus, ZIP part: archives refused at intake, but sniffed first."""

from __future__ import annotations

import io
import struct
import zipfile
from functools import cache


def zip_many_entries(count: int = 250_000, claimed: int | None = None) -> bytes:
    """Empty stored entries named with seven digits: a central directory of 13 MiB,
    whose end record gives the count modulo 65,536 (only its size tells), or `claimed`."""
    name_length = 7
    local = struct.pack("<4s5H3I2H", b"PK\x03\x04", 20, 0, 0, 0, 0, 0, 0, 0, name_length, 0)
    central = struct.pack(
        "<4s6H3I5H", b"PK\x01\x02", 20, 20, 0, 0, 0, 0, 0, 0, 0, name_length, 0, 0, 0, 0
    )
    external_attributes = b"\x00\x00\x00\x00"
    names = [b"%07d" % index for index in range(count)]
    step = len(local) + name_length
    directory = b"".join(
        central + external_attributes + struct.pack("<I", index * step) + name
        for index, name in enumerate(names)
    )
    entries = count % 0x10000 if claimed is None else claimed
    end = struct.pack(
        "<4s4H2IH", b"PK\x05\x06", 0, 0, entries, entries, len(directory), count * step, 0
    )
    return b"".join(local + name for name in names) + directory + end


def zip_lying_count(count: int = 400_001) -> bytes:
    """`count` directory records under an end record that claims 1 (issue 37, finding 2)."""
    return zip_many_entries(count, claimed=1)


def misplaced_directory(members: dict[str, bytes], shift: int = 5000) -> bytes:
    """A ZIP whose end record places its central directory `shift` bytes past where it
    is: zipfile moves every member's local header `shift` bytes back, before the file."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    data = bytearray(buffer.getvalue())
    end = data.rfind(b"PK\x05\x06")
    (offset,) = struct.unpack_from("<I", data, end + 16)
    struct.pack_into("<I", data, end + 16, offset + shift)
    return bytes(data)


@cache
def zip_document_with(method: int, kind: str = "odf", size: int = 64 * 1024 * 1024) -> bytes:
    """An ODF- or OOXML-like ZIP whose telling member (`mimetype`, or the DATEV index
    `document.xml`) is `size` bytes compressed with BZIP2 or LZMA: a few hundred bytes on
    the wire that zipfile would inflate whole on the first read (finding 10)."""
    buffer = io.BytesIO()
    telling = {"ooxml": "[Content_Types].xml", "datev": "document.xml"}.get(kind, "mimetype")
    with zipfile.ZipFile(buffer, "w", method) as archive:
        # Not first: a first `mimetype` is read from the head, without zipfile.
        archive.writestr("content.xml", b"<office:document-content/>")
        archive.writestr(telling, b"\0" * size)
    return buffer.getvalue()


def odf_lzma_member() -> bytes:
    return zip_document_with(zipfile.ZIP_LZMA)


def odf_bzip2_member() -> bytes:
    return zip_document_with(zipfile.ZIP_BZIP2)


def datev_lzma_index() -> bytes:
    return zip_document_with(zipfile.ZIP_LZMA, "datev")

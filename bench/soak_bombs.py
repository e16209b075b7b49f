"""Hostile files for the soak: a poison archive, a ZIP of a PDF bomb and a memory-bomb
PDF. Built in memory; none is ever written outside the soak's temp dir."""

from __future__ import annotations

import base64
import io
import struct
import zipfile
import zlib

GIB = 1024**3
# A bzip2 stream of 3 GiB of zero bytes (2,289 bytes; compressing it takes half a
# minute, so it is kept here, zlib-packed) and the CRC-32 of those 3 GiB.
_BZIP2_3_GIB_OF_ZEROS = zlib.decompress(
    base64.b64decode(
        "eNpzisqwNHSMVAuO5ON8dJ8xvs+B4QADA4cCg0GDr5vTAtWVXA3TR+VH5UflR+VH5UflR+VH5QenvMrH"
        "7FcM9pkOHEB5FrCKM5yrMpcqsV0JUqjYPUnzUEvbrPYJAgBVm7Jf"
    )
)
_CRC_3_GIB_OF_ZEROS = 0x480BBE37
BZIP2_METHOD = 12


def poison_archive() -> bytes:
    """A ZIP whose one BZIP2 entry declares 1,000 bytes and inflates to 3 GiB: the
    sizes in both headers lie, the CRC is the true one."""
    name = b"statement.pdf"
    data = _BZIP2_3_GIB_OF_ZEROS
    declared = 1000
    # version 46 (bzip2), flags 0, method 12, time, date, crc, sizes, name, extra
    local = struct.pack(
        "<IHHHHHIIIHH",
        0x04034B50, 46, 0, BZIP2_METHOD, 0, 0x21, _CRC_3_GIB_OF_ZEROS, len(data), declared,
        len(name), 0,
    ) + name  # fmt: skip
    central = struct.pack(
        "<IHHHHHHIIIHHHHHII",
        0x02014B50, 46, 46, 0, BZIP2_METHOD, 0, 0x21, _CRC_3_GIB_OF_ZEROS, len(data),
        declared, len(name), 0, 0, 0, 0, 0o100644 << 16, 0,
    ) + name  # fmt: skip
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(central), len(local) + len(data), 0)
    return local + data + central + end


def memory_bomb_pdf() -> bytes:
    """A one-page PDF of about 1 MiB whose one Flate content stream inflates to 1 GiB."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 15, 9, zlib.Z_RLE)
    chunk = b" " * (64 * 1024 * 1024)
    stream = b"".join(compressor.compress(chunk) for _ in range(GIB // len(chunk)))
    stream += compressor.flush()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
    ]
    return _pdf(objects)


def _pdf(objects: list[bytes]) -> bytes:
    out = io.BytesIO()
    out.write(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    out.write(b"".join(b"%010d 00000 n \n" % offset for offset in offsets))
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\n" % (len(objects) + 1))
    out.write(b"startxref\n%d\n%%%%EOF\n" % xref)
    return out.getvalue()


def zip_of(name: str, data: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(name, data)
    return buffer.getvalue()


def hostile_files() -> dict[str, tuple[str, bytes]]:
    """kind -> (file name, bytes); `kind` tells a batch (archive) from a single."""
    bomb = memory_bomb_pdf()
    return {
        "poison_archive": ("poison.zip", poison_archive()),
        "pdf_bomb_archive": ("pdf-bomb.zip", zip_of("invoice.pdf", bomb)),
        "memory_bomb_pdf": ("memory-bomb.pdf", bomb),
    }

"""winmail.dat (TNEF) files made for the tests, in the layout Outlook writes: the
signature and key, the TNEF version and OEM code page (message level), then per file its
rendering data, title and data (attachment level), each attribute with its checksum."""

from __future__ import annotations

import struct

SIGNATURE = 0x223E9F78
LVL_MESSAGE, LVL_ATTACHMENT = 1, 2
# (attribute name, attribute type) as TNEF numbers them
TNEF_VERSION = (0x9006, 0x0008)
OEM_CODEPAGE = (0x9007, 0x0006)
ATTACH_RENDDATA = (0x9002, 0x0006)
ATTACH_TITLE = (0x8010, 0x0001)
ATTACH_DATA = (0x800F, 0x0006)
UNKNOWN = (0x7777, 0x0006)


def _attribute(level: int, attribute: tuple[int, int], data: bytes) -> bytes:
    name, kind = attribute
    checksum = sum(data) & 0xFFFF
    return struct.pack("<BHHI", level, name, kind, len(data)) + data + struct.pack("<H", checksum)


def winmail_dat(files: list[tuple[str, bytes]]) -> bytes:
    out = struct.pack("<IH", SIGNATURE, 0x0001)
    out += _attribute(LVL_MESSAGE, TNEF_VERSION, struct.pack("<I", 0x00010000))
    out += _attribute(LVL_MESSAGE, OEM_CODEPAGE, struct.pack("<II", 1252, 0))
    for name, data in files:
        rendering = struct.pack("<HIIH", 1, 0xFFFFFFFF, 0, 0) + bytes(2)
        out += _attribute(LVL_ATTACHMENT, ATTACH_RENDDATA, rendering)
        out += _attribute(LVL_ATTACHMENT, ATTACH_TITLE, name.encode("cp1252") + b"\0")
        out += _attribute(LVL_ATTACHMENT, ATTACH_DATA, data)
    return out


def many_tiny_objects(count: int) -> bytes:
    """A winmail.dat of `count` one-byte attributes of no known meaning: quadratic work
    for the parser."""
    out = struct.pack("<IH", SIGNATURE, 0x0001)
    return out + _attribute(LVL_MESSAGE, UNKNOWN, b"\0") * count

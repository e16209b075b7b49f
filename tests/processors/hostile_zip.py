"""The hostile corpus, ZIP part: archives refused at intake, but sniffed first."""

from __future__ import annotations

import struct


def zip_many_entries(count: int = 250_000) -> bytes:
    """Empty stored entries named with seven digits: a central directory of 13 MiB,
    whose end record gives the count modulo 65,536 (only its size tells)."""
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
    entries = count % 0x10000
    end = struct.pack(
        "<4s4H2IH", b"PK\x05\x06", 0, 0, entries, entries, len(directory), count * step, 0
    )
    return b"".join(local + name for name in names) + directory + end

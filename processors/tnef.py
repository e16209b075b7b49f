"""winmail.dat (TNEF, Outlook's rich-text wrapper) opened into the files it carries, with
tnefparse (PyPI; pure Python, standard library only). Bytes in, (name, bytes) out.

Threat model: a hostile winmail.dat in an e-mail, read in a kernel-limited reading
process. tnefparse copies the rest of the data for each object it reads, so a file of
many tiny objects costs it time quadratic in their number: the objects are counted by
walking their headers first (no copies), and more than MAX_OBJECTS refuse the file.
Anything tnefparse raises on malformed data makes the attachment a failed upload.
"""

from __future__ import annotations

import logging
import struct
from dataclasses import dataclass

from tnefparse import TNEF

SIGNATURE = 0x223E9F78
HEADER = struct.Struct("<BHHI")  # level, attribute name, attribute type, length
# An Outlook message with 100 attachments has about 1,000 objects.
MAX_OBJECTS = 10_000

# tnefparse logs a warning per unknown attribute or bad checksum: noise for a hostile file.
logging.getLogger("tnefparse").setLevel(logging.ERROR)


@dataclass(frozen=True, slots=True)
class TnefFiles:
    files: tuple[tuple[str, bytes], ...] = ()
    problem: str | None = None  # why nothing of it is read


def _object_count(data: bytes) -> int | None:
    """How many objects the file holds; None if it is not TNEF."""
    if len(data) < 6 or struct.unpack_from("<I", data)[0] != SIGNATURE:
        return None
    offset, count = 6, 0
    while offset + HEADER.size <= len(data) and count <= MAX_OBJECTS:
        *_, length = HEADER.unpack_from(data, offset)
        offset += HEADER.size + length + 2
        count += 1
    return count


def _name(attachment: object, position: int) -> str:
    try:
        name = attachment.long_filename()  # type: ignore[attr-defined]
    except Exception:
        name = None
    if isinstance(name, bytes):
        name = name.decode("utf-8", "replace")
    name = name.strip("\x00").strip() if isinstance(name, str) else ""
    return name or f"winmail-{position + 1}"


def read_tnef(data: bytes) -> TnefFiles:
    count = _object_count(data)
    if count is None:
        return TnefFiles(problem="the winmail.dat attachment is not TNEF")
    if count > MAX_OBJECTS:
        return TnefFiles(problem=f"the winmail.dat attachment has more than {MAX_OBJECTS} parts")
    try:
        parsed = TNEF(data, do_checksum=False)
        files = tuple(
            (_name(attachment, position), bytes(attachment.data))
            for position, attachment in enumerate(parsed.attachments)
            if attachment.data
        )
    except Exception as exc:  # tnefparse on malformed data: IndexError, struct.error, ...
        return TnefFiles(
            problem=f"the winmail.dat attachment could not be read ({type(exc).__name__})"
        )
    return TnefFiles(files)

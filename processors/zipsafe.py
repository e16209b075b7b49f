"""ZIP containers opened safely: the one check a ZIP's central directory passes before
`zipfile` parses it, and the one rule for which members may be inflated. Batches
(processors/archive.py) and ZIP-based documents inside them (processors/sniff.py,
processors/pipeline.py) open ZIPs only through here.

The directory. zipfile trusts the end record: it reads the directory by its declared
byte size, whatever the declared entry count, and builds one entry object per record
(17 s and 160 MiB for the 300,000 records of a 25 MiB ZIP; 0.9 s of the API's CPU for
100,000 records under an end record that said 1). So before zipfile sees a file, the end
record is read as zipfile reads it (ZIP64 too), and the directory must
- sit inside the file (zipfile reads it from just before the end record);
- declare at most `bounds.max_bytes` (only that much is read);
- hold at most `bounds.max_records` records, counted by walking their fixed headers (the
  end record's count is not believed).
`directory_misplaced` says whether the declared offset disagrees with where the
directory sits in a way that moves the members' offsets before the start of the file.

The members. zipfile inflates DEFLATE in bounded steps (`read(n)` gives the decompressor
a limit), but hands a whole compressed block to its BZIP2 and LZMA decompressors in one
call (a few KB became 3 GiB in one read; a 280-byte member 64 MiB on `read(200)`). Only
STORED and DEFLATE members are inflated; `member_problem` says why any other is not.
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from dataclasses import dataclass
from typing import BinaryIO

INFLATED_METHODS = frozenset({zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED})
METHOD_NAMES = {12: "BZIP2", 14: "LZMA", 9: "Deflate64", 93: "Zstandard", 95: "XZ", 98: "PPMd"}
ENCRYPTED_FLAG = 0x1

_END = b"PK\x05\x06"
_END_SIZE = 22
_MAX_COMMENT = 0xFFFF
_ZIP64_LOCATOR = b"PK\x06\x07"
_ZIP64_LOCATOR_SIZE = 20
_ZIP64_END = b"PK\x06\x06"
_ZIP64_END_SIZE = 56
_RECORD = b"PK\x01\x02"
_RECORD_SIZE = 46

# The errors zipfile and the file object under it raise for a broken ZIP.
ZIP_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError, struct.error)


class NotReadableZip(Exception):
    """No end record, or a directory that is not where it says, or broken."""


class DirectoryTooLarge(NotReadableZip):
    """The directory is over the bounds: it is not parsed."""


@dataclass(frozen=True, slots=True)
class DirectoryBounds:
    max_records: int
    max_bytes: int


@dataclass(frozen=True, slots=True)
class Directory:
    """The central directory as the end record declares it, and where zipfile reads it."""

    declared_records: int
    size: int
    declared_offset: int
    start: int  # where zipfile reads it: just before the end record (and ZIP64 records)


def _end_record(fileobj: BinaryIO) -> Directory:
    size = fileobj.seek(0, io.SEEK_END)
    tail_start = max(0, size - _END_SIZE - _MAX_COMMENT)
    fileobj.seek(tail_start)
    tail = fileobj.read(size - tail_start)
    at = tail.rfind(_END)
    if at < 0 or len(tail) - at < _END_SIZE:
        raise NotReadableZip("not a readable ZIP archive (no end record)")
    records, directory_bytes, offset = struct.unpack_from("<HII", tail, at + 10)
    end = tail_start + at
    zip64 = _zip64_end(fileobj, end)
    if zip64 is not None:
        records, directory_bytes, offset = zip64
        end -= _ZIP64_END_SIZE + _ZIP64_LOCATOR_SIZE
    return Directory(records, directory_bytes, offset, end - directory_bytes)


def _zip64_end(fileobj: BinaryIO, end: int) -> tuple[int, int, int] | None:
    """Entries, size and offset of the ZIP64 end record, read where zipfile reads it:
    right before its locator, which sits right before the end record."""
    if end < _ZIP64_LOCATOR_SIZE + _ZIP64_END_SIZE:
        return None
    fileobj.seek(end - _ZIP64_LOCATOR_SIZE - _ZIP64_END_SIZE)
    data = fileobj.read(_ZIP64_END_SIZE + _ZIP64_LOCATOR_SIZE)
    if data[_ZIP64_END_SIZE : _ZIP64_END_SIZE + 4] != _ZIP64_LOCATOR or data[:4] != _ZIP64_END:
        return None
    records, directory_bytes, offset = struct.unpack_from("<QQQ", data, 32)
    return int(records), int(directory_bytes), int(offset)


def _count_records(raw: bytes, limit: int) -> int:
    """Records in the directory's bytes, counted up to `limit + 1` by their fixed headers."""
    count = at = 0
    while at < len(raw) and count <= limit:
        if raw[at : at + 4] != _RECORD or at + _RECORD_SIZE > len(raw):
            raise NotReadableZip("not a readable ZIP archive (broken central directory)")
        name, extra, comment = struct.unpack_from("<3H", raw, at + 28)
        at += _RECORD_SIZE + name + extra + comment
        count += 1
    return count


def check_directory(fileobj: BinaryIO, bounds: DirectoryBounds) -> Directory:
    """The directory, once it is known to sit in the file and to be within `bounds`;
    reads at most the tail and `bounds.max_bytes`."""
    try:
        directory = _end_record(fileobj)
        if directory.start < 0:
            raise NotReadableZip("not a readable ZIP archive (bad central directory size)")
        _check_declared(directory, bounds)
        fileobj.seek(directory.start)
        records = _count_records(fileobj.read(directory.size), bounds.max_records)
        fileobj.seek(0)
    except ZIP_ERRORS as exc:
        raise NotReadableZip(f"not a readable ZIP archive: {exc}") from exc
    if records > bounds.max_records:
        raise DirectoryTooLarge(
            f"the archive's directory holds more than {bounds.max_records} entries (its end "
            f"record says {directory.declared_records}); at most {bounds.max_records} are read"
        )
    return directory


def _check_declared(directory: Directory, bounds: DirectoryBounds) -> None:
    if directory.declared_records > bounds.max_records:
        raise DirectoryTooLarge(
            f"the archive's directory lists {directory.declared_records} entries; at most "
            f"{bounds.max_records} are read"
        )
    if directory.size > bounds.max_bytes:
        raise DirectoryTooLarge(
            f"the archive's directory takes {directory.size} bytes; at most "
            f"{bounds.max_bytes} are read"
        )


def directory_misplaced(directory: Directory) -> str | None:
    """Why the declared offset cannot be right: it places the directory after where it
    sits, so zipfile would look for members before the start of the file. (Before it is
    the normal case of bytes prepended to an archive: zipfile shifts every member.)"""
    if directory.declared_offset <= directory.start:
        return None
    return (
        f"the archive's directory says it starts at byte {directory.declared_offset}, "
        f"but it starts at byte {directory.start}"
    )


def open_zip(
    fileobj: BinaryIO, bounds: DirectoryBounds, *, require_placed: bool = False
) -> zipfile.ZipFile:
    """The ZIP with its directory parsed, once `check_directory` passed; with
    `require_placed`, a misplaced directory (`directory_misplaced`) is refused too."""
    directory = check_directory(fileobj, bounds)
    misplaced = directory_misplaced(directory) if require_placed else None
    if misplaced is not None:
        raise NotReadableZip(f"not a readable ZIP archive: {misplaced}")
    try:
        return zipfile.ZipFile(fileobj)
    except (*ZIP_ERRORS, NotImplementedError) as exc:
        raise NotReadableZip(f"not a readable ZIP archive: {exc}") from exc


def member_problem(info: zipfile.ZipInfo) -> str | None:
    """Why the member is not inflated: a method other than STORED and DEFLATE, or a
    local header before the start of the file (a misplaced directory); None to read it."""
    if info.compress_type not in INFLATED_METHODS:
        name = METHOD_NAMES.get(info.compress_type, f"method {info.compress_type}")
        return f"the archive entry is compressed with {name}; only DEFLATE and STORED are read"
    if info.header_offset < 0:
        return (
            "the archive entry could not be unpacked (its local header would lie "
            f"{-info.header_offset} bytes before the start of the archive)"
        )
    return None


def read_head(archive: zipfile.ZipFile, name: str, limit: int) -> bytes | None:
    """At most the first `limit` bytes of member `name`; None when it is missing,
    encrypted, broken or not to be inflated (`member_problem`)."""
    try:
        info = archive.getinfo(name)
    except KeyError:
        return None
    if member_problem(info) is not None or info.flag_bits & ENCRYPTED_FLAG:
        return None
    try:
        with archive.open(info) as member:
            return member.read(limit)
    except (*ZIP_ERRORS, zlib.error, OSError, NotImplementedError, RuntimeError):
        return None

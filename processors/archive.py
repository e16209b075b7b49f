"""ZIP archives, pure: the checks before a batch is accepted, and reading its members
under a byte budget. Bytes in (a seekable file object), members and refusals out; the
flows pipe what this yields into the object store and the database.

- Before anything is parsed, the central directory's declared size and place, and its
  records, are checked (processors/zipsafe.py): a directory of 300,000 records is
  refused without building 300,000 entry objects, whatever its end record claims.
- Entry names are labels of uploads, never filesystem paths.
- Limits are enforced on the bytes actually inflated, as they are produced: headers
  can lie (zip bombs, overlapping entries).
- Only STORED and DEFLATE members are inflated (zipsafe.member_problem): members with
  other methods, or whose local header lies before the file, fail alone
  (`unsupported_file_type`) without being inflated.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import BinaryIO, TypeVar

from processors.zipsafe import (
    ENCRYPTED_FLAG,
    DirectoryBounds,
    DirectoryTooLarge,
    NotReadableZip,
    member_problem,
    open_zip,
)

CHUNK = 1024 * 1024
# Directory records read per allowed document: directories, __MACOSX/ forks and hidden
# files are records too (a Mac archive of 100 documents has about 200).
RECORDS_PER_DOCUMENT = 10
# Directory bytes read per record allowed: 46 bytes of header, then name, extra fields
# and comment (a Mac archive's records average about 120 bytes).
DIRECTORY_BYTES_PER_RECORD = 1024

_T = TypeVar("_T")


class ArchiveProblem(StrEnum):
    INVALID = "invalid_archive"
    TOO_MANY_FILES = "archive_too_many_files"
    TOO_LARGE = "archive_too_large"


class ArchiveRejected(Exception):
    """The whole archive is refused: nothing of it may be kept."""

    def __init__(self, problem: ArchiveProblem, message: str) -> None:
        super().__init__(message)
        self.problem = problem
        self.message = message

    def __reduce__(self) -> tuple[type[ArchiveRejected], tuple[ArchiveProblem, str]]:
        return ArchiveRejected, (self.problem, self.message)  # crosses process pipes


class SourceUnreadable(Exception):
    """The archive's own bytes could not be fetched (store or disk trouble): not the
    archive's fault, the work waits."""


@dataclass(frozen=True, slots=True)
class ArchiveLimits:
    max_files: int
    max_total_bytes: int
    max_file_bytes: int = 0  # 0: no per-member limit (the check before 202)

    @property
    def max_records(self) -> int:
        return max(self.max_files, 1) * RECORDS_PER_DOCUMENT

    @property
    def directory_bounds(self) -> DirectoryBounds:
        return DirectoryBounds(self.max_records, self.max_records * DIRECTORY_BYTES_PER_RECORD)


@dataclass(frozen=True, slots=True)
class ArchiveSummary:
    file_count: int
    declared_bytes: int
    skipped: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class UnpackedEntry:
    """One document of an archive, read with the limits applied to inflated bytes."""

    position: int
    name: str
    sha256: str
    size: int
    too_large: bool
    unreadable: str | None


def is_junk(name: str) -> bool:
    """Directories, macOS resource forks and hidden files are not documents."""
    if name.endswith("/"):
        return True
    parts = name.replace("\\", "/").split("/")
    return "__MACOSX" in parts or parts[-1].startswith(".")


def safe_label(name: str) -> str:
    """An entry name as a file name label: no control characters, bounded length."""
    cleaned = "".join(char if ord(char) >= 32 else "?" for char in name)
    return cleaned[:1024] or "unnamed"


def open_archive(
    fileobj: BinaryIO, limits: ArchiveLimits, *, require_placed: bool = False
) -> zipfile.ZipFile:
    """The archive with its directory parsed, once it is known to be within the limits
    (processors/zipsafe.py: its declared size and its records, not its declared count).
    The check before 202 also refuses a directory that is not where the end record says;
    unpacking reads such an archive and fails its members alone."""
    try:
        return open_zip(fileobj, limits.directory_bounds, require_placed=require_placed)
    except DirectoryTooLarge as exc:
        raise ArchiveRejected(
            ArchiveProblem.TOO_MANY_FILES, f"{exc} (at most {limits.max_files} documents)"
        ) from exc
    except NotReadableZip as exc:
        raise ArchiveRejected(ArchiveProblem.INVALID, str(exc)) from exc


def document_entries(archive: zipfile.ZipFile, limits: ArchiveLimits) -> list[zipfile.ZipInfo]:
    """The members that are documents, at most `limits.max_files` of them."""
    entries = [info for info in archive.infolist() if not is_junk(info.filename)]
    if len(entries) > limits.max_files:
        raise ArchiveRejected(
            ArchiveProblem.TOO_MANY_FILES,
            f"the archive holds {len(entries)} files; at most {limits.max_files} are allowed",
        )
    return entries


def inspect_central_directory(fileobj: BinaryIO, limits: ArchiveLimits) -> ArchiveSummary:
    """Refuse archives that are not ZIPs, are encrypted, or declare too much."""
    with open_archive(fileobj, limits, require_placed=True) as archive:
        skipped = tuple(info.filename for info in archive.infolist() if is_junk(info.filename))
        entries = document_entries(archive, limits)
    encrypted = [info.filename for info in entries if info.flag_bits & ENCRYPTED_FLAG]
    if encrypted:
        raise ArchiveRejected(
            ArchiveProblem.INVALID, f"encrypted entries are not supported: {encrypted[0]}"
        )
    if not entries:
        raise ArchiveRejected(ArchiveProblem.INVALID, "the archive contains no files")
    declared = sum(info.file_size for info in entries)
    if declared > limits.max_total_bytes:
        raise ArchiveRejected(
            ArchiveProblem.TOO_LARGE,
            f"the archive unpacks to {declared} bytes; at most {limits.max_total_bytes}"
            " are allowed",
        )
    return ArchiveSummary(file_count=len(entries), declared_bytes=declared, skipped=skipped)


class Budget:
    """Bytes the whole archive may still inflate to."""

    def __init__(self, total: int) -> None:
        self.left = total

    def take(self, size: int) -> None:
        self.left -= size
        if self.left < 0:
            raise ArchiveRejected(
                ArchiveProblem.TOO_LARGE, "the archive unpacks to more than the limit allows"
            )


# What inflating a member's own bytes can raise: the member is broken, not the archive.
MEMBER_ERRORS = (zipfile.BadZipFile, zlib.error, NotImplementedError, EOFError, ValueError)


def read_member(
    archive: zipfile.ZipFile,
    info: zipfile.ZipInfo,
    position: int,
    limits: ArchiveLimits,
    budget: Budget,
    sink: Callable[[bytes], None],
) -> UnpackedEntry:
    """Inflate one member into `sink`, a block at a time, counting every block against
    the member's and the archive's limits. Errors of `sink` (the store) propagate."""
    name = safe_label(info.filename)
    digest, size = hashlib.sha256(), 0
    refused = member_problem(info)
    if refused is not None:
        return UnpackedEntry(position, name, digest.hexdigest(), 0, False, refused)
    try:
        with archive.open(info) as stream:
            while block := stream.read(CHUNK):
                size += len(block)
                budget.take(len(block))
                if limits.max_file_bytes and size > limits.max_file_bytes:
                    return UnpackedEntry(position, name, digest.hexdigest(), size, True, None)
                digest.update(block)
                sink(block)
    except MEMBER_ERRORS as exc:
        message = f"the archive entry could not be unpacked ({exc})"
        return UnpackedEntry(position, name, digest.hexdigest(), size, False, message)
    return UnpackedEntry(position, name, digest.hexdigest(), size, False, None)


def guarded(inner: BinaryIO) -> BinaryIO:
    """`inner`, with its read errors turned into SourceUnreadable."""
    return io.BufferedReader(GuardedSource(inner), buffer_size=CHUNK)


class GuardedSource(io.RawIOBase):
    """An archive's bytes whose read errors say "source unreadable": zipfile passes them
    through, and they must not be mistaken for a broken member."""

    def __init__(self, inner: BinaryIO) -> None:
        self._inner = inner

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        if whence == io.SEEK_SET and offset < 0:
            # An offset of the archive's own, not the store's trouble: a file refuses
            # it (EINVAL) and the S3 reader clamps it, so it is refused here for both.
            raise ValueError(f"negative seek position {offset}")
        return self._guard(lambda: self._inner.seek(offset, whence))

    def tell(self) -> int:
        return self._guard(self._inner.tell)

    def readinto(self, target: memoryview) -> int:  # type: ignore[override]
        data = self._guard(lambda: self._inner.read(len(target)))
        target[: len(data)] = data
        return len(data)

    def _guard(self, call: Callable[[], _T]) -> _T:
        try:
            return call()
        except Exception as exc:
            raise SourceUnreadable(f"the archive could not be read: {exc}") from exc

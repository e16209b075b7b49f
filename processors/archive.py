"""ZIP archives: which entries count, and the limits checked before a batch is accepted.

Entry names are kept as the file name of an upload, never used as a filesystem path.
The check here reads only the central directory (declared sizes); the unpacking step
enforces the same limits again on the bytes actually inflated.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from enum import StrEnum
from typing import BinaryIO

_ENCRYPTED_FLAG = 0x1


class ArchiveProblem(StrEnum):
    INVALID = "invalid_archive"
    TOO_MANY_FILES = "archive_too_many_files"
    TOO_LARGE = "archive_too_large"


class ArchiveRejected(Exception):
    def __init__(self, problem: ArchiveProblem, message: str) -> None:
        super().__init__(message)
        self.problem = problem
        self.message = message


@dataclass(frozen=True, slots=True)
class ArchiveLimits:
    max_files: int
    max_total_bytes: int


@dataclass(frozen=True, slots=True)
class ArchiveSummary:
    file_count: int
    declared_bytes: int
    skipped: tuple[str, ...]


def is_junk(name: str) -> bool:
    """Directories, macOS resource forks and hidden files are not documents."""
    if name.endswith("/"):
        return True
    parts = name.replace("\\", "/").split("/")
    return "__MACOSX" in parts or parts[-1].startswith(".")


def document_entries(archive: zipfile.ZipFile) -> list[zipfile.ZipInfo]:
    return [info for info in archive.infolist() if not is_junk(info.filename)]


def open_archive(fileobj: BinaryIO) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(fileobj)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError, OSError) as exc:
        raise ArchiveRejected(ArchiveProblem.INVALID, f"not a readable ZIP archive: {exc}") from exc


def inspect_central_directory(fileobj: BinaryIO, limits: ArchiveLimits) -> ArchiveSummary:
    """Refuse archives that are not ZIPs, are encrypted, or declare too much."""
    with open_archive(fileobj) as archive:
        entries = document_entries(archive)
        skipped = tuple(info.filename for info in archive.infolist() if is_junk(info.filename))
    encrypted = [info.filename for info in entries if info.flag_bits & _ENCRYPTED_FLAG]
    if encrypted:
        raise ArchiveRejected(
            ArchiveProblem.INVALID, f"encrypted entries are not supported: {encrypted[0]}"
        )
    if not entries:
        raise ArchiveRejected(ArchiveProblem.INVALID, "the archive contains no files")
    if len(entries) > limits.max_files:
        raise ArchiveRejected(
            ArchiveProblem.TOO_MANY_FILES,
            f"the archive holds {len(entries)} files; at most {limits.max_files} are allowed",
        )
    declared = sum(info.file_size for info in entries)
    if declared > limits.max_total_bytes:
        raise ArchiveRejected(
            ArchiveProblem.TOO_LARGE,
            f"the archive unpacks to {declared} bytes; at most {limits.max_total_bytes}"
            " are allowed",
        )
    return ArchiveSummary(file_count=len(entries), declared_bytes=declared, skipped=skipped)


@dataclass(frozen=True, slots=True)
class UnpackedEntry:
    """One document of an archive, read with the limits applied to inflated bytes."""

    position: int
    name: str
    sha256: str
    size: int
    too_large: bool
    unreadable: str | None


def safe_label(name: str) -> str:
    """An entry name as a file name label: no control characters, bounded length."""
    cleaned = "".join(char if ord(char) >= 32 else "?" for char in name)
    return cleaned[:1024] or "unnamed"

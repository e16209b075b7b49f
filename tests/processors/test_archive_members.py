"""Archive attacks on plain bytes, through the pure archive module: no Prefect, no
database, no store. Each member is inflated into a sink; limits count inflated bytes."""

from __future__ import annotations

import io
import struct
import time
import tracemalloc
import zipfile
from typing import BinaryIO

import pytest

from processors.archive import (
    ArchiveLimits,
    ArchiveProblem,
    ArchiveRejected,
    Budget,
    SourceUnreadable,
    UnpackedEntry,
    document_entries,
    guarded,
    inspect_central_directory,
    open_archive,
    read_member,
)
from tests.api.helpers import lying_sizes, make_zip
from tests.processors import hostile_zip

MIB = 1024 * 1024
LIMITS = ArchiveLimits(max_files=100, max_total_bytes=20 * MIB, max_file_bytes=8 * MIB)


def _unpack(archive: bytes, limits: ArchiveLimits = LIMITS) -> list[UnpackedEntry]:
    budget = Budget(limits.max_total_bytes)
    with open_archive(io.BytesIO(archive), limits) as opened:
        return [
            read_member(opened, info, position, limits, budget, lambda block: None)
            for position, info in enumerate(document_entries(opened, limits))
        ]


def _with_records(archive: bytes, count: int, zip64: bool = False) -> bytes:
    """The archive with its end-of-central-directory record claiming `count` entries."""
    at = archive.rfind(b"PK\x05\x06")
    eocd = bytearray(archive[at:])
    if not zip64:
        struct.pack_into("<HH", eocd, 8, count, count)
        return archive[:at] + bytes(eocd)
    struct.pack_into("<HH", eocd, 8, 0xFFFF, 0xFFFF)
    record = b"PK\x06\x06" + struct.pack("<QHHIIQQQQ", 44, 45, 45, 0, 0, count, count, 0, 0)
    locator = b"PK\x06\x07" + struct.pack("<IQI", 0, at, 1)
    return archive[:at] + record + locator + bytes(eocd)


@pytest.mark.parametrize(("records", "zip64"), [(60_000, False), (300_000, True)])
def test_a_directory_flood_is_refused_before_any_entry_is_parsed(records: int, zip64: bool) -> None:
    flood = _with_records(make_zip({"a.pdf": b"%PDF-1.4"}), records, zip64)
    started = time.process_time()
    with pytest.raises(ArchiveRejected) as rejected:
        inspect_central_directory(io.BytesIO(flood), LIMITS)
    assert rejected.value.problem is ArchiveProblem.TOO_MANY_FILES
    assert f"{records} entries" in rejected.value.message
    assert time.process_time() - started < 0.05


@pytest.mark.parametrize("records", [400_001, 15_000])
def test_a_directory_whose_end_record_claims_one_entry_is_refused_unparsed(records: int) -> None:
    """400,001 records: 21 MiB of directory, over its size bound; 15,000: 795 KiB, within
    it, but over the 1,000 records read (counted by their headers, not believed)."""
    flood = hostile_zip.zip_lying_count(records)
    started = time.process_time()
    with pytest.raises(ArchiveRejected) as rejected:
        inspect_central_directory(io.BytesIO(flood), LIMITS)
    assert time.process_time() - started < 0.05
    assert rejected.value.problem is ArchiveProblem.TOO_MANY_FILES
    with pytest.raises(ArchiveRejected):
        _unpack(flood)  # the reading process applies the same check


def test_a_misplaced_directory_is_refused_before_202_and_fails_its_members_at_unpack() -> None:
    archive = hostile_zip.misplaced_directory({"a.pdf": b"%PDF-1.4 a", "b.pdf": b"%PDF-1.4 b"})
    with pytest.raises(ArchiveRejected) as rejected:
        inspect_central_directory(io.BytesIO(archive), LIMITS)
    assert rejected.value.problem is ArchiveProblem.INVALID
    assert "directory says it starts at byte" in rejected.value.message
    entries = _unpack(archive)
    assert len(entries) == 2
    for entry in entries:
        assert entry.unreadable is not None and "before the start" in entry.unreadable


def test_junk_records_are_read_up_to_ten_per_document() -> None:
    mac = {f"d/{i}.pdf": b"%PDF" for i in range(3)}
    mac.update({f"__MACOSX/d/._{i}.pdf": b"fork" for i in range(3)})
    summary = inspect_central_directory(io.BytesIO(make_zip(mac)), ArchiveLimits(3, 1000))
    assert summary.file_count == 3


def test_a_bomb_member_stops_at_the_file_limit_with_bounded_memory() -> None:
    bomb = make_zip({"bomb.pdf": b"\0" * (12 * MIB)})
    assert len(bomb) < 100_000
    tracemalloc.start()
    try:
        [entry] = _unpack(bomb)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert entry.too_large and entry.size > LIMITS.max_file_bytes
    assert peak < 4 * MIB  # a block at a time, never the member whole


def test_members_over_the_archive_budget_refuse_the_whole_archive() -> None:
    bombs = make_zip({f"{i}.pdf": b"\0" * (7 * MIB) for i in range(4)})
    with pytest.raises(ArchiveRejected) as rejected:
        _unpack(bombs)
    assert rejected.value.problem is ArchiveProblem.TOO_LARGE


@pytest.mark.parametrize(
    ("method", "name"), [(zipfile.ZIP_BZIP2, "BZIP2"), (zipfile.ZIP_LZMA, "LZMA")]
)
def test_members_of_other_methods_fail_alone_without_being_inflated(method: int, name: str) -> None:
    archive = make_zip({"bomb.pdf": b"\0" * (30 * MIB)}, compression=method)
    started = time.process_time()
    [entry] = _unpack(archive)
    assert time.process_time() - started < 0.1  # nothing inflated
    assert entry.unreadable is not None and name in entry.unreadable
    assert entry.size == 0


def test_understated_sizes_fail_the_member_not_the_archive() -> None:
    archive = lying_sizes(make_zip({f"{i}.pdf": b"%PDF" + b"\0" * MIB for i in range(2)}), 10)
    entries = _unpack(archive)
    assert [entry.unreadable is not None for entry in entries] == [True, True]
    assert all(entry.size <= 10 for entry in entries)


def test_a_corrupt_member_fails_alone() -> None:
    archive = bytearray(make_zip({"a.pdf": b"A" * 5000, "b.pdf": b"%PDF-1.4"}))
    data_at = archive.find(b"a.pdf") + len("a.pdf")
    archive[data_at + 10 : data_at + 20] = b"\xff" * 10
    first, second = _unpack(bytes(archive))
    assert first.unreadable is not None
    assert (second.unreadable, second.size) == (None, 8)


class _FailingSource(io.BytesIO):
    """An archive whose store fails after the directory was read."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.reads = 0

    def read(self, size: int | None = -1) -> bytes:
        self.reads += 1
        if self.reads > 3:
            raise OSError("disk error")
        return super().read(size)


def test_store_trouble_is_not_a_broken_member() -> None:
    archive = make_zip({"a.pdf": b"%PDF" * 100_000})
    source: BinaryIO = guarded(_FailingSource(archive))
    with pytest.raises(SourceUnreadable), open_archive(source, LIMITS) as opened:
        budget = Budget(LIMITS.max_total_bytes)
        for position, info in enumerate(document_entries(opened, LIMITS)):
            read_member(opened, info, position, LIMITS, budget, lambda block: None)


def test_errors_of_the_sink_propagate() -> None:
    def full_disk(block: bytes) -> None:
        raise OSError("no space left on device")

    with open_archive(io.BytesIO(make_zip({"a.pdf": b"%PDF"})), LIMITS) as opened:
        [info] = document_entries(opened, LIMITS)
        with pytest.raises(OSError, match="no space"):
            read_member(opened, info, 0, LIMITS, Budget(MIB), full_disk)


def test_a_refusal_survives_a_process_pipe() -> None:
    import pickle

    refusal = ArchiveRejected(ArchiveProblem.TOO_LARGE, "too much")
    copy = pickle.loads(pickle.dumps(refusal))
    assert (copy.problem, copy.message) == (ArchiveProblem.TOO_LARGE, "too much")


def test_a_negative_offset_is_the_archive_s_fault_not_the_store_s() -> None:
    source = guarded(io.BytesIO(make_zip({"a.pdf": b"%PDF"})))
    with pytest.raises(ValueError, match="negative seek"):
        source.seek(-5000)

"""A central-directory flood is refused from the end-of-central-directory record alone:
it costs the API no more than any other refused archive."""

from __future__ import annotations

import struct
import time
import zlib

from fastapi.testclient import TestClient

from storage.settings import Settings
from tests.api.helpers import assert_problem, post_batch
from tests.conftest import Tenant
from tests.processors.hostile_zip import misplaced_directory, zip_lying_count

RECORDS = 300_000


def _flood(records: int) -> bytes:
    """One stored entry and `records` central-directory records pointing at it (ZIP64
    end records: the plain one counts at most 65,535)."""
    data = b"%PDF-1.4\n"
    crc = zlib.crc32(data)
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, 0, 0, crc, len(data), len(data), 5, 0)
    local += b"a.pdf" + data
    record = struct.pack(
        "<IHHHHHHIIIHHHHHII",
        0x02014B50, 20, 20, 0, 0, 0, 0, crc, len(data), len(data), 5, 0, 0, 0, 0, 0, 0,
    )  # fmt: skip
    directory = (record + b"a.pdf") * records
    start = len(local)
    end64 = struct.pack(
        "<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, records, records, len(directory), start
    )
    locator = struct.pack("<IIQI", 0x07064B50, 0, start + len(directory), 1)
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    return local + directory + end64 + locator + end


def test_a_directory_flood_is_refused_before_its_entries_are_parsed(
    client: TestClient, tenant: Tenant, settings: Settings
) -> None:
    settings.max_file_bytes = 50 * 1024 * 1024  # the production request cap, 200 MiB
    flood = _flood(RECORDS)
    assert len(flood) > 10_000_000
    started = time.process_time()
    response = post_batch(client, tenant.headers, flood)
    spent = time.process_time() - started
    body = assert_problem(response, 422, "archive_too_many_files")
    assert f"{RECORDS} entries" in body["detail"]
    # Receiving and hashing 15 MB is most of it; parsing 300,000 records took 1.6 s.
    assert spent < 1.0, spent


def _cpu_of_refusal(client: TestClient, tenant: Tenant, archive: bytes, code: str) -> float:
    started = time.process_time()
    response = post_batch(client, tenant.headers, archive)
    spent = time.process_time() - started
    assert_problem(response, 422, code)
    return spent


def test_a_directory_whose_end_record_claims_one_entry_costs_no_more_than_any_refusal(
    client: TestClient, tenant: Tenant, settings: Settings
) -> None:
    """Issue 37, finding 2: 400,001 records under an end record that claims 1 were
    parsed by zipfile (202 after 3.4 s). The directory's declared size refuses them."""
    settings.max_file_bytes = 50 * 1024 * 1024  # the production request cap, 200 MiB
    flood = zip_lying_count(400_001)
    not_a_zip = b"\0" * len(flood)  # the same bytes to receive and hash, refused at once
    baseline = _cpu_of_refusal(client, tenant, not_a_zip, "invalid_archive")
    spent = _cpu_of_refusal(client, tenant, flood, "archive_too_many_files")
    print(f"{len(flood)} bytes: refused in {spent:.3f} s of CPU (not a ZIP: {baseline:.3f} s)")
    assert spent < baseline + 0.2, (spent, baseline)


def test_a_directory_that_is_not_where_its_end_record_says_is_refused(
    client: TestClient, tenant: Tenant
) -> None:
    archive = misplaced_directory({"a.pdf": b"%PDF-1.4 a"})
    body = assert_problem(post_batch(client, tenant.headers, archive), 422, "invalid_archive")
    assert "directory says it starts at byte" in body["detail"]

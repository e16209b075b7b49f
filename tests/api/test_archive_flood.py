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

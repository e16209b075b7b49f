"""A batch's files are claimed, and so read, largest first (a scan's OCR costs seconds,
a text PDF milliseconds): the batch does not end on one reading process."""

from __future__ import annotations

import uuid
from datetime import timedelta

from storage.db import Database
from storage.repositories import work as work_repo
from tests.conftest import Tenant
from tests.web.support import seed_batch, seed_upload

LEASE = timedelta(seconds=60)


def _batch(database: Database, tenant: Tenant, sizes: list[int]) -> uuid.UUID:
    """An unpacked batch of queued files of these sizes, in archive order."""
    batch_id = seed_batch(database, tenant.company_id, [])
    for position, size in enumerate(sizes):
        seed_upload(
            database, tenant.company_id, batch_id=batch_id, position=position, size_bytes=size
        )
    return batch_id


def _claimed_positions(database: Database, batch_id: uuid.UUID, limit: int) -> list[int | None]:
    with database.session() as session:
        uploads = work_repo.claim_uploads(session, "worker-1", limit, LEASE, batch_id)
        session.commit()
        return [upload.position for upload in uploads]


def test_a_batch_is_claimed_largest_file_first(database: Database, tenant: Tenant) -> None:
    batch_id = _batch(database, tenant, [2_000, 900_000, 5_000, 900_000, 40_000])
    assert _claimed_positions(database, batch_id, 10) == [1, 3, 4, 2, 0]


def test_a_partial_claim_takes_the_largest_files(database: Database, tenant: Tenant) -> None:
    batch_id = _batch(database, tenant, [2_000, 1_300_000, 5_000, 600_000])
    assert _claimed_positions(database, batch_id, 2) == [1, 3]
    assert _claimed_positions(database, batch_id, 2) == [2, 0]

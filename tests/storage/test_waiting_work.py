"""`waiting_work`: the one statement a worker's idle loops poll, on both backends."""

from __future__ import annotations

from datetime import timedelta

from fastapi.testclient import TestClient

from storage.db import Database
from storage.models import utcnow
from storage.repositories import work as work_repo
from testkit.samples import blank_pdf
from tests.api.helpers import make_zip, post_batch, post_upload
from tests.conftest import Tenant

LEASE = timedelta(seconds=60)


def _waiting(database: Database) -> work_repo.Waiting:
    with database.read_session() as session:
        return work_repo.waiting_work(session, utcnow())


def test_an_empty_queue_has_nothing_waiting(database: Database) -> None:
    assert _waiting(database) == work_repo.Waiting(singles=False, batch=False)


def test_a_queued_single_upload_waits_until_claimed(
    client: TestClient, tenant: Tenant, database: Database
) -> None:
    assert post_upload(client, tenant.headers, blank_pdf()).status_code == 202
    assert _waiting(database) == work_repo.Waiting(singles=True, batch=False)
    with database.session() as session:
        work_repo.claim_uploads(session, "worker-1", 10, LEASE, None)
        session.commit()
    assert _waiting(database) == work_repo.Waiting(singles=False, batch=False)


def test_a_batch_waits_until_a_worker_holds_it_and_again_when_its_lease_runs_out(
    client: TestClient, tenant: Tenant, database: Database
) -> None:
    archive = make_zip({"a.pdf": blank_pdf(), "b.pdf": blank_pdf("b")})
    assert post_batch(client, tenant.headers, archive).status_code == 202
    assert _waiting(database) == work_repo.Waiting(singles=False, batch=True)
    with database.session() as session:
        assert work_repo.claim_batch(session, "worker-1", LEASE) is not None
        session.commit()
    assert _waiting(database).batch is False
    with database.read_session() as session:
        later = work_repo.waiting_work(session, utcnow() + 2 * LEASE)
    assert later.batch is True  # its holder stopped renewing: another worker may take it

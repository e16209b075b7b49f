"""One company's bulk, one bad archive, one vanished object: none of them stops the
others. Real reading processes, a real database and store."""

from __future__ import annotations

import signal
import threading
import time
import uuid
from datetime import datetime

from fastapi.testclient import TestClient
from sqlalchemy import func, select

from flows.unpack import BatchInfo, unpack
from flows.work import WorkerEnv, claim, run_job
from flows.worker import Worker
from storage.db import Database
from storage.models import Batch, StatusChange, Upload
from storage.repositories import work as work_repo
from tests.api.helpers import make_zip, post_batch, post_upload
from tests.conftest import Tenant, make_tenant
from tests.flows.samples import blank_pdf
from tests.flows.test_recovery import _kill_the_busy_reader, _wait_for

MIB = 1024 * 1024


def _terminal_at(db: Database, upload_id: str) -> datetime | None:
    statement = select(func.max(StatusChange.at)).where(
        StatusChange.upload_id == uuid.UUID(upload_id),
        StatusChange.to_status.in_(("completed", "failed")),
    )
    with db.read_session() as session:
        return session.scalar(statement)


def _not_terminal(db: Database, company: Tenant) -> int:
    statement = select(func.count()).where(
        Upload.company_id == company.company_id, Upload.status.in_(("queued", "processing"))
    )
    with db.read_session() as session:
        return int(session.scalar(statement) or 0)


def test_a_single_upload_is_not_stuck_behind_another_company_bulk(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    for n in range(300):
        post_upload(api, company.headers, blank_pdf(f"bulk-{n}"), f"bulk-{n}.pdf")
    other = make_tenant(env.db, "Kleinbetrieb GmbH")
    single = post_upload(api, other.headers, blank_pdf("single")).json()["id"]
    posted = time.monotonic()

    worker = Worker(env)
    thread = threading.Thread(target=worker.run, daemon=True)
    thread.start()
    try:
        _wait_for(lambda: _terminal_at(env.db, single) is not None, 120, "the single upload")
        waited = time.monotonic() - posted
        left_behind = _not_terminal(env.db, company)
    finally:
        worker.stop.set()
        thread.join(timeout=60)
    print(f"single upload terminal {waited:.2f} s after its POST; bulk left: {left_behind}")
    assert left_behind >= 150  # it did not wait for the bulk ahead of it


def _slow_batch(api: TestClient, company: Tenant, env: WorkerEnv) -> tuple[str, BatchInfo]:
    """A batch whose unpack keeps its process busy for seconds."""
    env.settings.max_archive_bytes = 400 * MIB
    env.settings.max_file_bytes = 50 * MIB  # each member is inflated whole: 360 MiB of work
    archive = make_zip({f"{n}.pdf": b"%PDF-1.4\n" + b"\0" * (45 * MIB) for n in range(8)})
    batch_id = post_batch(api, company.headers, archive).json()["id"]
    with env.db.read_session() as session:
        batch = session.get(Batch, uuid.UUID(batch_id))
        assert batch is not None
        return batch_id, BatchInfo.of(batch)


def _unpack_hit_by(env: WorkerEnv, info: BatchInfo, *signals: signal.Signals) -> None:
    """Unpack the batch while each signal in turn hits its busy reading process."""
    unpacking = threading.Thread(target=unpack, args=(env, info))
    unpacking.start()
    try:
        for how in signals:
            _kill_the_busy_reader(env.executor, how)
    finally:
        unpacking.join(timeout=180)
    assert not unpacking.is_alive()


def test_an_archive_whose_unpack_crashes_its_process_twice_fails_the_batch(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    batch_id, info = _slow_batch(api, company, env)
    _unpack_hit_by(env, info, signal.SIGSEGV, signal.SIGSEGV)

    body = api.get(f"/v1/uploads/batches/{batch_id}", headers=company.headers).json()
    assert (body["status"], body["uploads"]) == ("failed", [])
    with env.db.read_session() as session:
        failed = session.get(Batch, uuid.UUID(batch_id))
        assert failed is not None
        assert failed.crashes == 2
        assert "stopped its process 2 times" in (failed.error_message or "")
    assert not [key for key in env.store.list_keys() if "/entries/" in key]
    # The pipeline goes on for everyone else.
    upload_id = post_upload(api, company.headers, blank_pdf("after")).json()["id"]
    [job] = claim(env, 1)
    assert run_job(env, job).status == "completed"
    assert _terminal_at(env.db, upload_id) is not None


def test_an_unpack_killed_once_is_charged_and_tried_again(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    """A SIGKILL while unpacking (the OOM killer's) counts as a death, as a crash does:
    an archive that brings it about every time ends after MAX_CRASHES."""
    batch_id, info = _slow_batch(api, company, env)
    _unpack_hit_by(env, info, signal.SIGKILL)
    with env.db.read_session() as session:
        batch = session.get(Batch, uuid.UUID(batch_id))
        assert batch is not None
        assert (batch.crashes, batch.unpack_state) == (1, "done")
        assert session.scalar(select(func.count()).where(Upload.batch_id == batch.id)) == 8


def test_a_vanished_object_fails_its_upload_after_a_few_tries(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    upload_id = post_upload(api, company.headers, blank_pdf("vanishing")).json()["id"]
    [job] = claim(env, 1)
    assert job.object_key is not None
    env.store.delete(job.object_key)

    result = run_job(env, job)

    assert (result.status, result.error_code) == ("failed", "processing_failed")
    body = api.get(f"/v1/uploads/{upload_id}", headers=company.headers).json()
    assert "stored bytes are missing" in body["error"]["message"]


def test_batches_take_turns_across_companies(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    bulk = [
        post_batch(api, company.headers, make_zip({f"{n}.pdf": blank_pdf(str(n))})).json()["id"]
        for n in range(3)
    ]
    other = make_tenant(env.db, "Kleinbetrieb GmbH")
    single = post_batch(api, other.headers, make_zip({"a.pdf": blank_pdf("a")})).json()["id"]

    claimed = []
    for _ in range(3):
        with env.db.session() as session:
            batch = work_repo.claim_batch(session, env.owner, env.lease)
            assert batch is not None
            claimed.append(str(batch.id))
            session.commit()
    assert claimed == [bulk[0], single, bulk[1]]


def test_a_vanished_archive_fails_its_batch_after_a_few_tries(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    batch_id = post_batch(api, company.headers, make_zip({"a.pdf": blank_pdf("a")})).json()["id"]
    with env.db.read_session() as session:
        batch = session.get(Batch, uuid.UUID(batch_id))
        assert batch is not None
        info = BatchInfo.of(batch)
    env.store.delete(info.object_key)

    assert unpack(env, info) == 0

    with env.db.read_session() as session:
        failed = session.get(Batch, uuid.UUID(batch_id))
        assert failed is not None
        assert failed.error_code == "processing_failed"
        assert "stored bytes are missing" in (failed.error_message or "")
    body = api.get(f"/v1/uploads/batches/{batch_id}", headers=company.headers).json()
    assert body["status"] == "failed"

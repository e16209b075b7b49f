"""One company's bulk, one bad archive, one vanished object: none of them stops the
others. Real reading processes, a real database and store."""

from __future__ import annotations

import dataclasses
import signal
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import datetime

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from flows import runtime
from flows.executor import DocumentExecutor
from flows.unpack import BatchInfo, unpack
from flows.work import WorkerEnv, claim, run_job
from flows.worker import Worker
from storage.db import Database
from storage.models import Batch, StatusChange, Upload
from storage.repositories import work as work_repo
from testkit.samples import blank_pdf
from tests.api.helpers import make_zip, post_batch, post_upload
from tests.conftest import Tenant, make_tenant
from tests.flows.test_recovery import _kill_the_busy_reader, _pathological_invoice, _wait_for

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


SLOW_BATCH_FILES = 9  # more than a batch keeps in flight on one reading process (8)


@pytest.fixture
def one_reader(env: WorkerEnv) -> Iterator[WorkerEnv]:
    """The pipeline with one reading process (and the express one): the slow documents
    keep it busy, and what the test leaves in its queue ends with it."""
    executor = DocumentExecutor(processes=1, time_limit=60.0, compile_rules=False)
    executor.warm_up()
    reading = dataclasses.replace(env, executor=executor)
    runtime.install(reading)
    yield reading
    runtime.install(env)
    executor.shutdown()


def test_another_company_is_not_stuck_behind_a_slow_bulk(
    api: TestClient, company: Tenant, one_reader: WorkerEnv
) -> None:
    """One company's two batches of slow documents (seconds each; up to 60 s in
    production) hold every reading turn they may and the reading process; another
    company's single upload and batch of one document each complete within seconds.
    Before, the two batches held both turns until all but eight of a batch's documents
    were read, and a document of another company waited for the next reader to come
    free."""
    env = one_reader
    env.settings.max_file_bytes = 64 * MIB
    env.settings.max_archive_bytes = 400 * MIB
    slow = _pathological_invoice(8_000)  # about 6 s of reading each on a busy machine
    for batch in ("a", "b"):
        files = {f"{batch}-{n}.xml": slow for n in range(SLOW_BATCH_FILES)}
        post_batch(api, company.headers, make_zip(files))
    worker = Worker(env)
    thread = threading.Thread(target=worker.run, daemon=True)
    thread.start()
    other = make_tenant(env.db, "Kleinbetrieb GmbH")
    try:
        _wait_for(lambda: _batches_reading(env.db, company) == 2, 300, "the slow batches to read")
        posted = time.monotonic()
        single = post_upload(api, other.headers, blank_pdf("single")).json()["id"]
        one = post_batch(api, other.headers, make_zip({"one.pdf": blank_pdf("one")})).json()
        waited: dict[str, float] = {}
        deadline = time.monotonic() + 120
        while len(waited) < 2:
            assert time.monotonic() < deadline, f"the other company still waits: {waited}"
            if "single" not in waited and _terminal_at(env.db, single) is not None:
                waited["single"] = round(time.monotonic() - posted, 2)
            if "batch" not in waited and _batch_done(api, other, one["id"]) is not None:
                waited["batch"] = round(time.monotonic() - posted, 2)
            time.sleep(0.1)
        slow_left = _not_terminal(env.db, company)
    finally:
        worker.stop.set()
        env.executor.shutdown()  # what the slow batches left waiting is cancelled
        thread.join(timeout=60)
    print(f"another company beside a slow bulk: {waited} s after the POSTs; slow left: {slow_left}")
    assert slow_left >= SLOW_BATCH_FILES  # the bulk was far from done
    assert max(waited.values()) < 10.0, waited


def _batches_reading(db: Database, company: Tenant) -> int:
    """The company's batches whose flow runs have claimed their uploads."""
    statement = select(func.count(func.distinct(Upload.batch_id))).where(
        Upload.company_id == company.company_id, Upload.status == "processing"
    )
    with db.read_session() as session:
        return int(session.scalar(statement) or 0)


def _batch_done(api: TestClient, tenant: Tenant, batch_id: str) -> str | None:
    body = api.get(f"/v1/uploads/batches/{batch_id}", headers=tenant.headers).json()
    return None if body["status"] == "processing" else str(body["status"])


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


@pytest.mark.parametrize(
    ("how", "said"),
    [
        (signal.SIGSEGV, "stopped its process: the reading process died"),
        (signal.SIGKILL, "(SIGKILL)"),
    ],
)
def test_an_archive_whose_unpack_dies_twice_fails_the_batch(
    api: TestClient, company: Tenant, env: WorkerEnv, how: signal.Signals, said: str
) -> None:
    """A crash in C, or a kill from outside (the OOM killer: issue 37, finding 6, it used
    to be tried again uncharged): an archive whose unpack dies twice ends `failed`."""
    batch_id, info = _slow_batch(api, company, env)
    _unpack_hit_by(env, info, how, how)

    body = api.get(f"/v1/uploads/batches/{batch_id}", headers=company.headers).json()
    assert (body["status"], body["uploads"]) == ("failed", [])
    with env.db.read_session() as session:
        failed = session.get(Batch, uuid.UUID(batch_id))
        assert failed is not None
        assert (failed.crashes, failed.error_code) == (2, "processing_failed")
        assert "failed 2 times" in (failed.error_message or "")
        assert said in (failed.error_message or "")
    assert not [key for key in env.store.list_keys() if "/entries/" in key]
    assert not env.store.exists(info.object_key)
    # The pipeline goes on for everyone else.
    upload_id = post_upload(api, company.headers, blank_pdf("after")).json()["id"]
    [job] = claim(env, 1)
    assert run_job(env, job).status == "completed"
    assert _terminal_at(env.db, upload_id) is not None


def test_an_unpack_killed_once_is_counted_and_tried_again(
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
    assert not env.store.exists(info.object_key)  # its entries are committed


def test_a_vanished_object_fails_its_upload_after_a_few_tries(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    upload_id = post_upload(api, company.headers, blank_pdf("vanishing")).json()["id"]
    [job] = claim(env, 1)
    assert job.object_key is not None
    env.store.delete(job.object_key)

    result = run_job(env, job)

    assert (result.status, result.failure) == ("failed", "processing_failed")
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

"""The object store in trouble is never a document's fault: a slow store is not timed
against the document, an error such as AccessDenied is "unavailable" (not a death of
the reading process), and an outage makes the company's uploads wait, 1 s at first and
twice as long each time, not a cycle as fast as the claims go. Real SeaweedFS behind a
real proxy, real reading processes, a real database."""

from __future__ import annotations

import dataclasses
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from flows import runtime
from flows.executor import DocumentExecutor
from flows.work import WorkerEnv, claim, run_job
from flows.worker import Worker
from storage.models import Company, StatusChange, Upload, utcnow
from storage.objectstore import S3Store, make_minio_client
from storage.repositories import work as work_repo
from testkit.samples import blank_pdf
from testkit.seaweed import ACCESS_KEY, SECRET_KEY, SeaweedServer
from tests.api.helpers import post_upload
from tests.conftest import Tenant, make_tenant
from tests.support.proxy import OutageProxy

# Past the document's time limit and its grace period together (1 + 10 s).
SHORT_LIMIT_SECONDS = 1.0
SLOW_ANSWER_SECONDS = 12.0


def _store_through(env: WorkerEnv, address: str, secret_key: str = SECRET_KEY) -> S3Store:
    assert isinstance(env.store, S3Store)
    return S3Store(make_minio_client(address, ACCESS_KEY, secret_key), env.store.bucket)


@pytest.fixture
def store_proxy(
    env: WorkerEnv, backend: str, request: pytest.FixtureRequest
) -> Iterator[OutageProxy]:
    if not backend.endswith("s3"):
        pytest.skip("the local store has no network to be slow or to refuse")
    seaweed: SeaweedServer = request.getfixturevalue("seaweed")
    host, port = seaweed.endpoint.split(":")
    proxy = OutageProxy(host, int(port))
    yield proxy
    proxy.close()


@pytest.fixture
def short_limit_readers() -> Iterator[DocumentExecutor]:
    executor = DocumentExecutor(processes=1, time_limit=SHORT_LIMIT_SECONDS, compile_rules=False)
    executor.warm_up()
    yield executor
    executor.shutdown()


def _stored(env: WorkerEnv, upload_id: str) -> Upload:
    with env.db.read_session() as session:
        upload = session.get(Upload, uuid.UUID(upload_id))
        assert upload is not None
        session.expunge(upload)
        return upload


def _company(env: WorkerEnv, tenant: Tenant) -> Company:
    with env.db.read_session() as session:
        company = session.get(Company, tenant.company_id)
        assert company is not None
        session.expunge(company)
        return company


def test_a_slow_store_does_not_fail_the_document(
    api: TestClient,
    company: Tenant,
    env: WorkerEnv,
    store_proxy: OutageProxy,
    short_limit_readers: DocumentExecutor,
) -> None:
    """The fetch used to count against the document's time limit: a store answering
    after the limit and its grace period failed the document processing_failed."""
    slow_env = dataclasses.replace(
        env, store=_store_through(env, store_proxy.address), executor=short_limit_readers
    )
    runtime.install(slow_env)
    upload_id = post_upload(api, company.headers, blank_pdf("slow store")).json()["id"]
    store_proxy.delay_seconds = SLOW_ANSWER_SECONDS
    [job] = claim(slow_env, 1)
    started = time.monotonic()
    result = run_job(slow_env, job)
    took = time.monotonic() - started
    print(f"read through a store answering after {SLOW_ANSWER_SECONDS:g} s: {took:.1f} s")
    assert took > SHORT_LIMIT_SECONDS + 10
    assert result.status == "completed" and result.result is not None, result
    assert result.result[1] == "other_document"
    assert _stored(slow_env, upload_id).crashes == 0


def test_an_access_denied_store_error_is_unavailable_not_a_death(
    api: TestClient, company: Tenant, env: WorkerEnv, seaweed: SeaweedServer, backend: str
) -> None:
    """The real SeaweedFS refusing the worker's credentials (403): an S3 error outside
    the codes once handled, which used to end the reading process and be charged."""
    if not backend.endswith("s3"):
        pytest.skip("the local store has no credentials to refuse")
    refused_env = dataclasses.replace(env, store=_store_through(env, seaweed.endpoint, "wrong"))
    runtime.install(refused_env)
    upload_id = post_upload(api, company.headers, blank_pdf("refused")).json()["id"]
    readers = env.executor.reader_pids()
    [job] = claim(refused_env, 1)
    before = utcnow()

    assert run_job(refused_env, job).status == "queued"  # given back

    stored = _stored(env, upload_id)
    assert (stored.status, stored.crashes, stored.attempts) == ("queued", 0, 0)
    assert env.executor.reader_pids() == readers  # no reading process died
    waiting = _company(env, company)
    assert waiting.store_wait_until is not None and waiting.store_wait_until > before
    assert claim(refused_env, 1) == []  # the company waits for the store
    runtime.install(env)


def test_a_company_waits_longer_while_the_store_trouble_lasts(env: WorkerEnv) -> None:
    tenant = make_tenant(env.db, "Wartend GmbH")
    now = utcnow()
    waits = []
    with env.db.session() as session:
        for _ in range(8):
            waits.append(work_repo.wait_for_the_store(session, tenant.company_id, now))
            # its other files in flight fail at the same moment: no longer a wait
            assert work_repo.wait_for_the_store(session, tenant.company_id, now) == waits[-1]
            now += timedelta(seconds=waits[-1] + 0.5)
        quiet = now + timedelta(seconds=work_repo.STORE_WAIT_MAX_SECONDS)
        after_a_quiet_minute = work_repo.wait_for_the_store(session, tenant.company_id, quiet)
        session.commit()
    assert waits == [1, 2, 4, 8, 16, 32, 60, 60]
    assert after_a_quiet_minute == 1


OUTAGE_SECONDS = 12.0


def test_an_outage_makes_the_company_wait_instead_of_hammering_the_store(
    api: TestClient, company: Tenant, env: WorkerEnv, store_proxy: OutageProxy
) -> None:
    """Released uploads used to be claimed again at once: each cycle wrote two history
    rows per upload and asked the store again, as fast as claims went."""
    outage_env = dataclasses.replace(env, store=_store_through(env, store_proxy.address))
    runtime.install(outage_env)
    ids = [post_upload(api, company.headers, blank_pdf(f"o-{n}")).json()["id"] for n in range(3)]
    store_proxy.cut()
    worker = Worker(outage_env)
    thread = threading.Thread(target=worker.run, daemon=True)
    thread.start()
    try:
        time.sleep(OUTAGE_SECONDS)
        released = _released(env, ids)
        store_proxy.restore()
        deadline = time.monotonic() + 120
        while {_stored(env, upload_id).status for upload_id in ids} != {"completed"}:
            assert time.monotonic() < deadline, "the uploads did not complete after the outage"
            time.sleep(0.5)
    finally:
        worker.stop.set()
        thread.join(timeout=60)
        runtime.install(env)
    print(f"{OUTAGE_SECONDS:g} s of store outage: {released} releases of 3 uploads")
    # Waits of 1, 2, 4 and 8 s: at most 5 tries of each upload in 12 s (it was hundreds).
    assert released <= 3 * 5, released
    assert {_stored(env, upload_id).crashes for upload_id in ids} == {0}


def _released(env: WorkerEnv, ids: list[str]) -> int:
    statement = (
        select(func.count())
        .select_from(StatusChange)
        .where(
            StatusChange.upload_id.in_([uuid.UUID(upload_id) for upload_id in ids]),
            StatusChange.from_status == "processing",
            StatusChange.to_status == "queued",
        )
    )
    with env.db.read_session() as session:
        return int(session.scalar(statement) or 0)

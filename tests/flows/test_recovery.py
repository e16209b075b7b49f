"""Through failures: killed workers, pathological documents, dependencies away."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from lxml import etree
from sqlalchemy import Engine, func, select

from flows.executor import DocumentExecutor
from flows.pipeline import process_batch
from flows.work import WorkerEnv, claim, run_job
from flows.worker import Worker
from processors.base import CompanyProfile, DocumentType, Failure, ProcessingContext
from storage.db import Database
from storage.models import StatusChange, Upload, utcnow
from storage.repositories import work as work_repo
from storage.states import UploadStatus
from storage.upload_moves import MAX_CRASHES
from testkit.samples import blank_pdf, corpus_file
from tests.api.helpers import make_zip, post_batch, post_upload
from tests.conftest import Tenant
from tests.flows.processes import ROOT, descendants, worker_environment
from tests.support.proxy import OutageProxy


def _statuses(db: Database, batch_id: str | None = None) -> dict[str, int]:
    statement = select(Upload.status, func.count()).group_by(Upload.status)
    if batch_id:
        statement = statement.where(Upload.batch_id == uuid.UUID(batch_id))
    with db.read_session() as session:
        return {status: count for status, count in session.execute(statement).all()}


def _wait_for(condition, timeout: float, what: str) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def _start_worker(env: WorkerEnv, engine: Engine, prefect_url: str) -> subprocess.Popen[bytes]:
    """`docintake worker` in a process group of its own (it and its readers can be killed)."""
    return subprocess.Popen(
        [sys.executable, "-m", "api.cli", "worker", "--processes", "1"],
        env=worker_environment(env, engine, prefect_url),
        cwd=ROOT,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def test_worker_killed_mid_batch_is_taken_over(
    api: TestClient, company: Tenant, env: WorkerEnv, fresh_engine: Engine, prefect_server: str
) -> None:
    env.settings.max_archive_files = 100
    env.settings.max_archive_bytes = 64 * 1024 * 1024
    invoices = {
        f"{i:03d}-{corpus_file('accept', '.xml', i)[0]}": corpus_file("accept", ".xml", i)[1]
        for i in range(60)
    }
    batch_id = post_batch(api, company.headers, make_zip(invoices)).json()["id"]

    worker = _start_worker(env, fresh_engine, prefect_server)
    try:
        # The worker's reading process warms up (every validation artefact compiled) at
        # the pipeline's low priority, in a session of its own: beside the rest of the
        # suite on a slow 2-core machine that took over 120 s once.
        _wait_for(
            lambda: _statuses(env.db, batch_id).get("completed", 0) >= 3,
            300,
            "the worker to complete a few uploads",
        )
    finally:
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait()
    at_kill = _statuses(env.db, batch_id)
    assert at_kill.get("completed", 0) < 60, "the batch finished before the kill"

    time.sleep(3.5)  # the dead worker's leases expire
    env.lease = timedelta(seconds=30)
    with env.db.session() as session:
        batch = work_repo.claim_batch(session, env.owner, env.lease)
        assert batch is not None and str(batch.id) == batch_id
        session.commit()
    process_batch(batch_id)

    final = _statuses(env.db, batch_id)
    assert sum(final.values()) == 60
    assert set(final) <= {"completed", "failed"}, final  # every upload reached a terminal state
    assert final.get("completed", 0) >= 58  # the corpus labels nearly all of these valid
    if at_kill.get("processing"):
        with env.db.read_session() as session:
            taken_back = session.scalar(
                select(func.count())
                .select_from(StatusChange)
                .where(StatusChange.from_status == "processing", StatusChange.to_status == "queued")
            )
        assert taken_back == at_kill["processing"]


def test_worker_stops_cleanly_on_repeated_signals(
    env: WorkerEnv, fresh_engine: Engine, prefect_server: str
) -> None:
    worker = _start_worker(env, fresh_engine, prefect_server)
    try:
        # Started, reading processes up (on a busy machine imports alone take seconds).
        _wait_for(lambda: len(descendants(worker.pid)) >= 2, 60, "the reading processes")
        time.sleep(2)
        assert worker.poll() is None
        # Ctrl-C in `make run` brings SIGINT and then SIGTERM: several signals, any time.
        for signum in [signal.SIGINT, *[signal.SIGTERM] * 20]:
            worker.send_signal(signum)
            time.sleep(0.05)
        assert worker.wait(timeout=90) == 0
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()


def test_a_worker_death_is_never_charged_to_the_uploads_in_hand(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    upload_id = post_upload(api, company.headers, blank_pdf("innocent")).json()["id"]
    env.lease = timedelta(seconds=0)

    for _ in range(3):
        assert [job.upload_id for job in claim(env, 10)] == [uuid.UUID(upload_id)]
        env.in_hand.clear()  # the worker "died": nobody extends the lease
        with env.db.session() as session:
            work_repo.recover_expired_uploads(session, utcnow() + timedelta(seconds=1))
            session.commit()
        body = api.get(f"/v1/uploads/{upload_id}", headers=company.headers).json()
        assert body["status"] == "queued"


def _cpu_ticks(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:  # gone meanwhile
        return 0
    return int(fields[11]) + int(fields[12])


def _kill_the_busy_reader(executor: DocumentExecutor, how: signal.Signals = signal.SIGSEGV) -> None:
    """Send `how` to the reading process that is working (SIGSEGV: as a parser crashing
    in C would end it): a warmed-up reading process waiting for a request uses no CPU at
    all (on a busy machine a working one, at nice 10, may get only a few ticks)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        before = {pid: _cpu_ticks(pid) for pid in executor.reader_pids()}
        time.sleep(0.3)
        for pid, ticks in before.items():
            if _cpu_ticks(pid) - ticks >= 2:
                os.kill(pid, how)
                return
    raise AssertionError("no reading process got busy")


def test_a_document_that_crashes_its_reader_twice_fails_alone(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    env.settings.max_file_bytes = 64 * 1024 * 1024  # the API shares these settings
    # Seconds of reading: the reading process is still at it when it is found busy.
    culprit = post_upload(api, company.headers, _pathological_invoice(8_000)).json()["id"]
    for expected, crashes in (("queued", 1), ("failed", 2)):
        [job] = claim(env, 1)
        reading = threading.Thread(target=run_job, args=(env, job))
        reading.start()
        _kill_the_busy_reader(env.executor)
        reading.join(timeout=60)
        body = api.get(f"/v1/uploads/{culprit}", headers=company.headers).json()
        assert body["status"] == expected
        assert _stored(env.db, culprit).crashes == crashes
    assert body["error"]["code"] == "processing_failed"
    assert "died 2 times while reading it" in body["error"]["message"]

    innocent = post_upload(api, company.headers, blank_pdf("next")).json()["id"]
    [job] = claim(env, 1)
    assert run_job(env, job).status == "completed"
    assert _stored(env.db, innocent).crashes == 0


def _kill_the_reader_in_hand(executor: DocumentExecutor, how: signal.Signals) -> int:
    """Send `how` to the reading process that has a document in hand; returns its pid
    once the executor saw it go."""
    deadline = time.monotonic() + 120
    while not (reading := executor.reading_pids()):
        assert time.monotonic() < deadline, "no reading process got a document in hand"
        time.sleep(0.02)
    os.kill(reading[0], how)
    while reading[0] in executor.reading_pids():
        time.sleep(0.02)
    return reading[0]


def test_a_document_whose_reader_is_killed_twice_while_reading_it_fails(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    """SIGKILL in the middle of the same document, over and over, through a running
    worker: the OOM killer in a container smaller than its readers' limits together.
    A kill used to cost the document nothing, and it was read again forever."""
    env.settings.max_file_bytes = 64 * 1024 * 1024
    upload_id = post_upload(api, company.headers, _pathological_invoice(8_000)).json()["id"]
    worker = Worker(env)
    thread = threading.Thread(target=worker.run, daemon=True)
    thread.start()
    killed = []
    try:
        while _stored(env.db, upload_id).status != "failed":
            assert len(killed) < MAX_CRASHES, f"read again after {killed}"
            killed.append(_kill_the_reader_in_hand(env.executor, signal.SIGKILL))
            _wait_for(
                lambda: _stored(env.db, upload_id).crashes == len(killed),
                60,
                "the death to be charged",
            )
    finally:
        worker.stop.set()
        thread.join(timeout=60)
    stored = _stored(env.db, upload_id)
    assert (stored.error_code, stored.crashes) == ("processing_failed", MAX_CRASHES)
    message = stored.error_message or ""
    assert f"died {MAX_CRASHES} times while reading it" in message, message
    assert "SIGKILL" in message


def test_readers_killed_while_idle_cost_nothing(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    env.executor.warm_up()
    for pid in env.executor.reader_pids():
        os.kill(pid, signal.SIGKILL)
    upload_id = post_upload(api, company.headers, blank_pdf("after the kill")).json()["id"]
    [job] = claim(env, 1)
    assert run_job(env, job).status in ("completed", "queued")  # queued: given back
    [job] = claim(env, 1) or [None]  # released: the death was seen only as it was sent
    if job is not None:
        assert run_job(env, job).status == "completed"
    stored = _stored(env.db, upload_id)
    assert (stored.status, stored.crashes) == ("completed", 0)


def test_a_shutdown_costs_the_document_in_hand_nothing(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    """SIGTERM to the readers (a service manager stopping the group), however often."""
    env.settings.max_file_bytes = 64 * 1024 * 1024
    upload_id = post_upload(api, company.headers, _pathological_invoice(8_000)).json()["id"]
    for _ in range(MAX_CRASHES + 1):
        [job] = claim(env, 1)
        reading = threading.Thread(target=run_job, args=(env, job))
        reading.start()
        _kill_the_reader_in_hand(env.executor, signal.SIGTERM)
        reading.join(timeout=60)
        stored = _stored(env.db, upload_id)
        assert (stored.status, stored.crashes) == ("queued", 0)


def _stored(db: Database, upload_id: str) -> Upload:
    with db.read_session() as session:
        upload = session.get(Upload, uuid.UUID(upload_id))
        assert upload is not None
        session.expunge(upload)
        return upload


def _pathological_invoice(copies: int = 20_000) -> bytes:
    """A real e-invoice with thousands of lines: slow to validate, not broken."""
    _, data = corpus_file("accept", ".xml")
    tree = etree.fromstring(data)
    lines = [
        el
        for el in tree
        if etree.QName(el).localname in ("InvoiceLine", "IncludedSupplyChainTradeLineItem")
    ]
    if not lines:
        for element in tree.iter():
            if etree.QName(element).localname == "IncludedSupplyChainTradeLineItem":
                lines = [element]
                break
    assert lines, "the sample has no line items"
    parent = lines[0].getparent()
    assert parent is not None
    for _ in range(copies):
        parent.insert(parent.index(lines[0]), etree.fromstring(etree.tostring(lines[0])))
    return etree.tostring(tree)


def test_document_over_the_time_limit_fails_processing_failed() -> None:
    executor = DocumentExecutor(processes=1, time_limit=0.5)
    try:
        executor.warm_up()
        context = ProcessingContext(DocumentType.AUTO, "slow.xml", CompanyProfile("Acme"))
        outcome = executor.read(_pathological_invoice(), context)
    finally:
        executor.shutdown()
    # Read to the end it would be an invoice or invalid_e_invoice: processing_failed is the limit.
    assert isinstance(outcome, Failure) and outcome.code == "processing_failed", outcome
    assert "longer than 0.5 s" in outcome.message


@pytest.mark.parametrize("cut", ["database", "object store"])
def test_work_waits_for_a_dependency_and_resumes(
    api: TestClient,
    company: Tenant,
    env: WorkerEnv,
    outage_env: tuple[WorkerEnv, list[OutageProxy]],
    cut: str,
) -> None:
    worker_env, (db_proxy, store_proxy) = outage_env
    proxy = db_proxy if cut == "database" else store_proxy
    worker = Worker(worker_env)
    thread = threading.Thread(target=worker.run, daemon=True)
    proxy.cut()
    thread.start()
    try:
        ids = [
            post_upload(api, company.headers, blank_pdf(f"{cut}-{i}")).json()["id"]
            for i in range(3)
        ]
        time.sleep(4)  # the worker keeps failing to reach the dependency
        assert _statuses(env.db).get("completed", 0) == 0
        assert _statuses(env.db).get("failed", 0) == 0
        proxy.restore()
        _wait_for(
            lambda: _statuses(env.db).get("completed", 0) == 3,
            60,
            "the uploads to complete after the outage",
        )
    finally:
        worker.stop.set()
        thread.join(timeout=30)
    for upload_id in ids:
        assert (
            api.get(f"/v1/uploads/{upload_id}", headers=company.headers).json()["status"]
            == "completed"
        )
    assert _statuses(env.db) == {UploadStatus.COMPLETED.value: 3}

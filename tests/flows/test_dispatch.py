"""Routine dispatch: the dispatcher hands queued work to Prefect, a worker of the
`docintake` work pool runs the `serve-queue` deployment from prefect.yaml in a process
of its own, and that run reads the uploads and batches."""

from __future__ import annotations

import threading
import time
from datetime import datetime, timedelta

from fastapi.testclient import TestClient
from prefect.client.orchestration import get_client
from prefect.client.schemas.filters import (
    FlowRunFilter,
    FlowRunFilterName,
)
from prefect.client.schemas.objects import FlowRun, StateType
from prefect.states import Running
from sqlalchemy import select

from flows.dispatch import Dispatcher, DispatchPolicy
from flows.work import WorkerEnv
from storage.models import Upload, utcnow
from testkit.samples import blank_pdf, corpus_file
from tests.api.helpers import make_zip, post_batch, post_upload
from tests.conftest import Tenant

TERMINAL = {"completed", "failed"}


def _statuses(env: WorkerEnv) -> list[str]:
    with env.db.read_session() as session:
        return list(session.scalars(select(Upload.status)))


def _runs_named(pattern: str, since: datetime) -> list[FlowRun]:
    with get_client(sync_client=True) as client:
        runs = client.read_flow_runs(
            flow_run_filter=FlowRunFilter(name=FlowRunFilterName(like_=pattern))
        )
    return [run for run in runs if run.created is not None and run.created >= since]


def test_queued_work_runs_on_the_work_pool(
    api: TestClient, company: Tenant, env: WorkerEnv, pool_worker: None
) -> None:
    started = utcnow()
    name, invoice = corpus_file("accept", ".xml")
    single = post_upload(api, company.headers, blank_pdf("letter"), "letter.pdf").json()["id"]
    batch = post_batch(api, company.headers, make_zip({name: invoice, "b.pdf": blank_pdf("b")}))
    batch_id = batch.json()["id"]

    dispatcher = Dispatcher(env.db, DispatchPolicy(runs=1))
    thread = threading.Thread(target=dispatcher.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            statuses = _statuses(env)
            if len(statuses) == 3 and set(statuses) <= TERMINAL:
                break
            time.sleep(0.5)
    finally:
        dispatcher.stop.set()
        thread.join(timeout=10)

    assert sorted(_statuses(env)) == ["completed"] * 3
    assert api.get(f"/v1/uploads/{single}", headers=company.headers).json()["status"] == (
        "completed"
    )
    serve_runs = _runs_named("serve-queue-%", started)
    assert len(serve_runs) == 1, "one run serves the queue; the dispatcher started no second"
    (batch_run,) = _runs_named(f"batch-{batch_id}", started)
    assert batch_run.parent_task_run_id is not None, "a child of serve-queue"


def test_a_run_that_died_unseen_is_replaced(
    api: TestClient, company: Tenant, env: WorkerEnv, pool_worker: None
) -> None:
    """A run whose machine died stays `Running` in Prefect. Work waits unclaimed and no
    lease is held: the dispatcher marks that run crashed and starts one that serves."""
    with get_client(sync_client=True) as client:
        deployment = client.read_deployment_by_name("serve-queue/serve-queue")
        ghost = client.create_flow_run_from_deployment(
            deployment.id, state=Running(), parameters={"label": "ghost"}
        )
    upload_id = post_upload(api, company.headers, blank_pdf("late"), "late.pdf").json()["id"]

    policy = DispatchPolicy(
        runs=1, unserved_after=timedelta(seconds=2), warm_up=timedelta(seconds=0)
    )
    dispatcher = Dispatcher(env.db, policy)
    thread = threading.Thread(target=dispatcher.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and set(_statuses(env)) != {"completed"}:
            time.sleep(0.5)
    finally:
        dispatcher.stop.set()
        thread.join(timeout=10)

    body = api.get(f"/v1/uploads/{upload_id}", headers=company.headers).json()
    assert body["status"] == "completed"
    with get_client(sync_client=True) as client:
        state = client.read_flow_run(ghost.id).state
    assert state is not None and state.type == StateType.CRASHED

"""What a data team sees of a batch in the Prefect UI, read back from a real Prefect
server: the run's name and tags, its artifacts, and logs that carry every upload id;
and a worker reading two batches at once, a third starting as they end."""

from __future__ import annotations

import json
import threading
import time
import uuid
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from prefect import tags
from prefect.client.orchestration import get_client
from prefect.client.schemas.filters import (
    ArtifactFilter,
    ArtifactFilterFlowRunId,
    LogFilter,
    LogFilterFlowRunId,
)
from prefect.logging.handlers import APILogHandler
from sqlalchemy import select

from flows.pipeline import process_batch, process_uploads
from flows.work import WorkerEnv
from flows.worker import Worker
from storage.models import Batch, Upload, utcnow
from storage.repositories import work as work_repo
from testkit.samples import blank_pdf
from tests.api.helpers import make_zip, post_batch, post_upload
from tests.conftest import Tenant


def _posted_batch(api: TestClient, company: Tenant, files: int, label: str) -> dict[str, Any]:
    archive = make_zip({f"{label}-{i}.pdf": blank_pdf(f"{label} {i}") for i in range(files)})
    return dict(post_batch(api, company.headers, archive).json())


def test_a_batch_run_is_named_tagged_and_logs_every_upload_id(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    created = _posted_batch(api, company, 5, "seen")
    with env.db.session() as session:
        batch = work_repo.claim_batch(session, env.owner, env.lease)
        assert batch is not None and str(batch.id) == created["id"]
        session.commit()

    with tags("batch", f"company:{company.company_id}", "document-type:auto"):
        state = process_batch(created["id"], return_state=True)
    APILogHandler().flush()  # the logs are sent in the background

    run_id = state.state_details.flow_run_id
    assert run_id is not None
    with get_client(sync_client=True) as client:
        run = client.read_flow_run(run_id)
        artifacts = client.read_artifacts(
            artifact_filter=ArtifactFilter(flow_run_id=ArtifactFilterFlowRunId(any_=[run_id]))
        )
        logs = client.read_logs(LogFilter(flow_run_id=LogFilterFlowRunId(any_=[run_id])))
    assert run.name == f"batch-{created['id']}"
    assert {"batch", f"company:{company.company_id}", "document-type:auto"} <= set(run.tags)
    table = next(a for a in artifacts if a.key == f"batch-{created['id']}")
    assert table.type == "table" and len(json.loads(str(table.data))) == 5
    progress = next(a for a in artifacts if a.type == "progress")
    assert progress.data == 100.0
    with env.db.read_session() as session:
        upload_ids = session.scalars(
            select(Upload.id).where(Upload.batch_id == uuid.UUID(created["id"]))
        ).all()
    text = "\n".join(log.message for log in logs)
    assert len(upload_ids) == 5
    assert all(str(upload_id) in text for upload_id in upload_ids), text


def _most_batches_in_hand(worker: Worker) -> int:
    """Run the worker until idle; the most batches it held at once."""
    most = 0

    def watch() -> None:
        nonlocal most
        while not worker.stop.is_set():
            most = max(most, len(worker.batches_in_hand))
            time.sleep(0.01)

    watcher = threading.Thread(target=watch)
    watcher.start()
    worker.run(idle_seconds=2.0)
    watcher.join()
    return most


@pytest.mark.parametrize(
    ("labels", "most"),
    [
        (("first", "second"), 2),
        # Each gives its reading turn back once every file it has left is in the
        # readers' hands (here at once: 6 files), so a third is claimed while the
        # first two are still read and end (flows/turns.py).
        (("one", "two", "three"), 3),
    ],
    ids=["two-read-at-once", "a-third-starts-as-they-end"],
)
def test_a_worker_reads_two_batches_at_once_and_starts_the_next_as_they_end(
    api: TestClient, company: Tenant, env: WorkerEnv, labels: tuple[str, ...], most: int
) -> None:
    batches = [_posted_batch(api, company, 6, label) for label in labels]

    assert _most_batches_in_hand(Worker(env)) == most
    for batch in batches:
        body = api.get(f"/v1/uploads/batches/{batch['id']}", headers=company.headers).json()
        assert body["status"] == "completed", body


def test_the_heartbeat_extends_the_lease_of_every_batch_in_hand(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    for label in ("one", "two"):
        _posted_batch(api, company, 1, label)
    worker = Worker(env)
    short = timedelta(seconds=1)
    with env.db.session() as session:
        for _ in range(2):
            batch = work_repo.claim_batch(session, env.owner, short)
            assert batch is not None
            worker.batches_in_hand.add(batch.id)
        session.commit()
    worker.stop.set()  # the heartbeat's wait returns at once

    worker.heartbeat_step()

    with env.db.read_session() as session:
        expiries = session.scalars(
            select(Batch.lease_expires_at).where(Batch.id.in_(worker.batches_in_hand))
        ).all()
    assert len(expiries) == 2
    assert all(expiry is not None and expiry > utcnow() + short for expiry in expiries)


def test_a_drain_window_logs_every_upload_id(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    ids = [
        post_upload(api, company.headers, blank_pdf(f"single {i}")).json()["id"] for i in range(3)
    ]

    state = process_uploads(window="observability", idle_seconds=0.3, return_state=True)
    APILogHandler().flush()

    run_id = state.state_details.flow_run_id
    with get_client(sync_client=True) as client:
        run = client.read_flow_run(run_id)
        logs = client.read_logs(LogFilter(flow_run_id=LogFilterFlowRunId(any_=[run_id])))
    assert run.name == "uploads-observability"
    text = "\n".join(log.message for log in logs)
    assert all(upload_id in text for upload_id in ids), text

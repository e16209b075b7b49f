"""The status-table flows on a real Prefect server: the scheduled export with its report
artifact, and the export at the end of every batch."""

from __future__ import annotations

import dataclasses
import uuid
from pathlib import Path

import polars as pl
import pytest
from fastapi.testclient import TestClient
from prefect.client.orchestration import get_client
from prefect.client.schemas.filters import (
    ArtifactFilter,
    ArtifactFilterFlowRunId,
    ArtifactFilterKey,
)

from flows.export import REPORT_ARTIFACT_KEY, export_status_tables
from flows.work import WorkerEnv
from flows.worker import Worker
from storage.models import utcnow
from storage.objectstore import LocalDirStore, S3Store, s3_reader_options
from storage.tables.read import scan_table
from storage.tables.schemas import BATCHES, STATUS_HISTORY, UPLOADS
from storage.tables.state import load_state
from tests.api.helpers import make_zip, post_batch
from tests.conftest import Tenant
from tests.flows.samples import blank_pdf
from tests.storage.tables_data import add_upload
from tests.support.pipeline import run_claimed_batch
from tests.support.seaweed import ACCESS_KEY, SECRET_KEY, SeaweedServer


@pytest.fixture
def s3_store(seaweed: SeaweedServer) -> S3Store:
    """The bucket of the `postgres-s3` backend, readable by polars (the report)."""
    options = s3_reader_options(seaweed.endpoint, ACCESS_KEY, SECRET_KEY, False, "us-east-1")
    store = S3Store(seaweed.client(), f"test-{uuid.uuid4().hex[:16]}", options)
    store.ensure_bucket()
    return store


def _report_artifact(flow_run_id: uuid.UUID | None) -> str:
    with get_client(sync_client=True) as client:
        artifacts = client.read_artifacts(
            artifact_filter=ArtifactFilter(
                key=ArtifactFilterKey(any_=[REPORT_ARTIFACT_KEY]),
                flow_run_id=ArtifactFilterFlowRunId(any_=[flow_run_id] if flow_run_id else []),
            )
        )
    assert len(artifacts) == 1, artifacts
    return str(artifacts[0].data)


def test_the_export_flow_writes_the_tables_and_publishes_the_report(
    env: WorkerEnv, company: Tenant
) -> None:
    with env.db.session() as session:
        upload = add_upload(
            session, company.company_id, created_at=utcnow(), file_name="flow-export.pdf"
        )
        session.commit()

    state = export_status_tables(return_state=True)

    rows = state.result()
    assert rows["uploads"] == 1 and rows["status_history"] == 3
    assert scan_table(env.store, UPLOADS).collect()["upload_id"].to_list() == [str(upload.id)]
    assert load_state(env.store) is not None
    report = _report_artifact(state.state_details.flow_run_id)
    assert "flow-export.pdf" in report
    assert f"[open]({env.settings.public_base_url}/app/uploads/{upload.id})" in report


def test_a_finished_batch_is_in_the_tables_at_once(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    archive = make_zip({"a.pdf": blank_pdf("a"), "b.pdf": blank_pdf("b")})
    post_batch(api, company.headers, archive, documentType="other_document")

    batch_id, counts = run_claimed_batch(env)

    assert counts == {"completed": 2}
    batches = scan_table(env.store, BATCHES).collect()
    assert batches.select("batch_id", "status", "uploads", "completed").rows() == [
        (batch_id, "completed", 2, 2)
    ]
    uploads = scan_table(env.store, UPLOADS).collect()
    assert sorted(uploads["file_name"]) == ["a.pdf", "b.pdf"]
    assert set(uploads["status"]) == {"completed"}
    assert all(url.startswith("http://testserver/app/documents/") for url in uploads["result_url"])
    history = scan_table(env.store, STATUS_HISTORY).collect()
    assert history.filter(pl.col("is_current"))["to_status"].to_list() == ["completed"] * 2
    assert load_state(env.store) is None  # the scheduled export still looks at everything


def test_a_failed_table_export_does_not_fail_the_batch(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    if not isinstance(env.store, LocalDirStore):
        pytest.skip("the failure is a file where the tables directory belongs")
    blocker: Path = env.store.root / "tables"
    blocker.write_bytes(b"not a directory")
    post_batch(api, company.headers, make_zip({"a.pdf": blank_pdf("a")}))

    _, counts = run_claimed_batch(env)

    assert counts == {"completed": 1}
    assert blocker.read_bytes() == b"not a directory"


def test_a_pipeline_worker_exports_on_its_own(env: WorkerEnv, company: Tenant) -> None:
    with env.db.session() as session:
        add_upload(session, company.company_id, created_at=utcnow())
        session.commit()
    settings = env.settings.model_copy(update={"tables_export_interval_seconds": 0.1})

    Worker(dataclasses.replace(env, settings=settings)).run(idle_seconds=3.0)

    assert load_state(env.store) is not None
    assert scan_table(env.store, UPLOADS).collect().height == 1

"""The status-table flows on a real Prefect server: the scheduled export with its report
artifact, and the pipeline run's export while it serves the queue (a batch's end writes
no Parquet: it is off the reading path)."""

from __future__ import annotations

import dataclasses
import uuid
from datetime import timedelta

import polars as pl
import pytest
import yaml  # type: ignore[import-untyped]
from fastapi.testclient import TestClient
from prefect.client.orchestration import get_client
from prefect.client.schemas.filters import (
    ArtifactFilter,
    ArtifactFilterFlowRunId,
    ArtifactFilterKey,
)

from flows.export import REPORT_ARTIFACT_KEY, export_status_tables, export_when_changed
from flows.work import WorkerEnv
from flows.worker import Worker
from storage.models import utcnow
from storage.objectstore import S3Store, s3_reader_options
from storage.settings import Settings
from storage.tables.read import scan_table
from storage.tables.schemas import BATCHES, STATUS_HISTORY, UPLOADS
from storage.tables.state import load_state
from testkit.samples import blank_pdf
from testkit.seaweed import ACCESS_KEY, SECRET_KEY, SeaweedServer
from tests.api.helpers import make_zip, post_batch
from tests.conftest import Tenant
from tests.flows.processes import ROOT
from tests.storage.tables_data import add_upload
from tests.support.pipeline import run_claimed_batch


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


def _with_interval(env: WorkerEnv, seconds: float) -> WorkerEnv:
    settings = env.settings.model_copy(update={"tables_export_interval_seconds": seconds})
    return dataclasses.replace(env, settings=settings)


def test_a_finished_batch_writes_no_parquet_and_the_next_export_picks_it_up(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    archive = make_zip({"a.pdf": blank_pdf("a"), "b.pdf": blank_pdf("b")})
    post_batch(api, company.headers, archive, documentType="other_document")

    batch_id, counts = run_claimed_batch(env)

    assert counts == {"completed": 2}
    assert env.store.list_keys("tables/") == [], "the batch's end wrote the tables"
    assert export_when_changed(_with_interval(env, 50.0))
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


def test_a_tick_with_nothing_changed_starts_no_export(env: WorkerEnv, company: Tenant) -> None:
    with env.db.session() as session:  # changed before the margin of one interval
        add_upload(session, company.company_id, created_at=utcnow() - timedelta(minutes=5))
        session.commit()
    ticking = _with_interval(env, 50.0)
    assert export_when_changed(ticking)
    state = load_state(env.store)

    assert not export_when_changed(ticking)

    assert load_state(env.store) == state, "no second export ran"


def test_a_pipeline_worker_exports_on_its_own(env: WorkerEnv, company: Tenant) -> None:
    with env.db.session() as session:
        add_upload(session, company.company_id, created_at=utcnow())
        session.commit()

    Worker(_with_interval(env, 0.1)).run(idle_seconds=3.0)

    assert load_state(env.store) is not None
    assert scan_table(env.store, UPLOADS).collect().height == 1


def test_a_run_that_ends_exports_what_its_last_minute_changed(
    env: WorkerEnv, company: Tenant
) -> None:
    with env.db.session() as session:
        add_upload(session, company.company_id, created_at=utcnow())
        session.commit()

    Worker(_with_interval(env, 3600.0)).run(idle_seconds=0.5)

    assert scan_table(env.store, UPLOADS).collect().height == 1


def test_the_sixty_second_promise_is_configured() -> None:
    """docs/tables.md: a batch is in the tables within 60 s of its end; the pipeline
    runs tick every 50 s by default, and `make run` (scripts/run-stack.sh, which
    sources scripts/prefect-server.env) keeps the Prefect scheduler that runs the
    deployment's schedule."""
    assert Settings.model_fields["tables_export_interval_seconds"].default <= 50
    config = yaml.safe_load((ROOT / "prefect.yaml").read_text())
    (declared,) = [d for d in config["deployments"] if d["name"] == "export-status-tables"]
    assert declared["entrypoint"] == "flows/export.py:export_status_tables"
    assert declared["schedules"] == [{"interval": 300}]
    server = (ROOT / "scripts" / "prefect-server.env").read_text()
    assert "SCHEDULER_ENABLED=false" not in server.replace(" ", "")

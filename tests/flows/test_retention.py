"""The retention purge as Prefect runs it: the flow on a real Prefect server, and the
scheduled deployment of prefect.yaml, run by a Prefect worker of the `docintake` pool in
a process of its own, as `make run` and production run it."""

from __future__ import annotations

import time
import uuid
from datetime import timedelta
from typing import Any

import yaml
from prefect.client.orchestration import get_client
from prefect.client.schemas.objects import StateType

from flows import retention
from flows.work import WorkerEnv
from storage.models import Result, utcnow
from tests.conftest import Tenant
from tests.flows.processes import ROOT
from tests.storage.tables_data import add_upload

DEPLOYMENT = "purge-deleted-uploads"
DELETED = (("queued", 0), ("processing", 1), ("completed", 2), ("deleted", 3))


def _deleted_upload(env: WorkerEnv, company: Tenant, days_ago: float) -> tuple[str, uuid.UUID]:
    """An upload deleted `days_ago` days ago with its stored bytes, and its deleted result."""
    created_at = utcnow() - timedelta(days=days_ago, seconds=3)
    with env.db.session() as session:
        upload = add_upload(session, company.company_id, created_at=created_at, path=DELETED)
        result = Result(
            company_id=company.company_id,
            type="other_document",
            sha256=upload.sha256,
            data={"text": "the letter"},
            deleted_at=utcnow() - timedelta(days=days_ago),
        )
        session.add(result)
        session.commit()
    assert upload.object_key is not None
    writer = env.store.open_writer(upload.object_key)
    writer.write(b"%PDF-1.7 the letter")
    writer.commit()
    return upload.object_key, result.id


def _result_kept(env: WorkerEnv, result_id: uuid.UUID) -> bool:
    with env.db.read_session() as session:
        return session.get(Result, result_id) is not None


def _declared() -> dict[str, Any]:
    config = yaml.safe_load((ROOT / "prefect.yaml").read_text())
    (declared,) = [entry for entry in config["deployments"] if entry["name"] == DEPLOYMENT]
    assert isinstance(declared, dict)
    return declared


def test_prefect_yaml_declares_the_purge_on_a_schedule() -> None:
    declared = _declared()

    assert declared["entrypoint"] == "flows/retention.py:purge_deleted_uploads"
    assert retention.purge_deleted_uploads.name == DEPLOYMENT
    assert declared["schedules"] == [{"interval": 3600}]
    assert declared["concurrency_limit"] == 1
    assert declared["work_pool"]["name"] == "docintake"


def test_the_purge_flow_runs_on_prefect(env: WorkerEnv, company: Tenant) -> None:
    old_key, old_result = _deleted_upload(env, company, days_ago=31)
    young_key, young_result = _deleted_upload(env, company, days_ago=29)

    state = retention.purge_deleted_uploads(return_state=True)

    assert state.is_completed()
    assert state.result() == {"uploads": 1, "objects": 1, "shared_objects": 0, "results": 1}
    assert not env.store.exists(old_key) and not _result_kept(env, old_result)
    assert env.store.exists(young_key) and _result_kept(env, young_result)


def test_the_scheduled_deployment_purges_through_the_work_pool(
    env: WorkerEnv, company: Tenant, pool_worker: None
) -> None:
    key, result = _deleted_upload(env, company, days_ago=40)
    with get_client(sync_client=True) as client:
        deployment = client.read_deployment_by_name(f"{DEPLOYMENT}/{DEPLOYMENT}")
        assert [s.schedule.interval for s in deployment.schedules if s.active] == [  # type: ignore[union-attr]
            timedelta(hours=1)
        ]
        run = client.create_flow_run_from_deployment(deployment.id)
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            state = client.read_flow_run(run.id).state
            if state is not None and state.is_final():
                break
            time.sleep(1)

    assert state is not None and state.type == StateType.COMPLETED, state
    assert not env.store.exists(key)
    assert not _result_kept(env, result)

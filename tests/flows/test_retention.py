"""The retention purge as Prefect runs it: the flow on a real Prefect server, and the
scheduled deployment of prefect.yaml, run by a Prefect worker of the `docintake` pool in
a process of its own, as `make run` and production run it."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import yaml
from prefect.client.orchestration import get_client
from prefect.client.schemas.objects import StateType

from flows import retention
from flows.work import WorkerEnv
from tests.conftest import Tenant
from tests.flows.processes import ROOT
from tests.storage.retention_data import deleted_upload, result_kept

DEPLOYMENT = "purge-deleted-uploads"


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
    _, old_key, old_result = deleted_upload(env.db, env.store, company.company_id, 31)
    _, young_key, young_result = deleted_upload(env.db, env.store, company.company_id, 29)

    state = retention.purge_deleted_uploads(return_state=True)

    assert state.is_completed()
    assert state.result() == {"uploads": 1, "objects": 1, "shared_objects": 0, "results": 1}
    assert not env.store.exists(old_key) and not result_kept(env.db, old_result)
    assert env.store.exists(young_key) and result_kept(env.db, young_result)


def test_the_scheduled_deployment_purges_through_the_work_pool(
    env: WorkerEnv, company: Tenant, pool_worker: None
) -> None:
    _, key, result = deleted_upload(env.db, env.store, company.company_id, 40)
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
    assert not result_kept(env.db, result)

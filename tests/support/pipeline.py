"""Fixtures for the pipeline and client tests (tests/flows, tests/client): a real Prefect
server (prefect_test_harness, once per session), a committing database per test, the
real process pool, the real API beside them, and the deployments of prefect.yaml with a
Prefect worker of their pool (`pool_worker`).

A plugin of the root conftest rather than a conftest of one folder, so both folders
share the one Prefect server and process pool of a session."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from prefect.client.orchestration import get_client
from prefect.client.schemas.filters import (
    FlowRunFilter,
    FlowRunFilterState,
    FlowRunFilterStateType,
)
from prefect.client.schemas.objects import StateType
from sqlalchemy import Engine

from api.app import create_app
from api.deps import Services
from flows import runtime
from flows.executor import DocumentExecutor
from flows.work import WorkerEnv
from storage.db import Database, make_engine
from storage.objectstore import ObjectStore, S3Store
from storage.settings import Settings
from testkit.seaweed import ACCESS_KEY, SECRET_KEY, SeaweedServer
from tests.conftest import Tenant, make_tenant
from tests.flows.processes import ROOT, kill_tree, worker_environment
from tests.support.proxy import OutageProxy

os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("PREFECT_SERVER_UI_SHOW_PROMOTIONAL_CONTENT", "false")
PREFECT = str(Path(sys.executable).parent / "prefect")


@pytest.fixture(scope="session")
def prefect_server() -> Iterator[str]:
    from prefect.settings import PREFECT_API_URL
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=120):
        yield str(PREFECT_API_URL.value())


@pytest.fixture(scope="session")
def executor() -> Iterator[DocumentExecutor]:
    pool = DocumentExecutor(processes=2, time_limit=20.0, compile_rules=False)
    pool.warm_up()
    yield pool
    pool.shutdown()


@pytest.fixture
def pipeline_db(fresh_engine: Engine) -> Database:
    return Database(fresh_engine)


@pytest.fixture
def env(
    prefect_server: str,
    pipeline_db: Database,
    store: ObjectStore,
    settings: Settings,
    executor: DocumentExecutor,
) -> Iterator[WorkerEnv]:
    worker_env = WorkerEnv(
        settings=settings,
        db=pipeline_db,
        store=store,
        executor=executor,
        owner="test-worker",
        lease=timedelta(seconds=30),
    )
    runtime.install(worker_env)
    yield worker_env


def run_claimed_batch(env: WorkerEnv) -> tuple[str, dict[str, int]]:
    """Claim the oldest waiting batch as a worker would and run `process-batch` on it:
    its id and the counts of its uploads' terminal states."""
    from flows.pipeline import process_batch
    from storage.repositories import work as work_repo

    with env.db.session() as session:
        batch = work_repo.claim_batch(session, env.owner, env.lease)
        assert batch is not None
        batch_id = str(batch.id)
        session.commit()
    return batch_id, process_batch(batch_id)


@pytest.fixture
def api(env: WorkerEnv) -> Iterator[TestClient]:
    services = Services(settings=env.settings, db=env.db, store=env.store)
    with TestClient(create_app(services), raise_server_exceptions=False) as client:
        yield client


@pytest.fixture
def company(env: WorkerEnv) -> Tenant:
    return make_tenant(env.db)


@pytest.fixture
def pool_worker(
    env: WorkerEnv, fresh_engine: Engine, prefect_server: str, tmp_path: Path
) -> Iterator[None]:
    """The deployments of prefect.yaml on a fresh `docintake` process pool, and a Prefect
    worker of that pool, pointed at this test's database and object store."""
    variables = worker_environment(env, fresh_engine, prefect_server) | {
        "DOCINTAKE_HOME": str(ROOT),
        "DOCINTAKE_WORKER_PROCESSES": "1",
        "DOCINTAKE_LEASE_SECONDS": "30",
        "DOCINTAKE_PIPELINE_RUN_IDLE_SECONDS": "2",
        "PREFECT_WORKER_QUERY_SECONDS": "1",
    }
    prefect = [PREFECT, "--no-prompt"]
    pool = ["work-pool", "create", "docintake", "--type", "process", "--overwrite"]
    for command in (pool, ["deploy", "--all"]):
        subprocess.run(prefect + command, env=variables, cwd=ROOT, check=True, capture_output=True)
    forget_open_runs()
    log = (tmp_path / "prefect-worker.log").open("wb")
    worker = subprocess.Popen(
        [PREFECT, "worker", "start", "--pool", "docintake", "--type", "process"],
        env=variables,
        cwd=ROOT,
        start_new_session=True,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        yield
    finally:
        kill_tree(worker.pid)
        worker.wait()
        log.close()
        forget_open_runs()


def forget_open_runs() -> None:
    """Delete the runs an earlier test left scheduled or running on the shared Prefect
    server: they carry that test's environment (its database), and a new worker of the
    pool would pick them up first."""
    open_states = FlowRunFilterStateType(
        any_=[StateType.SCHEDULED, StateType.PENDING, StateType.RUNNING, StateType.CANCELLING]
    )
    with get_client(sync_client=True) as client:
        runs = client.read_flow_runs(
            flow_run_filter=FlowRunFilter(state=FlowRunFilterState(type=open_states))
        )
        for run in runs:
            client.delete_flow_run(run.id)


@pytest.fixture
def outage_env(
    env: WorkerEnv, backend: str, request: pytest.FixtureRequest
) -> Iterator[tuple[WorkerEnv, list[OutageProxy]]]:
    """The worker's connections to Postgres and S3 run through proxies the test can cut."""
    if not backend.startswith("postgres"):
        pytest.skip("the embedded backend has no network dependency to cut")
    from testkit.databases import POSTGRES_URL

    db_proxy = OutageProxy("127.0.0.1", 5432)
    schema_url = env.db.engine.url.render_as_string(hide_password=False)
    proxied_url = schema_url.replace("127.0.0.1:5432", db_proxy.address)
    assert proxied_url != schema_url, POSTGRES_URL
    seaweed: SeaweedServer = request.getfixturevalue("seaweed")
    host, port = seaweed.endpoint.split(":")
    store_proxy = OutageProxy(host, int(port))
    from storage.objectstore import make_minio_client

    assert isinstance(env.store, S3Store)
    proxied = WorkerEnv(
        settings=env.settings,
        db=Database(make_engine(proxied_url, pool_size=4)),
        store=S3Store(
            make_minio_client(store_proxy.address, ACCESS_KEY, SECRET_KEY), env.store.bucket
        ),
        executor=env.executor,
        owner="outage-worker",
        lease=timedelta(seconds=30),
    )
    runtime.install(proxied)
    yield proxied, [db_proxy, store_proxy]
    runtime.install(env)
    for proxy in (db_proxy, store_proxy):
        proxy.close()
    proxied.db.engine.dispose()

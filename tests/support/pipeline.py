"""Fixtures for the pipeline and client tests (tests/flows, tests/client): a real Prefect
server (prefect_test_harness, once per session), a committing database per test, the
real process pool, and the real API beside them.

A plugin of the root conftest rather than a conftest of one folder, so both folders
share the one Prefect server and process pool of a session."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from api.app import create_app
from api.deps import Services
from flows import runtime
from flows.executor import DocumentExecutor
from flows.work import WorkerEnv
from storage.db import Database
from storage.objectstore import ObjectStore
from storage.settings import Settings
from tests.conftest import Tenant, make_tenant

os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("PREFECT_SERVER_UI_SHOW_PROMOTIONAL_CONTENT", "false")


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


@pytest.fixture
def api(env: WorkerEnv) -> Iterator[TestClient]:
    services = Services(settings=env.settings, db=env.db, store=env.store)
    with TestClient(create_app(services), raise_server_exceptions=False) as client:
        yield client


@pytest.fixture
def company(env: WorkerEnv) -> Tenant:
    return make_tenant(env.db)

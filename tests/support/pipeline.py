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
from storage.db import Database, make_engine
from storage.objectstore import ObjectStore, S3Store
from storage.settings import Settings
from tests.conftest import Tenant, make_tenant
from tests.support.proxy import OutageProxy
from tests.support.seaweed import ACCESS_KEY, SECRET_KEY, SeaweedServer

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


@pytest.fixture
def outage_env(
    env: WorkerEnv, backend: str, request: pytest.FixtureRequest
) -> Iterator[tuple[WorkerEnv, list[OutageProxy]]]:
    """The worker's connections to Postgres and S3 run through proxies the test can cut."""
    if not backend.startswith("postgres"):
        pytest.skip("the embedded backend has no network dependency to cut")
    from tests.support.databases import POSTGRES_URL

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

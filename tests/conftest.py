"""Shared fixtures: real databases (SQLite and the real Postgres), real object stores
(a local directory and SeaweedFS S3), and the app wired to them.

Two backends run every API test: `sqlite-local` (the embedded default) and
`postgres-s3` (production-like). Postgres must be reachable when CI=true.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from api.app import create_app
from api.deps import Services
from storage.db import Database
from storage.objectstore import LocalDirStore, ObjectStore, S3Store
from storage.repositories import api_keys, companies, users
from storage.settings import Environment, Settings
from testkit.databases import migrated_postgres, migrated_sqlite, postgres_reachable
from testkit.seaweed import SeaweedServer, start_seaweed

IN_CI = os.environ.get("CI", "").lower() == "true"
# Reading processes started by the tests, here and in the workers they start, compile each
# validation artefact on first use: all of them at every start cost about 8 s of CPU.
# The memory- and time-limit tests of tests/flows start theirs with the production warm-up.
os.environ["DOCINTAKE_READER_WARM_UP"] = "false"

pytest_plugins = ("tests.support.pipeline",)


# Modules whose tests wait a minute or more each for the processes they start: run first,
# so that with several test processes (make test) none of them ends the run alone.
SLOW_FIRST = (
    "tests/flows/test_dispatch.py",
    "tests/flows/test_recovery.py",
    "tests/flows/test_isolation.py",
    "tests/flows/test_readers.py",
    "tests/api/test_openapi_conformance.py",
)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.nodeid.split("::")[0] not in SLOW_FIRST)


@pytest.fixture(scope="session")
def postgres_available() -> bool:
    reachable = postgres_reachable()
    if not reachable and IN_CI:
        pytest.fail("CI must exercise Postgres, but it is not reachable")
    return reachable


@pytest.fixture(scope="session", autouse=True)
def _cheap_password_hashes() -> Iterator[None]:
    """Argon2id at its production cost takes a tenth of a second or more per hash and per
    check, and the web tests make and log in hundreds of users; the login logic is the
    same at the lowest cost. (Processes the tests start hash at the production cost.)"""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(users, "_hasher", PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
        yield


@pytest.fixture(scope="session")
def seaweed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SeaweedServer]:
    server = start_seaweed(tmp_path_factory.mktemp("seaweed"))
    yield server
    server.stop()


@pytest.fixture
def s3_store(seaweed: SeaweedServer) -> S3Store:
    store = S3Store(seaweed.client(), f"test-{uuid.uuid4().hex[:16]}")
    store.ensure_bucket()
    return store


@pytest.fixture(scope="session", params=["sqlite-local", "postgres-s3"])
def backend(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    if name.startswith("postgres") and not request.getfixturevalue("postgres_available"):
        pytest.skip("Postgres is not reachable")
    return name


@pytest.fixture(scope="session")
def engine(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    if backend.startswith("postgres"):
        with migrated_postgres() as engine:
            yield engine
    else:
        with migrated_sqlite(tmp_path_factory.mktemp("sqlite")) as engine:
            yield engine


@pytest.fixture
def database(engine: Engine) -> Iterator[Database]:
    """Everything a test commits is rolled back at its end."""
    connection = engine.connect()
    transaction = connection.begin()
    try:
        yield Database.bound_to(connection)
    finally:
        transaction.rollback()
        connection.close()


@pytest.fixture
def store(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> ObjectStore:
    if backend.endswith("s3"):
        s3: S3Store = request.getfixturevalue("s3_store")
        return s3
    return LocalDirStore(tmp_path / "objects")


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(
        environment=Environment.TEST,
        var_dir=tmp_path / "var",
        public_base_url="http://testserver",
        max_file_bytes=1024 * 1024,
        max_archive_files=10,
        max_archive_bytes=4 * 1024 * 1024,
        rate_limit_per_second=1000,
        rate_limit_burst=1000,
        # Off, but in the tests of the pipeline runs' export (tests/flows/test_export.py).
        tables_export_interval_seconds=0,
    )


@pytest.fixture
def services(settings: Settings, database: Database, store: ObjectStore) -> Services:
    return Services(settings=settings, db=database, store=store)


@pytest.fixture
def client(services: Services) -> Iterator[TestClient]:
    with TestClient(create_app(services), raise_server_exceptions=False) as test_client:
        yield test_client


@dataclass(frozen=True)
class Tenant:
    company_id: uuid.UUID
    api_key: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api_key}"}


def make_tenant(database: Database, name: str = "Acme GmbH") -> Tenant:
    with database.session() as session:
        company = companies.create_company(session, name, vat_ids=["DE123456789"])
        key = api_keys.create_api_key(session, company.id)
        session.commit()
    return Tenant(company.id, key.plaintext)


@pytest.fixture
def tenant(database: Database) -> Tenant:
    return make_tenant(database)


@pytest.fixture
def other_tenant(database: Database) -> Tenant:
    return make_tenant(database, "Other AG")


@pytest.fixture
def fresh_engine(backend: str, tmp_path: Path) -> Iterator[Engine]:
    """A database of its own that really commits, for tests of concurrency."""
    if backend.startswith("postgres"):
        with migrated_postgres() as engine:
            yield engine
    else:
        with migrated_sqlite(tmp_path) as engine:
            yield engine


@pytest.fixture(params=["sqlite", "postgres"])
def listening_engine(request: pytest.FixtureRequest) -> Iterator[Engine]:
    """A database of its own that really commits and carries news (storage/work_news.py):
    on SQLite in a short path (a Unix socket's path has at most 107 bytes), on Postgres
    in a schema of its own (its own channel)."""
    if request.param == "postgres":
        if not request.getfixturevalue("postgres_available"):
            pytest.skip("Postgres is not reachable")
        with migrated_postgres() as engine:
            yield engine
        return
    folder = Path(tempfile.mkdtemp(prefix="news-", dir="/tmp"))
    try:
        with migrated_sqlite(folder) as engine:
            yield engine
    finally:
        shutil.rmtree(folder, ignore_errors=True)

"""A stored file is deleted only when it is known that its row was not committed.

The database fails for real at the commit of an upload or a batch: on Postgres the TCP
proxy between the API and the server drops every connection, on SQLite the API's
connection is closed under it. Lost before the COMMIT: nothing is left behind. Lost
after the COMMIT was done but before its answer was read (the API sees an error, the
row is there): the file the committed row points at is kept.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, event, select

from api.app import create_app
from api.deps import Services
from storage.db import Database, make_engine
from storage.models import Batch, Upload
from storage.objectstore import ObjectStore
from storage.settings import Settings
from tests.api.helpers import make_zip, pdf_bytes
from tests.conftest import Tenant, make_tenant
from tests.support.proxy import OutageProxy

ENDPOINTS: dict[str, type[Upload] | type[Batch]] = {
    "/v1/uploads": Upload,
    "/v1/uploads/batches": Batch,
}
RECORDING = ("INSERT INTO UPLOADS", "INSERT INTO BATCHES")


class BrokenDatabase:
    """The API's database, and a way to break it once, at the commit of the session
    that records an upload or a batch."""

    def __init__(self, backend: str, engine: Engine) -> None:
        self.proxy: OutageProxy | None = None
        url = engine.url.render_as_string(hide_password=False)
        if backend.startswith("postgres"):
            self.proxy = OutageProxy("127.0.0.1", 5432)
            url = url.replace("127.0.0.1:5432", self.proxy.address)
        # One connection: on SQLite the closed one is the one the next query gets.
        self.database = Database(make_engine(url, pool_size=1, max_overflow=0))
        self._recording = False
        self._break: tuple[str, bool] | None = None
        event.listen(self.database.engine, "after_cursor_execute", self._note_recording)
        event.listen(self.database.engine, "commit", self._at_commit)
        event.listen(self.database.engine, "rollback", self._forget_recording)

    def break_once(self, when: str, stay_down: bool = False) -> None:
        """`before`: the connection is lost as COMMIT is sent; `after`: the COMMIT is
        done, and the connection is lost before its answer is read."""
        self._break = (when, stay_down)

    def _note_recording(self, _connection: Any, _cursor: Any, statement: str, *_: Any) -> None:
        """The transaction inserts an upload or a batch (through the ORM or not)."""
        if any(insert in statement.upper() for insert in RECORDING):
            self._recording = True

    def _forget_recording(self, _connection: Any) -> None:
        self._recording = False

    def _at_commit(self, connection: Any) -> None:
        recording, self._recording = self._recording, False
        if self._break is None or not recording:
            return
        when, stay_down = self._break
        self._break = None
        dbapi_connection = connection.connection.dbapi_connection
        if when == "after":
            dbapi_connection.commit()
        self.lose_connection(dbapi_connection, stay_down)

    def lose_connection(self, dbapi_connection: Any, stay_down: bool) -> None:
        if self.proxy is not None:
            self.proxy.cut()
            if not stay_down:
                self.proxy.restore()
        else:
            dbapi_connection.close()

    def close(self) -> None:
        self.database.engine.dispose()
        if self.proxy is not None:
            self.proxy.close()


@pytest.fixture
def broken(backend: str, fresh_engine: Engine) -> Iterator[BrokenDatabase]:
    database = BrokenDatabase(backend, fresh_engine)
    yield database
    database.close()


@contextmanager
def _client(broken: BrokenDatabase, settings: Settings, store: ObjectStore) -> Iterator[TestClient]:
    services = Services(settings=settings, db=broken.database, store=store)
    with TestClient(create_app(services), raise_server_exceptions=False) as client:
        yield client


def _post(client: TestClient, path: str, tenant: Tenant) -> int:
    content = pdf_bytes("kept") if path == "/v1/uploads" else make_zip({"a.pdf": pdf_bytes()})
    files = {"file": ("f.zip" if path.endswith("batches") else "f.pdf", content)}
    response = client.post(path, headers=tenant.headers, files=files, data={"externalId": "x-1"})
    return response.status_code


def _rows(engine: Engine, model: type[Upload] | type[Batch]) -> list[str | None]:
    with Database(engine).read_session() as session:
        return list(session.scalars(select(model.object_key)))


@pytest.mark.parametrize("path", ENDPOINTS)
def test_a_failure_as_the_commit_is_sent_leaves_nothing(
    path: str, broken: BrokenDatabase, fresh_engine: Engine, settings: Settings, store: ObjectStore
) -> None:
    tenant = make_tenant(Database(fresh_engine))
    broken.break_once("before")
    with _client(broken, settings, store) as client:
        status = _post(client, path, tenant)

    assert status == 503
    assert _rows(fresh_engine, ENDPOINTS[path]) == []
    assert store.list_keys() == []


@pytest.mark.parametrize("path", ENDPOINTS)
def test_a_commit_whose_answer_is_lost_keeps_the_committed_file(
    path: str, broken: BrokenDatabase, fresh_engine: Engine, settings: Settings, store: ObjectStore
) -> None:
    tenant = make_tenant(Database(fresh_engine))
    broken.break_once("after")
    with _client(broken, settings, store) as client:
        status = _post(client, path, tenant)

    assert status == 503
    [object_key] = _rows(fresh_engine, ENDPOINTS[path])
    assert object_key is not None
    assert store.list_keys() == [object_key]


@pytest.mark.parametrize("path", ENDPOINTS)
def test_a_database_that_cannot_be_asked_keeps_the_file(
    path: str,
    backend: str,
    broken: BrokenDatabase,
    fresh_engine: Engine,
    settings: Settings,
    store: ObjectStore,
) -> None:
    if not backend.startswith("postgres"):
        pytest.skip("an unreachable SQLite file is not a failure this service meets")
    tenant = make_tenant(Database(fresh_engine))
    broken.break_once("after", stay_down=True)
    with _client(broken, settings, store) as client:
        status = _post(client, path, tenant)
    assert broken.proxy is not None
    broken.proxy.restore()

    assert status == 503
    [object_key] = _rows(fresh_engine, ENDPOINTS[path])
    assert store.list_keys() == [object_key]

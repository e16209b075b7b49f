"""What one `POST /v1/uploads` of a new small file costs, counted, not timed (issue 38,
target 4; docs/throughput.md, "API cost of a single upload"): its SQL statements, each
compiled once per process, and its trips to the thread pool."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import anyio.to_thread
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, event
from sqlalchemy.engine.interfaces import CacheStats

from api.app import create_app
from api.deps import Services
from storage.db import Database
from storage.objectstore import ObjectStore
from storage.settings import Settings
from tests.api.helpers import pdf_bytes, post_upload
from tests.conftest import Tenant, make_tenant

# Besides these, a transaction's BEGIN on SQLite, and at most once a second the count
# of queued uploads behind Retry-After.
STATEMENTS_OF_A_NEW_UPLOAD = {
    # the API key; the upload and its first history row (news after the commit)
    "sqlite": ["SELECT api_keys", "INSERT uploads", "INSERT status_history"],
    # the API key; the upload, its first history row and the news in one statement
    "postgresql": ["SELECT api_keys", "WITH INSERT uploads, status_history, pg_notify"],
}


@dataclass
class Statements:
    seen: list[tuple[str, Any]] = field(default_factory=list)

    def note(
        self, _conn: Any, _cursor: Any, statement: str, _p: Any, context: Any, _m: Any
    ) -> None:
        self.seen.append((statement, context))

    def of_the_request(self) -> list[str]:
        """Each statement as its verb and table, leaving out BEGIN and the queue count."""
        named = [_named(statement) for statement, _ in self.seen]
        return [name for name in named if name not in ("BEGIN", "SELECT count")]

    def compiled_again(self) -> list[str]:
        """Statements SQLAlchemy compiled for this request instead of taking them from
        its cache (plain SQL such as BEGIN has nothing to compile)."""
        return [
            statement
            for statement, context in self.seen
            if context.compiled is not None and context.cache_hit is not CacheStats.CACHE_HIT
        ]


def _named(statement: str) -> str:
    words = statement.replace("(", " ").split()
    verb = words[0].upper()
    if verb == "WITH":
        inserts = [words[i + 2] for i, word in enumerate(words) if word.upper() == "INSERT"]
        notify = ", pg_notify" if "pg_notify" in statement else ""
        return f"WITH INSERT {', '.join(inserts)}{notify}"
    if verb == "INSERT":
        return f"INSERT {words[2]}"
    if verb == "SELECT" and "pg_notify" in statement:
        return "SELECT pg_notify"
    if verb == "SELECT" and "count" in words[1].lower():
        return "SELECT count"
    if verb == "SELECT":
        return f"SELECT {words[words.index('FROM') + 1]}"
    return verb


@pytest.fixture
def api(
    fresh_engine: Engine, settings: Settings, store: ObjectStore
) -> Iterator[tuple[TestClient, Tenant]]:
    """The app on a database that really commits (no test savepoints in the count)."""
    database = Database(fresh_engine)
    services = Services(settings=settings, db=database, store=store)
    with TestClient(create_app(services), raise_server_exceptions=False) as client:
        yield client, make_tenant(database)


def _warm(client: TestClient, tenant: Tenant) -> None:
    """The process's first upload: compiles its statements, notes the key's use."""
    assert post_upload(client, tenant.headers, pdf_bytes("warm")).status_code == 202


def test_a_new_upload_is_a_few_statements_each_compiled_once(
    api: tuple[TestClient, Tenant], fresh_engine: Engine
) -> None:
    client, tenant = api
    _warm(client, tenant)
    statements = Statements()
    event.listen(fresh_engine, "after_cursor_execute", statements.note)
    try:
        response = post_upload(client, tenant.headers, pdf_bytes("counted"))
    finally:
        event.remove(fresh_engine, "after_cursor_execute", statements.note)

    assert response.status_code == 202
    assert statements.of_the_request() == STATEMENTS_OF_A_NEW_UPLOAD[fresh_engine.dialect.name]
    assert statements.compiled_again() == []


def test_a_new_small_upload_takes_two_trips_to_the_thread_pool(
    api: tuple[TestClient, Tenant], monkeypatch: pytest.MonkeyPatch
) -> None:
    """One for the API key (before the body is read), one to store the file, claim it
    and count the queue."""
    client, tenant = api
    _warm(client, tenant)
    trips: list[str] = []
    original = anyio.to_thread.run_sync

    def counting(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Awaitable[Any]:
        trips.append(getattr(function, "__name__", repr(function)))
        return original(function, *args, **kwargs)

    monkeypatch.setattr(anyio.to_thread, "run_sync", counting)
    response = post_upload(client, tenant.headers, pdf_bytes("counted"))

    assert response.status_code == 202
    assert len(trips) == 2, trips

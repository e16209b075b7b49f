"""New work announced to listening workers (Postgres NOTIFY, SQLite datagrams beside
the database file): delivered at commit with its kind, never for a rollback; the API
announces new single uploads and batches."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from api.app import create_app
from api.deps import Services
from storage.db import Database, make_engine
from storage.objectstore import LocalDirStore
from storage.repositories.news import announce_work
from storage.settings import Settings
from storage.work_news import BATCH, SINGLE, WorkListener, can_listen, local_folder
from testkit.databases import migrated_postgres
from testkit.samples import blank_pdf
from tests.api.helpers import make_zip, post_batch, post_upload
from tests.conftest import make_tenant


def _listening(engine: Engine, on_news: Callable[[str], None]) -> WorkListener:
    listener = WorkListener(engine, on_news)
    listener.start()
    assert listener.listening.wait(10)
    return listener


class Heard:
    """The kinds a listener heard, in order; `next` waits for the next one."""

    def __init__(self) -> None:
        self.kinds: list[str] = []
        self._arrived = threading.Semaphore(0)

    def __call__(self, kind: str) -> None:
        self.kinds.append(kind)
        self._arrived.release()

    def next(self, timeout: float = 5.0) -> str | None:
        return self.kinds[-1] if self._arrived.acquire(timeout=timeout) else None


@pytest.fixture
def news(listening_engine: Engine) -> Iterator[Heard]:
    heard = Heard()
    listener = _listening(listening_engine, heard)
    yield heard
    listener.stop()


def _announce(engine: Engine, commit: bool, kind: str = SINGLE) -> None:
    with Database(engine).session() as session:
        announce_work(session, kind)
        if commit:
            session.commit()


def test_a_committed_announcement_reaches_the_listener_with_its_kind(
    listening_engine: Engine, news: Heard
) -> None:
    assert can_listen(listening_engine)
    _announce(listening_engine, commit=True, kind=SINGLE)
    assert news.next() == SINGLE
    _announce(listening_engine, commit=True, kind=BATCH)
    assert news.next() == BATCH


def test_a_rolled_back_announcement_does_not(listening_engine: Engine, news: Heard) -> None:
    _announce(listening_engine, commit=False)
    assert news.next(timeout=1.5) is None
    _announce(listening_engine, commit=True)
    assert news.next() == SINGLE


def test_every_listener_hears_and_a_dead_ones_socket_is_removed(listening_engine: Engine) -> None:
    first, second = threading.Semaphore(0), threading.Semaphore(0)
    listeners = [
        _listening(listening_engine, lambda _kind: first.release()),
        _listening(listening_engine, lambda _kind: second.release()),
    ]
    _announce(listening_engine, commit=True)
    assert first.acquire(timeout=5) and second.acquire(timeout=5)
    folder = local_folder(listening_engine.url)
    if folder is not None:  # SQLite: a socket left by a worker that was killed
        dead = folder / "dead.sock"
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as gone:
            gone.bind(str(dead))
        _announce(listening_engine, commit=True)
        assert first.acquire(timeout=5)
        assert not dead.exists()
    for listener in listeners:
        listener.stop()


def test_stacks_in_other_schemas_of_the_database_do_not_hear_each_other(
    postgres_available: bool,
) -> None:
    if not postgres_available:
        pytest.skip("Postgres is not reachable")
    with migrated_postgres(pool_size=1) as ours, migrated_postgres(pool_size=1) as theirs:
        heard = Heard()
        listener = _listening(ours, heard)
        _announce(theirs, commit=True)
        assert heard.next(timeout=1.5) is None
        _announce(ours, commit=True)
        assert heard.next() == SINGLE
        listener.stop()


def test_an_in_memory_database_has_no_channel() -> None:
    engine = make_engine("sqlite://")
    assert not can_listen(engine)
    with Database(engine).session() as session:
        announce_work(session, BATCH)  # nothing to tell: its workers poll
        session.commit()


def test_the_api_announces_new_single_uploads_and_batches(
    listening_engine: Engine, news: Heard, settings: Settings, tmp_path: Path
) -> None:
    database = Database(listening_engine)
    tenant = make_tenant(database)
    services = Services(settings=settings, db=database, store=LocalDirStore(tmp_path / "o"))
    with TestClient(create_app(services)) as client:
        assert post_upload(client, tenant.headers, blank_pdf("one")).status_code == 202
        assert news.next() == SINGLE
        assert post_upload(client, tenant.headers, blank_pdf("one")).status_code == 202  # a repeat
        archive = make_zip({"a.pdf": blank_pdf("a"), "b.pdf": blank_pdf("b")})
        assert post_batch(client, tenant.headers, archive).status_code == 202
        assert news.next() == BATCH
    assert news.kinds == [SINGLE, BATCH]  # nothing for the repeat

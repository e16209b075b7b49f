"""New work announced through Postgres: delivered to listeners at commit, never for a
rollback; the API announces new single uploads and batches."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from storage import idempotency
from storage.db import Database, make_engine
from storage.repositories.work import announce_work
from storage.work_news import WorkListener, can_listen
from tests.api.helpers import make_zip, post_batch, post_upload
from tests.conftest import Tenant
from tests.flows.samples import blank_pdf
from tests.support.databases import POSTGRES_URL


@pytest.fixture
def postgres(postgres_available: bool) -> Iterator[Engine]:
    if not postgres_available:
        pytest.skip("Postgres is not reachable")
    engine = make_engine(POSTGRES_URL, pool_size=1)
    yield engine
    engine.dispose()


@pytest.fixture
def news(postgres: Engine) -> Iterator[threading.Semaphore]:
    """Released once per notification a listener received."""
    received = threading.Semaphore(0)
    listener = WorkListener(postgres, received.release).start()
    assert listener.listening.wait(10)
    yield received
    listener.stop()


def _announce(engine: Engine, commit: bool) -> None:
    with Database(engine).session() as session:
        announce_work(session)
        if commit:
            session.commit()


def test_a_committed_announcement_reaches_the_listener(
    postgres: Engine, news: threading.Semaphore
) -> None:
    assert can_listen(postgres)
    _announce(postgres, commit=True)
    assert news.acquire(timeout=5)


def test_a_rolled_back_announcement_does_not(postgres: Engine, news: threading.Semaphore) -> None:
    _announce(postgres, commit=False)
    assert not news.acquire(timeout=1.5)
    _announce(postgres, commit=True)
    assert news.acquire(timeout=5)


def test_sqlite_has_no_channel() -> None:
    engine = make_engine("sqlite://")
    assert not can_listen(engine)
    with Database(engine).session() as session:
        announce_work(session)  # nothing to tell: its workers poll


def test_the_api_announces_new_single_uploads_and_batches(
    client: TestClient, tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    announced: list[str] = []
    monkeypatch.setattr(idempotency, "announce_work", lambda _session: announced.append("news"))
    assert post_upload(client, tenant.headers, blank_pdf("one")).status_code == 202
    assert post_upload(client, tenant.headers, blank_pdf("one")).status_code == 202  # a repeat
    assert len(announced) == 1
    archive = make_zip({"a.pdf": blank_pdf("a"), "b.pdf": blank_pdf("b")})
    assert post_batch(client, tenant.headers, archive).status_code == 202
    assert len(announced) == 2

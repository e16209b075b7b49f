"""Eight browsers clicking the same button at once, through a real server on a database
that commits: a transaction is confirmed once, a result is deleted once, an upload is
retried once."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from threading import Barrier

import httpx2 as httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, func, select

from api.app import create_app
from api.deps import Services
from api.web.auth import SESSION_COOKIE
from storage.db import Database
from storage.models import StatusChange, TransactionConfirmation
from storage.objectstore import ObjectStore
from storage.repositories import web_results, web_sessions
from storage.settings import Settings
from tests.support.live import serve
from tests.web.results_helpers import (
    SLOW_LIMIT_SECONDS,
    allow_large_files,
    bank_statement,
    e_invoice,
    result_id,
    send_and_read,
    slow_e_invoice,
    stored_upload,
    time_limit,
)
from tests.web.support import Account, make_account

RACERS = 8


class Browser:
    """A signed-in session: its cookie and CSRF token."""

    def __init__(self, services: Services, account: Account) -> None:
        with services.db.session() as session:
            started = web_sessions.start_session(session, account.user_id, timedelta(hours=1))
            session.commit()
        self.cookies = {SESSION_COOKIE: started.token}
        self.csrf = started.record.csrf_token


@pytest.fixture
def racing(
    fresh_engine: Engine, settings: Settings, store: ObjectStore
) -> Iterator[tuple[Services, Account, TestClient]]:
    services = Services(settings=settings, db=Database(fresh_engine), store=store)
    account = make_account(services.db)
    with TestClient(create_app(services), raise_server_exceptions=False) as client:
        yield services, account, client


def _race(services: Services, browser: Browser, path: str, fields: dict[str, str]) -> list[int]:
    barrier = Barrier(RACERS)
    app = create_app(services)

    def click(_: int) -> int:
        with httpx.Client(base_url=url, cookies=browser.cookies, timeout=60) as http:
            barrier.wait()
            response = http.post(path, data={"csrf_token": browser.csrf, **fields})
            return response.status_code

    with serve(app) as url, ThreadPoolExecutor(RACERS) as pool:
        return list(pool.map(click, range(RACERS)))


def test_racing_confirm_all_confirms_each_transaction_once(
    racing: tuple[Services, Account, TestClient],
) -> None:
    services, account, client = racing
    name, content = bank_statement()
    body = send_and_read(
        client, account.headers, services, name, content, documentType="bank_statement"
    )
    key = result_id(body)

    codes = _race(
        services, Browser(services, account), f"/app/bank-imports/{key}/confirm", {"action": "all"}
    )

    assert codes == [303] * RACERS
    with services.db.read_session() as session:
        confirmed = web_results.confirmations(session, key)
        rows = session.scalar(select(func.count()).select_from(TransactionConfirmation))
        result = web_results.live_result(session, account.company_id, key)
        assert result is not None
        count = web_results.transaction_count(result)
    assert sorted(confirmed) == list(range(count)) and rows == count


def test_racing_deletes_delete_once(racing: tuple[Services, Account, TestClient]) -> None:
    services, account, client = racing
    name, content = e_invoice()
    body = send_and_read(client, account.headers, services, name, content)

    codes = _race(
        services, Browser(services, account), f"/app/results/{result_id(body)}/delete", {}
    )

    assert sorted(codes) == [303] + [404] * (RACERS - 1)
    with services.db.read_session() as session:
        deleted = session.scalar(
            select(func.count())
            .select_from(StatusChange)
            .where(StatusChange.to_status == "deleted")
        )
    assert deleted == 1
    assert stored_upload(services, body["id"]).status == "deleted"


def test_racing_retries_queue_the_upload_once(
    racing: tuple[Services, Account, TestClient],
) -> None:
    services, account, client = racing
    allow_large_files(services)
    name, content = slow_e_invoice()
    with time_limit(SLOW_LIMIT_SECONDS):
        failed = send_and_read(client, account.headers, services, name, content)
    assert failed["error"]["code"] == "processing_failed"

    codes = _race(services, Browser(services, account), f"/app/uploads/{failed['id']}/retry", {})

    assert sorted(codes) == [303] + [409] * (RACERS - 1)
    with services.db.read_session() as session:
        requeued = session.scalar(
            select(func.count())
            .select_from(StatusChange)
            .where(StatusChange.from_status == "failed", StatusChange.to_status == "queued")
        )
    assert requeued == 1
    assert stored_upload(services, failed["id"]).status == "queued"

"""Failures under /app answer HTML pages, the API keeps problem+json: a database that
cannot be opened (503), an object store that does not answer (503) and one whose bucket
is gone (an unexpected error, 500). Real broken backends, nothing stubbed."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.deps import Services
from storage.db import Database, make_engine
from storage.objectstore import LocalDirStore, ObjectStore, S3Store, make_minio_client
from storage.repositories import uploads
from storage.settings import Settings
from testkit.seaweed import SeaweedServer, free_port
from tests.web.support import Account, log_in, make_account, seed_upload

HTML = "text/html; charset=utf-8"
PROBLEM = "application/problem+json"


def _client(settings: Settings, database: Database, store: ObjectStore) -> TestClient:
    services = Services(settings=settings, db=database, store=store)
    return TestClient(create_app(services), raise_server_exceptions=False)


@pytest.fixture
def closed_database(tmp_path: Path) -> Iterator[Database]:
    """A SQLite file in a folder that does not exist: every connection fails."""
    engine = make_engine(f"sqlite:///{tmp_path / 'no-such-folder' / 'docintake.db'}")
    yield Database(engine)
    engine.dispose()


def test_an_unavailable_database_is_a_503_page_under_app_and_problem_json_in_the_api(
    settings: Settings, closed_database: Database, tmp_path: Path
) -> None:
    with _client(settings, closed_database, LocalDirStore(tmp_path / "objects")) as client:
        client.cookies.set("docintake_session", "a-session-token-the-database-would-check")
        page = client.get("/app/uploads", headers={"Accept-Language": "en"})
        assert page.status_code == 503 and page.headers["content-type"] == HTML
        assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
        assert "<h1>Service unavailable</h1>" in page.text
        assert page.headers["retry-after"]
        assert "Traceback" not in page.text and "sqlite" not in page.text.lower()

        client.cookies.clear()
        login = client.get("/app/login")
        assert login.status_code == 200  # the form itself needs no database
        api = client.get(f"/v1/uploads/{uuid.uuid4()}", headers={"Authorization": "Bearer dik_x"})
        assert api.status_code == 503 and api.headers["content-type"] == PROBLEM
        assert api.json()["code"] == "service_unavailable"


def _stored_result(database: Database, account: Account) -> uuid.UUID:
    upload = seed_upload(database, account.company_id, status="completed", result_type="invoice")
    with database.read_session() as session:
        found = uploads.get_upload(session, account.company_id, upload)
        assert found is not None and found.result_id is not None
        return found.result_id


def test_an_object_store_that_does_not_answer_is_a_503_page(
    settings: Settings, database: Database
) -> None:
    account = make_account(database)
    result_id = _stored_result(database, account)
    nobody_listens = S3Store(make_minio_client(f"127.0.0.1:{free_port()}", "k", "s"), "docs")
    with _client(settings, database, nobody_listens) as client:
        assert log_in(client, account.email).status_code == 303
        page = client.get(f"/app/results/{result_id}/original")
        assert page.status_code == 503 and page.headers["content-type"] == HTML
        assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
        assert "<h1>Service unavailable</h1>" in page.text and account.email in page.text


class _StoreWithAFault(LocalDirStore):
    """A store whose reads fail in a way nothing expects (a bug of ours, say): every
    store answer we know of is "missing" or "unavailable" now (issue 37, finding 7)."""

    def _fault(self, *args: object) -> NoReturn:
        raise ZeroDivisionError("a fault nobody expects")

    exists = open_reader = read_bytes = _fault  # type: ignore[assignment]


def test_a_store_answer_such_as_no_such_bucket_is_unavailable_not_a_fault(
    settings: Settings, database: Database, seaweed: SeaweedServer
) -> None:
    account = make_account(database)
    result_id = _stored_result(database, account)
    gone = S3Store(seaweed.client(), f"gone-{uuid.uuid4().hex[:12]}")
    with _client(settings, database, gone) as client:
        assert log_in(client, account.email).status_code == 303
        page = client.get(f"/app/results/{result_id}/original")
        assert page.status_code == 503 and "NoSuchBucket" not in page.text


def test_an_unexpected_error_is_a_500_page_under_app(
    settings: Settings, database: Database, tmp_path: Path
) -> None:
    account = make_account(database)
    result_id = _stored_result(database, account)
    with _client(settings, database, _StoreWithAFault(tmp_path / "objects")) as client:
        assert log_in(client, account.email).status_code == 303
        page = client.get(f"/app/results/{result_id}/original")
        assert page.status_code == 500 and page.headers["content-type"] == HTML
        # Sent by the outermost middleware, past WebGuard: render() adds the headers.
        assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
        assert "<h1>Internal error</h1>" in page.text
        assert "nobody expects" not in page.text and "Traceback" not in page.text
        assert account.email in page.text  # the page keeps the navigation and logout
        inbox = client.get("/app/uploads")
        assert inbox.status_code == 200  # one failing page does not sign anybody out

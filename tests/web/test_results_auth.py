"""Who may see and change results: only the signed-in users of the company that owns
them. Another company's ids answer the 404 page, without a session every page
redirects to the login and back, and every action needs the session's CSRF token."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi.testclient import TestClient

from api.deps import Services
from storage.db import Database
from storage.repositories import web_results
from tests.web.results_helpers import (
    SLOW_LIMIT_SECONDS,
    allow_large_files,
    bank_statement,
    e_invoice,
    payment_file,
    plain_pdf,
    result_id,
    result_path,
    send_and_read,
    slow_e_invoice,
    stored_result,
    stored_upload,
    time_limit,
)
from tests.web.support import Account, log_in, session_csrf


@pytest.fixture
def owned(client: TestClient, account: Account, services: Services) -> dict[str, Any]:
    """One result of every kind and a processing_failed upload, of `account`'s company."""
    bodies = {}
    for kind, (name, content), fields in (
        ("invoice", e_invoice(), {}),
        ("statement", bank_statement(), {"documentType": "bank_statement"}),
        ("payment_file", payment_file(), {}),
        ("document", plain_pdf(), {}),
    ):
        bodies[kind] = send_and_read(client, account.headers, services, name, content, **fields)
    allow_large_files(services)
    name, content = slow_e_invoice()
    with time_limit(SLOW_LIMIT_SECONDS):
        bodies["failed"] = send_and_read(client, account.headers, services, name, content)
    assert bodies["failed"]["error"]["code"] == "processing_failed"
    return bodies


def _pages(owned: dict[str, Any]) -> list[str]:
    results = [result_path(owned[kind]) for kind in ("invoice", "statement", "payment_file")]
    return [
        *results,
        result_path(owned["document"]),
        f"/app/uploads/{owned['invoice']['id']}",
        f"/app/uploads/{owned['failed']['id']}",
        f"/app/results/{result_id(owned['invoice'])}/original",
    ]


def _actions(owned: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    statement = result_id(owned["statement"])
    return [
        (f"/app/bank-imports/{statement}/confirm", {"action": "all"}),
        (f"/app/results/{result_id(owned['invoice'])}/delete", {}),
        (f"/app/uploads/{owned['failed']['id']}/retry", {}),
    ]


def _unchanged(services: Services, owned: dict[str, Any]) -> None:
    assert stored_upload(services, owned["invoice"]["id"]).status == "completed"
    assert stored_result(services, result_id(owned["invoice"])).deleted_at is None
    assert stored_upload(services, owned["failed"]["id"]).status == "failed"
    with services.db.read_session() as session:
        assert web_results.confirmations(session, result_id(owned["statement"])) == {}


def test_the_owner_sees_every_page(
    client: TestClient, account: Account, owned: dict[str, Any]
) -> None:
    assert log_in(client, account.email).status_code == 303
    for path in _pages(owned):
        assert client.get(path).status_code == 200, path


def test_without_a_session_every_page_redirects_to_login_and_back(
    client: TestClient, account: Account, owned: dict[str, Any]
) -> None:
    for path in _pages(owned):
        response = client.get(path, follow_redirects=False)
        assert response.status_code == 303, path
        target = urlsplit(response.headers["location"])
        assert target.path == "/app/login"
        assert parse_qs(target.query) == {"next": [path]}

    page = _pages(owned)[0]
    signed_in = log_in(client, account.email, next_path=page)
    assert signed_in.headers["location"] == page
    assert client.get(page).status_code == 200


def test_without_a_session_no_action_runs(
    client: TestClient, services: Services, owned: dict[str, Any]
) -> None:
    for path, fields in _actions(owned):
        response = client.post(path, data={"csrf_token": "x", **fields}, follow_redirects=False)
        assert response.status_code == 303, path
        assert urlsplit(response.headers["location"]).path == "/app/login"
    _unchanged(services, owned)


def test_another_companys_results_are_not_found(
    client: TestClient,
    other_account: Account,
    owned: dict[str, Any],
    services: Services,
    database: Database,
) -> None:
    assert log_in(client, other_account.email).status_code == 303
    for path in _pages(owned):
        response = client.get(path)
        assert response.status_code == 404, path
        assert "There is nothing here" in response.text
        assert owned["invoice"]["fileName"] not in response.text
    csrf = session_csrf(client, database)
    for path, fields in _actions(owned):
        response = client.post(path, data={"csrf_token": csrf, **fields}, follow_redirects=False)
        assert response.status_code == 404, path
    _unchanged(services, owned)


def test_actions_without_the_csrf_token_are_refused(
    client: TestClient, account: Account, owned: dict[str, Any], services: Services
) -> None:
    assert log_in(client, account.email).status_code == 303
    for path, fields in _actions(owned):
        for token in ({}, {"csrf_token": "forged"}):
            response = client.post(path, data={**token, **fields}, follow_redirects=False)
            assert response.status_code == 403, path
    _unchanged(services, owned)


def test_ids_that_are_not_results_of_the_page_kind_are_not_found(
    client: TestClient, account: Account, owned: dict[str, Any], database: Database
) -> None:
    assert log_in(client, account.email).status_code == 303
    invoice = result_id(owned["invoice"])
    for path in (
        f"/app/bank-imports/{invoice}",
        f"/app/payment-files/{invoice}",
        f"/app/documents/{invoice}",
        f"/app/invoices/{result_id(owned['statement'])}",
        "/app/invoices/not-a-uuid",
        "/app/uploads/not-a-uuid",
        f"/app/uploads/{invoice}",
        "/app/results/12345/original",
    ):
        assert client.get(path).status_code == 404, path
    csrf = session_csrf(client, database)
    for path in ("/app/results/nope/delete", "/app/uploads/nope/retry"):
        assert client.post(path, data={"csrf_token": csrf}).status_code == 404

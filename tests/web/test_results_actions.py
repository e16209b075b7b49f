"""The actions of the result pages through the real app: confirm bank transactions,
delete a result, retry a failed upload, download the original file."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient
from lxml import html

from api.deps import Services
from api.web.downloads import content_disposition
from storage.db import Database
from storage.repositories import web_results
from tests.api.helpers import post_upload
from tests.web.results_helpers import (
    SLOW_LIMIT_SECONDS,
    allow_large_files,
    bank_statement,
    e_invoice,
    read_queued,
    result_id,
    result_path,
    send_and_read,
    slow_e_invoice,
    stored_result,
    stored_upload,
    time_limit,
)
from tests.web.support import Account, session_csrf


def _post(client: TestClient, database: Database, path: str, **fields: Any) -> Any:
    data = {"csrf_token": session_csrf(client, database), **fields}
    return client.post(path, data=data, follow_redirects=False)


def _statement(client: TestClient, account: Account, services: Services) -> dict[str, Any]:
    name, content = bank_statement()
    return send_and_read(
        client, account.headers, services, name, content, documentType="bank_statement"
    )


def _confirmed(services: Services, key: uuid.UUID) -> dict[int, uuid.UUID | None]:
    with services.db.read_session() as session:
        return {p: c.confirmed_by for p, c in web_results.confirmations(session, key).items()}


# --- confirm ---------------------------------------------------------------------------


def test_confirm_one_then_several_then_all(
    web_client: TestClient, account: Account, services: Services, database: Database
) -> None:
    body = _statement(web_client, account, services)
    key = result_id(body)
    count = web_results.transaction_count(stored_result(services, key))
    assert count >= 3
    path = f"/app/bank-imports/{key}/confirm"

    one = _post(web_client, database, path, one="1", position=["0"])
    assert one.status_code == 303
    assert one.headers["location"] == f"/app/bank-imports/{key}?confirmed=1#transactions"
    assert _confirmed(services, key) == {1: account.user_id}  # the row's button wins

    several = _post(web_client, database, path, action="selected", position=["0", "1", "2"])
    assert several.headers["location"].endswith("?confirmed=2#transactions")
    assert sorted(_confirmed(services, key)) == [0, 1, 2]

    every = _post(web_client, database, path, action="all")
    assert every.headers["location"].endswith(f"?confirmed={count - 3}#transactions")
    assert sorted(_confirmed(services, key)) == list(range(count))

    page = html.fromstring(web_client.get(f"/app/bank-imports/{key}?confirmed=0").text)
    rows = page.xpath('//table[@class="transactions"]/tbody/tr')
    assert all("confirmed" in row.get("class", "") for row in rows)
    assert not page.xpath('//input[@name="position"]')  # locked: nothing left to select
    assert not page.xpath('//button[@name="action"]')
    assert account.email in rows[0].text_content()
    assert "they were confirmed already" in page.text_content()
    # Delete is locked too.
    assert not page.xpath(f'//form[@action="/app/results/{key}/delete"]')


def test_confirming_a_confirmed_transaction_again_changes_nothing(
    web_client: TestClient, account: Account, services: Services, database: Database
) -> None:
    key = result_id(_statement(web_client, account, services))
    path = f"/app/bank-imports/{key}/confirm"
    _post(web_client, database, path, one="0")
    with services.db.read_session() as session:
        first = web_results.confirmations(session, key)[0].confirmed_at
    data = stored_result(services, key).data

    again = _post(web_client, database, path, one="0")

    assert again.headers["location"].endswith("?confirmed=0#transactions")
    with services.db.read_session() as session:
        assert web_results.confirmations(session, key)[0].confirmed_at == first
    assert stored_result(services, key).data == data


def test_confirm_refuses_unknown_positions(
    web_client: TestClient, account: Account, services: Services, database: Database
) -> None:
    key = result_id(_statement(web_client, account, services))
    path = f"/app/bank-imports/{key}/confirm"

    for fields in ({"one": "999"}, {"position": ["x"]}, {"position": ["-1"]}):
        assert _post(web_client, database, path, **fields).status_code == 400
    assert _confirmed(services, key) == {}


def test_confirm_on_an_invoice_is_not_found(
    web_client: TestClient, account: Account, services: Services, database: Database
) -> None:
    name, content = e_invoice()
    body = send_and_read(web_client, account.headers, services, name, content)
    response = _post(
        web_client, database, f"/app/bank-imports/{result_id(body)}/confirm", action="all"
    )
    assert response.status_code == 404


# --- delete ----------------------------------------------------------------------------


def test_delete_makes_the_api_report_deleted_and_a_repeat_reads_again(
    web_client: TestClient, account: Account, services: Services, database: Database
) -> None:
    name, content = e_invoice()
    body = send_and_read(web_client, account.headers, services, name, content, externalId="d-1")
    key = result_id(body)

    response = _post(web_client, database, f"/app/results/{key}/delete")

    assert response.status_code == 303
    assert response.headers["location"] == f"/app/uploads/{body['id']}"
    api = web_client.get(f"/v1/uploads/{body['id']}", headers=account.headers).json()
    assert (api["status"], api["result"], api["error"]) == ("deleted", None, None)
    assert web_client.get(result_path(body)).status_code == 404
    assert web_client.get(f"/app/results/{key}/original").status_code == 404
    upload_page = web_client.get(f"/app/uploads/{body['id']}").text
    assert "was deleted" in upload_page
    assert _post(web_client, database, f"/app/results/{key}/delete").status_code == 404

    repeat = post_upload(web_client, account.headers, content, name, externalId="d-1").json()
    assert (repeat["id"], repeat["status"]) == (body["id"], "queued")
    read_queued(services)
    again = web_client.get(f"/v1/uploads/{body['id']}", headers=account.headers).json()
    assert again["status"] == "completed"
    assert result_id(again) != key
    assert web_client.get(result_path(again)).status_code == 200


def test_a_statement_with_confirmed_transactions_is_not_deleted(
    web_client: TestClient, account: Account, services: Services, database: Database
) -> None:
    body = _statement(web_client, account, services)
    key = result_id(body)
    _post(web_client, database, f"/app/bank-imports/{key}/confirm", one="0")

    response = _post(web_client, database, f"/app/results/{key}/delete")

    assert response.status_code == 409
    assert "locked" in response.text
    assert stored_upload(services, body["id"]).status == "completed"
    assert stored_result(services, key).deleted_at is None


# --- retry -----------------------------------------------------------------------------


def test_retry_reads_a_processing_failed_upload_again(
    web_client: TestClient, account: Account, services: Services, database: Database
) -> None:
    allow_large_files(services)
    name, content = slow_e_invoice()
    with time_limit(SLOW_LIMIT_SECONDS):
        failed = send_and_read(web_client, account.headers, services, name, content)
    assert failed["error"]["code"] == "processing_failed"
    page = html.fromstring(web_client.get(f"/app/uploads/{failed['id']}").text)
    assert page.xpath(f'//form[@action="/app/uploads/{failed["id"]}/retry"]//button')

    response = _post(web_client, database, f"/app/uploads/{failed['id']}/retry")

    assert response.status_code == 303
    assert response.headers["location"] == f"/app/uploads/{failed['id']}"
    queued = web_client.get(f"/v1/uploads/{failed['id']}", headers=account.headers).json()
    assert (queued["status"], queued["error"]) == ("queued", None)
    waiting = web_client.get(f"/app/uploads/{failed['id']}").text
    assert '<meta http-equiv="refresh"' in waiting
    read_queued(services)
    done = web_client.get(f"/v1/uploads/{failed['id']}", headers=account.headers).json()
    assert done["status"] == "completed"
    assert web_client.get(result_path(done)).status_code == 200


def test_only_processing_failed_uploads_are_retried(
    web_client: TestClient, account: Account, services: Services, database: Database
) -> None:
    name, content = e_invoice()
    body = send_and_read(web_client, account.headers, services, name, content)

    response = _post(web_client, database, f"/app/uploads/{body['id']}/retry")

    assert response.status_code == 409
    assert stored_upload(services, body["id"]).status == "completed"


# --- download --------------------------------------------------------------------------


def test_download_streams_the_original_bytes_under_the_upload_name(
    web_client: TestClient, account: Account, services: Services
) -> None:
    _, content = e_invoice()
    body = send_and_read(web_client, account.headers, services, "Rechnung März; 2026.xml", content)
    assert stored_upload(services, body["id"]).file_name == "Rechnung März; 2026.xml"

    response = web_client.get(f"/app/results/{result_id(body)}/original")

    assert response.status_code == 200
    assert response.content == content
    assert response.headers["content-type"] == "application/xml"
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["content-disposition"] == (
        'attachment; filename="Rechnung Marz_ 2026.xml"; '
        "filename*=UTF-8''Rechnung%20M%C3%A4rz%3B%202026.xml"
    )


@pytest.mark.parametrize(
    ("name", "fallback"),
    [
        ('a"b.pdf', "a_b.pdf"),
        ("x\r\nSet-Cookie: y.pdf", "xSet-Cookie: y.pdf"),
        ("../../etc/passwd", ".._.._etc_passwd"),
        ("Übersicht 100%.pdf", "Ubersicht 100_.pdf"),
        ("請求書.pdf", ".pdf"),
        ("\u202e", "download"),
    ],
)
def test_the_download_name_cannot_break_out_of_its_header(name: str, fallback: str) -> None:
    header = content_disposition(name)
    assert header.startswith(f"attachment; filename=\"{fallback}\"; filename*=UTF-8''")
    assert not any(ord(ch) < 32 or ord(ch) > 126 for ch in header)
    encoded = header.split("filename*=UTF-8''", 1)[1]
    assert re.fullmatch(r"[A-Za-z0-9%._~-]+", encoded)


def test_download_of_a_pdf_is_a_pdf(
    web_client: TestClient, account: Account, services: Services
) -> None:
    body = _statement(web_client, account, services)
    response = web_client.get(f"/app/results/{result_id(body)}/original")
    assert response.headers["content-type"] == "application/pdf"
    assert response.content == bank_statement()[1]

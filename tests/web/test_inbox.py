"""The inbox, the batch list and the batch page: filters, paging, scoping to the company."""

from __future__ import annotations

import html
import re
import uuid
from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient

from storage.db import Database
from storage.repositories import users
from tests.web.support import Account, seed_batch, seed_upload

UPLOAD_LINK = re.compile(r'href="/app/uploads/([0-9a-f-]{36})"')
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def listed(page_html: str) -> list[uuid.UUID]:
    return [uuid.UUID(found) for found in UPLOAD_LINK.findall(page_html)]


def link(page_html: str, rel: str) -> str | None:
    found = re.search(rf'href="([^"]+)" rel="{rel}"', page_html)
    return html.unescape(found.group(1)) if found else None


def test_inbox_shows_only_the_company_s_uploads(
    web_client: TestClient, database: Database, account: Account, other_account: Account
) -> None:
    mine = seed_upload(database, account.company_id, file_name="mine.pdf")
    seed_upload(database, other_account.company_id, file_name="theirs.pdf")
    response = web_client.get("/app/uploads")
    assert response.status_code == 200
    assert listed(response.text) == [mine]
    assert "theirs.pdf" not in response.text


def test_inbox_row_shows_status_type_error_and_result_link(
    web_client: TestClient, database: Database, account: Account
) -> None:
    failed = seed_upload(
        database,
        account.company_id,
        status="failed",
        document_type="bank_statement",
        file_name="scan.pdf",
        error_code="not_a_bank_statement",
        error_message="No account statement found.",
    )
    done = seed_upload(database, account.company_id, status="completed", result_type="invoice")
    page = web_client.get("/app/uploads").text
    assert set(listed(page)) == {failed, done}
    # The catalogue's words for the code, not the code or the processor's English.
    assert "Not a bank statement" in page and "statement PDF, or upload this file" in page
    assert "not_a_bank_statement" not in page and "No account statement found." not in page
    assert "Bank statement" in page
    assert re.search(r'href="/app/invoices/[0-9a-f-]{36}">Invoice<', page)


def test_filters_by_status_type_batch_and_dates(
    web_client: TestClient, database: Database, account: Account
) -> None:
    company = account.company_id
    old = seed_upload(database, company, status="failed", created_at=T0 - timedelta(days=3))
    new = seed_upload(database, company, document_type="bank_statement", created_at=T0)
    batch = seed_batch(database, company, ["queued"])
    in_batch = listed(web_client.get(f"/app/uploads?batch={batch}").text)
    assert len(in_batch) == 1 and in_batch[0] not in (old, new)

    assert listed(web_client.get("/app/uploads?status=failed").text) == [old]
    assert listed(web_client.get("/app/uploads?type=bank_statement").text) == [new]
    day = T0.date().isoformat()
    assert listed(web_client.get(f"/app/uploads?from={day}&to={day}").text) == [new]
    before = (T0 - timedelta(days=1)).date().isoformat()
    assert listed(web_client.get(f"/app/uploads?to={before}").text) == [old]
    combined = web_client.get(f"/app/uploads?status=failed&from={day}").text
    assert listed(combined) == []
    assert "No uploads." in combined


def test_unknown_filter_values_are_explained_not_refused(
    web_client: TestClient, database: Database, account: Account
) -> None:
    upload = seed_upload(database, account.company_id)
    response = web_client.get("/app/uploads?status=bogus&type=x&batch=nope&from=yesterday")
    assert response.status_code == 200
    assert listed(response.text) == [upload]
    assert "Unknown status &#39;bogus&#39; is ignored." in response.text
    assert "not a batch ID" in response.text and "is not a date" in response.text


def test_paging_walks_every_upload_once_in_both_directions(
    web_client: TestClient, database: Database, account: Account
) -> None:
    # 120 uploads, two at each timestamp: the id breaks the tie.
    created = [
        seed_upload(database, account.company_id, created_at=T0 + timedelta(seconds=i // 2))
        for i in range(120)
    ]
    forward: list[list[uuid.UUID]] = []
    url: str | None = "/app/uploads"
    while url:
        page = web_client.get(url).text
        forward.append(listed(page))
        url = link(page, "next")
    assert [len(rows) for rows in forward] == [50, 50, 20]
    seen = [upload for rows in forward for upload in rows]
    assert sorted(seen) == sorted(created)
    assert 'rel="prev"' not in web_client.get("/app/uploads").text

    backward: list[list[uuid.UUID]] = [listed(page)]
    url = link(page, "prev")
    while url:
        page = web_client.get(url).text
        backward.append(listed(page))
        url = link(page, "prev")
    assert backward[::-1] == forward


def test_paging_keeps_the_filters(
    web_client: TestClient, database: Database, account: Account
) -> None:
    for i in range(55):
        seed_upload(database, account.company_id, status="failed", created_at=T0 + timedelta(i))
    seed_upload(database, account.company_id, status="queued")
    first = web_client.get("/app/uploads?status=failed").text
    second_url = link(first, "next")
    assert second_url and "status=failed" in second_url
    assert len(listed(web_client.get(second_url).text)) == 5


def test_broken_cursor_shows_the_first_page(
    web_client: TestClient, database: Database, account: Account
) -> None:
    upload = seed_upload(database, account.company_id)
    response = web_client.get("/app/uploads?after=garbage&before=1.x")
    assert response.status_code == 200
    assert listed(response.text) == [upload]


def test_dates_follow_the_interface_language(
    web_client: TestClient, database: Database, account: Account
) -> None:
    seed_upload(database, account.company_id, created_at=datetime(2015, 1, 9, 8, 5, tzinfo=UTC))
    # The user reads English, in the company's time zone (Berlin: UTC+1 in January).
    assert "2015-01-09 09:05" in web_client.get("/app/uploads").text
    with database.session() as session:
        users.set_language(session, account.user_id, "de")
        session.commit()
    assert "09.01.2015 09:05" in web_client.get("/app/uploads").text


def test_batch_list_derives_status_and_counts(
    web_client: TestClient, database: Database, account: Account, other_account: Account
) -> None:
    done = seed_batch(
        database, account.company_id, ["completed", "failed", "deleted"], file_name="a.zip"
    )
    running = seed_batch(database, account.company_id, ["queued", "completed"], file_name="b.zip")
    pending = seed_batch(
        database, account.company_id, [], unpack_state="pending", file_name="c.zip"
    )
    seed_batch(database, other_account.company_id, ["completed"], file_name="theirs.zip")
    page = web_client.get("/app/batches").text
    for batch in (done, running, pending):
        assert f"/app/batches/{batch}" in page
    assert "theirs.zip" not in page
    assert "Completed with errors" in page and page.count(">Processing<") == 2


def test_batch_page_shows_counts_and_uploads_and_refreshes_while_running(
    web_client: TestClient, database: Database, account: Account
) -> None:
    running = seed_batch(database, account.company_id, ["queued", "completed", "failed"])
    page = web_client.get(f"/app/batches/{running}").text
    assert '<meta http-equiv="refresh" content="3">' in page
    assert len(listed(page)) == 3
    assert "file0.pdf" in page and "Document unreadable" in page
    assert re.search(r'<th scope="row">Total</th><td class="num">3</td>', page)

    finished = seed_batch(database, account.company_id, ["completed", "completed"])
    page = web_client.get(f"/app/batches/{finished}").text
    assert "http-equiv" not in page
    assert ">Completed</span>" in page
    assert len(re.findall(r'href="/app/invoices/[0-9a-f-]{36}">Invoice<', page)) == 2


def test_another_company_s_batch_is_not_found(
    web_client: TestClient, database: Database, other_account: Account
) -> None:
    theirs = seed_batch(database, other_account.company_id, ["completed"])
    for path in (
        f"/app/batches/{theirs}",
        "/app/batches/not-a-uuid",
        f"/app/batches/{uuid.uuid4()}",
    ):
        response = web_client.get(path)
        assert response.status_code == 404
        assert "text/html" in response.headers["content-type"]
        assert "file0.pdf" not in response.text


def test_pages_need_a_session(client: TestClient) -> None:
    for path in ("/app/uploads?status=failed", "/app/batches", f"/app/batches/{uuid.uuid4()}"):
        response = client.get(path, follow_redirects=False)
        assert response.status_code == 303
        assert response.headers["location"].startswith("/app/login?next=")


def test_app_root_goes_to_the_inbox(web_client: TestClient) -> None:
    for root in ("/app", "/app/"):
        response = web_client.get(root, follow_redirects=False)
        assert response.headers["location"] == "/app/uploads"


def test_batch_filter_with_another_company_s_batch_shows_nothing(
    web_client: TestClient, database: Database, other_account: Account
) -> None:
    theirs = seed_batch(database, other_account.company_id, ["completed", "failed"])
    page = web_client.get(f"/app/uploads?batch={theirs}").text
    assert listed(page) == [] and "file0.pdf" not in page

"""Result pages end to end in a real browser: files go in through the real /v1 API with
an API key, the real pipeline flow (`process-uploads` on a Prefect test server, the real
process pool) reads them, and Chromium opens the result URL the API answered with.
Screenshots of every page go to test-artifacts/screenshots/."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from flows import runtime
from flows.pipeline import process_uploads
from flows.work import WorkerEnv
from storage.repositories import web_results
from tests.web.browser_pages import send, upload_state
from tests.web.conftest import LiveServer
from tests.web.results_helpers import (
    SLOW_LIMIT_SECONDS,
    bank_statement,
    e_invoice,
    e_invoice_with_warnings,
    invalid_e_invoice,
    payment_file,
    plain_pdf,
    reading_pool,
    result_id,
    slow_e_invoice,
    time_limit,
)
from tests.web.support import Account, screenshot

os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("PREFECT_SERVER_UI_SHOW_PROMOTIONAL_CONTENT", "false")


@pytest.fixture(scope="module")
def worker(live: LiveServer) -> Iterator[WorkerEnv]:
    """The pipeline beside the live server: a Prefect test server and a worker
    environment on the live server's database and object store."""
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=120):
        env = WorkerEnv(
            settings=live.services.settings,
            db=live.services.db,
            store=live.services.store,
            executor=reading_pool(),
            owner="browser-test-worker",
            lease=timedelta(seconds=60),
        )
        runtime.install(env)
        yield env


def drain() -> None:
    """One drain window of the `process-uploads` flow, as the worker runs it."""
    process_uploads(window="browser-test", idle_seconds=0.3)


def send_and_read(
    live: LiveServer, account: Account, document: tuple[str, bytes], **fields: str
) -> dict[str, Any]:
    upload_id = send(live, account, document, **fields)
    drain()
    return upload_state(live, account, upload_id)


def test_a_result_url_from_the_api_opens_after_login(
    worker: WorkerEnv, page: Page, live: LiveServer, live_account: Account
) -> None:
    name, content = e_invoice()
    body = send_and_read(live, live_account, (name, content))
    url = body["result"]["url"]
    assert url.startswith(f"{live.url}/app/invoices/")

    page.goto(url)
    expect(page).to_have_url(re.compile(r"/app/login\?next=%2Fapp%2Finvoices%2F"))
    page.get_by_label("E-mail").fill(live_account.email)
    page.get_by_label("Password").fill(live_account.password)
    page.get_by_role("button", name="Log in").click()

    expect(page).to_have_url(url)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Invoice")
    expect(page.get_by_role("heading", name="Validation report")).to_be_visible()
    expect(page.get_by_text("uncertain", exact=True)).to_be_visible()
    screenshot(page, "result-invoice")
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the original file").click()
    assert download.value.suggested_filename == name
    with open(download.value.path(), "rb") as original:
        assert original.read() == content


def test_confirm_bank_transactions_one_several_and_all(
    worker: WorkerEnv, signed_in_page: Page, live: LiveServer, live_account: Account
) -> None:
    page = signed_in_page
    body = send_and_read(live, live_account, bank_statement(), documentType="bank_statement")
    page.goto(body["result"]["url"])
    expect(page.get_by_role("heading", level=1)).to_contain_text("Bank statement")
    screenshot(page, "result-bank-import")
    rows = page.locator("table.transactions tbody tr")
    count = rows.count()
    assert count >= 3

    page.get_by_role("button", name="Confirm transaction 1", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("1 transaction confirmed.")
    expect(rows.nth(0)).to_contain_text("confirmed")
    expect(rows.nth(0).get_by_role("checkbox")).to_have_count(0)

    page.get_by_label("Select transaction 2", exact=True).check()
    page.get_by_role("button", name="Confirm selected").click()
    expect(page.get_by_role("status")).to_have_text("1 transaction confirmed.")
    expect(rows.nth(1)).to_contain_text("confirmed")
    expect(rows.nth(2)).not_to_contain_text("confirmed")

    page.get_by_role("button", name="Confirm all").click()
    rest = count - 2
    expect(page.get_by_role("status")).to_have_text(
        f"{rest} transaction{'s' if rest != 1 else ''} confirmed."
    )
    expect(page.get_by_role("heading", name=re.compile(r"Transactions"))).to_have_text(
        f"Transactions ({count} of {count} confirmed)"
    )
    expect(page.get_by_role("button", name="Confirm all")).to_have_count(0)
    expect(page.get_by_text("Delete this result")).to_have_count(0)
    screenshot(page, "result-bank-import-confirmed")
    with live.database.read_session() as session:
        confirmed = web_results.confirmations(session, result_id(body))
    assert sorted(confirmed) == list(range(count))
    assert {c.confirmed_by for c in confirmed.values()} == {live_account.user_id}


def test_delete_a_result_and_the_api_reports_deleted(
    worker: WorkerEnv, signed_in_page: Page, live: LiveServer, live_account: Account
) -> None:
    page = signed_in_page
    document = e_invoice_with_warnings()
    body = send_and_read(live, live_account, document, externalId="browser-delete")
    page.goto(body["result"]["url"])
    expect(page.locator("table.findings").first).to_contain_text("warning")  # one per term

    page.get_by_text("Delete this result").click()
    page.get_by_role("button", name="Delete the result").click()

    expect(page).to_have_url(re.compile(rf"/app/uploads/{body['id']}$"))
    expect(page.get_by_text("The result of this upload was deleted.")).to_be_visible()
    screenshot(page, "upload-deleted")
    api = upload_state(live, live_account, body["id"])
    assert (api["status"], api["result"]) == ("deleted", None)
    page.goto(body["result"]["url"])
    expect(page.get_by_role("heading", name="Not found")).to_be_visible()

    # The same upload request again starts a new read.
    assert send(live, live_account, document, externalId="browser-delete") == body["id"]
    drain()
    again = upload_state(live, live_account, body["id"])
    assert again["status"] == "completed"
    assert again["result"]["url"] != body["result"]["url"]


def test_retry_a_failed_upload_and_it_is_read_again(
    worker: WorkerEnv, signed_in_page: Page, live: LiveServer, live_account: Account
) -> None:
    page = signed_in_page
    with time_limit(SLOW_LIMIT_SECONDS):
        failed = send_and_read(live, live_account, slow_e_invoice())
    assert failed["error"]["code"] == "processing_failed"

    page.goto(f"/app/uploads/{failed['id']}")
    expect(page.get_by_role("heading", name=re.compile("Reading failed"))).to_be_visible()
    screenshot(page, "upload-processing-failed")
    page.get_by_role("button", name="Retry").click()

    expect(page.get_by_role("status")).to_contain_text("Waiting to be read.")
    assert upload_state(live, live_account, failed["id"])["status"] == "queued"
    drain()
    page.reload()
    expect(page.get_by_role("link", name="Open the result")).to_be_visible()
    history = page.locator("table.history tbody tr td:nth-child(3)")
    expect(history).to_have_text(
        ["Queued", "Processing", "Failed", "Queued", "Processing", "Completed"]
    )
    screenshot(page, "upload-retried")
    page.get_by_role("link", name="Open the result").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Invoice")


def test_the_other_result_pages(
    worker: WorkerEnv, signed_in_page: Page, live: LiveServer, live_account: Account
) -> None:
    page = signed_in_page
    sepa = send_and_read(live, live_account, payment_file())
    page.goto(sepa["result"]["url"])
    expect(page.locator("table.checks")).to_contain_text("matches")
    expect(page.locator("table.payments tbody tr")).not_to_have_count(0)
    screenshot(page, "result-payment-file")

    document = send_and_read(live, live_account, plain_pdf())
    page.goto(document["result"]["url"])
    expect(page.get_by_role("heading", name="Document", exact=True)).to_be_visible()
    screenshot(page, "result-document")

    invalid = send_and_read(live, live_account, invalid_e_invoice())
    page.goto(f"/app/uploads/{invalid['id']}")
    expect(page.get_by_role("heading", name=re.compile("Invalid e-invoice"))).to_be_visible()
    expect(page.locator("section[aria-labelledby=findings] tbody tr")).not_to_have_count(0)
    expect(page.get_by_role("button", name="Retry")).to_have_count(0)
    screenshot(page, "upload-invalid-e-invoice")

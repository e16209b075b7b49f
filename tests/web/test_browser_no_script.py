"""The core actions in Chromium with JavaScript switched off: every one is a plain HTML
form, so signing in, filtering, confirming, deleting, retrying, saving settings and
creating and revoking a key work without script."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from typing import Any

import httpx2 as httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.web.conftest import LiveServer
from tests.web.results_helpers import bank_statement, read_queued
from tests.web.support import Account, screenshot, seed_upload


@pytest.fixture
def no_script_page(browser: Browser, live: LiveServer, live_account: Account) -> Iterator[Page]:
    context = browser.new_context(base_url=live.url, locale="en-GB", java_script_enabled=False)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto("/app/batches")
    page.get_by_label("E-mail").fill(live_account.email)
    page.get_by_label("Password").fill(live_account.password)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(re.compile(r"/app/batches$"))
    yield page
    context.close()


def api_upload(live: LiveServer, account: Account, upload_id: uuid.UUID | str) -> dict[str, Any]:
    response = httpx.get(f"{live.url}/v1/uploads/{upload_id}", headers=account.headers)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def test_the_page_really_runs_without_script(no_script_page: Page) -> None:
    no_script_page.set_content(
        "<p id=out>off</p><script>document.getElementById('out').textContent='on'</script>"
    )
    expect(no_script_page.locator("#out")).to_have_text("off")


def test_filter_retry_and_delete_without_script(
    no_script_page: Page, live: LiveServer, live_account: Account
) -> None:
    page, company = no_script_page, live_account.company_id
    failed = seed_upload(
        live.database,
        company,
        status="failed",
        file_name="timeout.xml",
        error_code="processing_failed",
        error_message="The document was not read within the time limit.",
    )
    done = seed_upload(
        live.database, company, status="completed", result_type="invoice", file_name="r-17.pdf"
    )

    page.goto("/app/uploads")
    page.get_by_label("Status").select_option("failed")
    page.get_by_role("button", name="Filter").click()
    expect(page).to_have_url(re.compile(r"status=failed"))
    page.get_by_role("link", name="timeout.xml").click()
    page.get_by_role("button", name="Retry").click()
    expect(page).to_have_url(re.compile(f"/app/uploads/{failed}$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("Queued")
    assert api_upload(live, live_account, failed)["status"] == "queued"

    page.goto("/app/uploads")
    page.get_by_role("link", name="Invoice of r-17.pdf").click()
    page.get_by_text("Delete this result…").click()  # <details> opens without script
    page.get_by_role("button", name="Delete the result").click()
    expect(page).to_have_url(re.compile(f"/app/uploads/{done}$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("Deleted")
    screenshot(page, "no-script-deleted")
    assert api_upload(live, live_account, done)["status"] == "deleted"


def test_confirm_transactions_without_script(
    no_script_page: Page, live: LiveServer, live_account: Account
) -> None:
    page = no_script_page
    name, content = bank_statement()
    sent = httpx.post(
        f"{live.url}/v1/uploads",
        headers=live_account.headers,
        files={"file": (name, content)},
        data={"documentType": "bank_statement"},
        timeout=60,
    )
    assert sent.status_code == 202, sent.text
    read_queued(live.services)
    body = api_upload(live, live_account, sent.json()["id"])
    assert body["status"] == "completed", body
    url = body["result"]["url"]

    page.goto(url)
    page.get_by_role("button", name="Confirm transaction 1").click()
    expect(page.get_by_role("status")).to_contain_text("1 transaction confirmed")
    page.get_by_role("button", name="Confirm all").click()
    expect(page.get_by_role("heading", name=re.compile(r"Transactions"))).to_contain_text(
        re.compile(r"\((\d+) of \1 confirmed\)")
    )
    expect(page.get_by_role("button", name="Confirm all")).to_have_count(0)
    screenshot(page, "no-script-confirmed")


def test_settings_and_api_keys_without_script(no_script_page: Page, live: LiveServer) -> None:
    page = no_script_page
    page.goto("/app/settings")
    page.get_by_label("VAT IDs").fill("DE136695976\nATU13585627")
    page.get_by_label("English (1,234.56 · 2015-01-09)").check()
    page.get_by_role("button", name="Save settings").click()
    expect(page.get_by_role("status")).to_contain_text("Saved.")
    expect(page.get_by_label("VAT IDs")).to_have_value("DE136695976\nATU13585627")

    page.goto("/app/settings/api-keys")
    page.get_by_role("button", name="Create API key").click()
    key = page.locator("#new-key").inner_text()
    headers = {"Authorization": f"Bearer {key}"}
    missing = f"{live.url}/v1/uploads/{uuid.uuid4()}"
    assert httpx.get(missing, headers=headers).status_code == 404
    page.get_by_role("button", name=f"Revoke key {key[:12]}").click()
    expect(page.get_by_role("status")).to_contain_text("is revoked")
    assert httpx.get(missing, headers=headers).status_code == 401
    page.get_by_role("button", name="Log out").click()
    expect(page).to_have_url(re.compile(r"/app/login$"))

"""The core pages in a real browser (Debian's Chromium through Playwright): login, the
inbox and its filters, a batch, settings, and an API key created and revoked."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime, timedelta

import httpx2 as httpx
from playwright.sync_api import Page, expect

from storage.repositories import users
from tests.web.conftest import LiveServer
from tests.web.support import Account, screenshot, seed_batch, seed_upload

T0 = datetime(2026, 2, 3, 9, 30, tzinfo=UTC)


def api_status(live: LiveServer, api_key: str) -> int:
    """The API's answer to a key: 404 for an unknown upload with a valid key, 401 without."""
    response = httpx.get(
        f"{live.url}/v1/uploads/{uuid.uuid4()}", headers={"Authorization": f"Bearer {api_key}"}
    )
    return response.status_code


def test_login_through_the_form_and_back_to_the_page(page: Page, live_account: Account) -> None:
    page.goto("/app/settings")
    expect(page).to_have_url(re.compile(r"/app/login\?next=%2Fapp%2Fsettings$"))
    screenshot(page, "login")
    page.get_by_label("E-mail").fill(live_account.email)
    page.get_by_label("Password").fill("wrong password")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("alert")).to_have_text("E-mail or password is wrong.")
    page.get_by_label("Password").fill(live_account.password)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(re.compile(r"/app/settings$"))
    expect(page.get_by_role("heading", name="Company settings")).to_be_visible()
    page.get_by_role("button", name="Log out").click()
    expect(page).to_have_url(re.compile(r"/app/login$"))
    page.goto("/app/uploads")
    expect(page).to_have_url(re.compile(r"/app/login\?next="))


def test_inbox_lists_filters_and_opens_a_batch(
    signed_in_page: Page, live: LiveServer, live_account: Account
) -> None:
    page, company = signed_in_page, live_account.company_id
    seed_upload(
        live.database,
        company,
        status="failed",
        file_name="kontoauszug.pdf",
        document_type="bank_statement",
        error_code="not_a_bank_statement",
        error_message="No account statement found in the document.",
        created_at=T0,
    )
    seed_upload(
        live.database,
        company,
        status="completed",
        result_type="invoice",
        file_name="rechnung-4711.pdf",
        created_at=T0 + timedelta(hours=1),
    )
    batch = seed_batch(
        live.database, company, ["completed", "failed", "queued"], file_name="q1.zip"
    )

    page.goto("/app/uploads")
    table = page.get_by_role("table")
    expect(table.get_by_role("row")).to_have_count(6)  # header + 5 uploads
    expect(page.get_by_role("link", name="Invoice of rechnung-4711.pdf")).to_be_visible()
    screenshot(page, "inbox")

    page.get_by_label("Status").select_option("failed")
    page.get_by_label("Document type").select_option("bank_statement")
    page.get_by_role("button", name="Filter").click()
    expect(page).to_have_url(re.compile(r"status=failed&type=bank_statement"))
    expect(table.get_by_role("row")).to_have_count(2)
    expect(table).to_contain_text("Not a bank statement")  # the code explained (issue 43)
    expect(page.get_by_label("Status")).to_have_value("failed")
    screenshot(page, "inbox-filtered")

    page.get_by_role("link", name="Clear").click()
    page.get_by_role("link", name="q1.zip").first.click()
    expect(page).to_have_url(re.compile(f"/app/batches/{batch}$"))
    expect(page.get_by_role("heading", name="Batch q1.zip")).to_be_visible()
    expect(page.get_by_role("status")).to_contain_text("refreshes every 3 seconds")
    screenshot(page, "batch")

    page.get_by_role("link", name="Batches").click()
    expect(page.get_by_role("row", name=re.compile("q1.zip"))).to_contain_text("Processing")
    screenshot(page, "batches")


def test_create_an_api_key_use_it_and_revoke_it(signed_in_page: Page, live: LiveServer) -> None:
    page = signed_in_page
    page.get_by_role("link", name="Settings").click()
    screenshot(page, "settings")
    page.get_by_role("link", name="API keys").click()
    page.get_by_label("Name (optional)").fill("ERP import")
    page.get_by_role("button", name="Create API key").click()
    key = page.locator("#new-key").inner_text()
    assert key.startswith("dik_")
    screenshot(page, "api-key-created")
    assert api_status(live, key) == 404

    row = page.get_by_role("row", name=re.compile(re.escape(key[:12])))
    expect(row).to_contain_text("ERP import")
    row.get_by_role("button", name=re.compile("Revoke")).click()
    expect(page.get_by_role("status")).to_contain_text("is revoked")
    expect(page.get_by_role("row", name=re.compile(re.escape(key[:12])))).to_contain_text("Revoked")
    assert page.locator("#new-key").count() == 0
    screenshot(page, "api-keys")
    assert api_status(live, key) == 401


def test_settings_save_and_switch_the_number_format(
    signed_in_page: Page, live: LiveServer, live_account: Account
) -> None:
    page = signed_in_page
    with live.database.session() as session:  # no choice of their own: the company decides
        users.set_language(session, live_account.user_id, None)
        session.commit()
    seed_upload(
        live.database, live_account.company_id, created_at=datetime(2015, 1, 9, 8, 5, tzinfo=UTC)
    )
    page.goto("/app/uploads")
    # 08:05 UTC is 09:05 in Berlin, the company's time zone by default.
    expect(page.get_by_role("table")).to_contain_text("09.01.2015 09:05")
    page.goto("/app/settings")
    # The test company's placeholder VAT id fails its check digit, which settings refuse.
    page.get_by_label("USt-IdNrn.").fill("DE136695976")
    page.get_by_label("IBANs").fill("DE89 3704 0044 0532 0130 00")
    page.get_by_label("English (1,234.56 · 2015-01-09)").check()
    page.get_by_role("button", name="Einstellungen speichern").click()
    expect(page.get_by_role("status")).to_contain_text("in at most 10 seconds")
    expect(page.get_by_label("IBANs")).to_have_value("DE89370400440532013000")
    page.goto("/app/uploads")
    expect(page.get_by_role("table")).to_contain_text("2015-01-09 09:05")

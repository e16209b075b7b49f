"""The core pages in a real browser (Debian's Chromium through Playwright)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.web.support import Account, screenshot


def test_login_through_the_form(page: Page, live_account: Account) -> None:
    page.goto("/app/uploads")
    expect(page).to_have_url("/app/login?next=%2Fapp%2Fuploads")
    screenshot(page, "login")
    page.get_by_label("E-mail").fill(live_account.email)
    page.get_by_label("Password").fill("wrong password")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("alert")).to_have_text("E-mail or password is wrong.")
    page.get_by_label("Password").fill(live_account.password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/app/uploads")
    page.get_by_role("button", name="Log out").click()
    page.wait_for_url("**/app/login")

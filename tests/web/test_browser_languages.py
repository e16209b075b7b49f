"""The web application in German and in English, in a real browser: a user walks from
the login page through the inbox to an invoice and reads every step in the language of
the company (no choice made yet), switches language on the page, and prints the invoice
on A4. Invoices go in through the real /v1 API and are read by the pipeline's own steps
(tests/web/results_helpers.read_queued); screenshots go to test-artifacts/screenshots/."""

from __future__ import annotations

import io
from collections.abc import Iterator

import httpx2 as httpx
import pytest
from lxml import etree
from playwright.sync_api import Browser, Page, expect
from pypdf import PdfReader

from tests.web.conftest import LiveServer
from tests.web.results_helpers import e_invoice, read_queued
from tests.web.support import Account, make_account, screenshot

UBL = {
    "cbc": "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
    "cac": "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
}
A4_POINTS = (595.3, 841.9)  # 210 x 297 mm


def _page_in(browser: Browser, live: LiveServer, browser_locale: str) -> Iterator[Page]:
    context = browser.new_context(base_url=live.url, locale=browser_locale)
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


@pytest.fixture
def german_browser(browser: Browser, live: LiveServer) -> Iterator[Page]:
    yield from _page_in(browser, live, "de-DE")


@pytest.fixture
def english_browser(browser: Browser, live: LiveServer) -> Iterator[Page]:
    yield from _page_in(browser, live, "en-GB")


def _invoice_read_for(live: LiveServer, account: Account) -> tuple[str, str]:
    """The e-invoice sent and read; its number and the amount due (as in the XML)."""
    name, content = e_invoice()
    response = httpx.post(
        f"{live.url}/v1/uploads", headers=account.headers, files={"file": (name, content)}
    )
    assert response.status_code == 202, response.text
    read_queued(live.services)
    xml = etree.fromstring(content)
    number = str(xml.xpath("string(/*/cbc:ID)", namespaces=UBL)).strip()
    due = str(xml.xpath("string(//cac:LegalMonetaryTotal/cbc:PayableAmount)", namespaces=UBL))
    return number, due.strip()


def _german(amount: str) -> str:
    return f"{float(amount):,.2f}".replace(",", "\0").replace(".", ",").replace("\0", ".")


def _log_in(page: Page, account: Account, email: str, password: str, button: str) -> None:
    page.get_by_label(email, exact=True).fill(account.email)
    page.get_by_label(password, exact=True).fill(account.password)
    page.get_by_role("button", name=button, exact=True).click()


def test_a_german_company_reads_german_and_can_switch_to_english(
    german_browser: Page, live: LiveServer
) -> None:
    page = german_browser
    account = make_account(live.database, "Müller GmbH", locale="de", language=None)
    number, due = _invoice_read_for(live, account)

    page.goto("/app/login")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_role("heading", level=1)).to_have_text("Anmelden")
    _log_in(page, account, "E-Mail", "Passwort", "Anmelden")
    page.wait_for_url("**/app/uploads**")
    expect(page.get_by_role("heading", level=1)).to_have_text("Eingang")
    expect(page.get_by_role("link", name="Einstellungen")).to_be_visible()
    expect(page.get_by_text("Uhrzeiten in der Zeitzone Europe/Berlin.")).to_be_visible()
    screenshot(page, "language-de-inbox")

    page.get_by_role("link", name="Rechnung").first.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"Rechnung: {number}")
    expect(page.get_by_role("heading", name="Prüfbericht")).to_be_visible()
    expect(page.get_by_role("heading", name="Summen", exact=True, level=2)).to_be_visible()
    expect(page.locator("table.totals")).to_contain_text(_german(due))
    screenshot(page, "language-de-invoice")

    invoice_url = page.url
    page.get_by_role("button", name="English").click()
    page.wait_for_url(invoice_url)
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("heading", name="Validation report")).to_be_visible()
    expect(page.locator("table.totals")).to_contain_text(f"{float(due):,.2f}")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Inbox").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Inbox")  # the choice is kept


def test_an_english_company_reads_english_and_can_switch_to_german(
    english_browser: Page, live: LiveServer
) -> None:
    page = english_browser
    account = make_account(live.database, "Smith Ltd", locale="en", language=None)
    number, due = _invoice_read_for(live, account)

    page.goto("/app/login")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    _log_in(page, account, "E-mail", "Password", "Log in")
    page.wait_for_url("**/app/uploads**")
    expect(page.get_by_role("heading", level=1)).to_have_text("Inbox")
    expect(page.get_by_role("columnheader", name="Document type")).to_be_visible()
    screenshot(page, "language-en-inbox")

    page.get_by_role("link", name="Invoice").first.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"Invoice: {number}")
    expect(page.get_by_role("heading", name="Line items", level=2)).to_be_visible()
    expect(page.locator("table.totals")).to_contain_text(f"{float(due):,.2f}")
    screenshot(page, "language-en-invoice")

    page.get_by_role("button", name="Deutsch").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_role("heading", name="Rechnungspositionen", level=2)).to_be_visible()
    expect(page.locator("table.totals")).to_contain_text(_german(due))


def test_the_login_page_switches_language_without_a_session(
    english_browser: Page, live: LiveServer
) -> None:
    page = english_browser
    page.goto("/app/login?next=%2Fapp%2Fbatches")
    page.get_by_role("link", name="Deutsch").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_role("heading", level=1)).to_have_text("Anmelden")
    assert "next=%2Fapp%2Fbatches" in page.url


def test_the_printable_invoice_is_one_a4_document_without_the_application(
    german_browser: Page, live: LiveServer
) -> None:
    page = german_browser
    account = make_account(live.database, "Druck GmbH", locale="de", language=None)
    number, due = _invoice_read_for(live, account)
    page.goto("/app/login")
    _log_in(page, account, "E-Mail", "Passwort", "Anmelden")
    page.wait_for_url("**/app/uploads**")
    page.get_by_role("link", name="Rechnung").first.click()
    page.get_by_role("link", name="Druckansicht").click()

    sheet = page.locator("article.sheet")
    expect(sheet.get_by_role("heading", level=1)).to_have_text(f"Rechnung {number}")
    for heading in ("Verkäufer", "Käufer", "Rechnungspositionen", "Summen", "Zahlung"):
        expect(sheet.get_by_role("heading", name=heading, exact=True)).to_be_visible()
    expect(sheet).to_contain_text(_german(due))
    expect(page.locator(".site-header nav")).to_be_visible()  # on screen: the application

    page.emulate_media(media="print")
    expect(page.locator(".site-header")).to_be_hidden()
    expect(page.locator(".print-hint")).to_be_hidden()
    expect(sheet).to_be_visible()
    screenshot(page, "invoice-print")

    # The page size comes from the stylesheet's @page rule, not from the call.
    pdf = PdfReader(io.BytesIO(page.pdf(prefer_css_page_size=True, print_background=False)))
    for sheet_page in pdf.pages:  # Chromium rounds A4 to 595 x 841.9 points
        size = (float(sheet_page.mediabox.width), float(sheet_page.mediabox.height))
        assert all(abs(got - a4) < 1 for got, a4 in zip(size, A4_POINTS, strict=True)), size
    text = " ".join(p.extract_text() for p in pdf.pages)
    assert number in text and _german(due) in text
    assert "Einstellungen" not in text and "Abmelden" not in text

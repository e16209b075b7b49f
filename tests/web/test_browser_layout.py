"""The layout at a desktop's 1366 px and a phone's 390 px (issue 43, part 3): long URNs,
file names and XSD messages wrap instead of widening the page, tables scroll inside their
box, and below 600 px the inbox is a list of cards that show what was read."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

import httpx2 as httpx
import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from storage.repositories import users
from tests.web.browser_pages import send
from tests.web.conftest import LiveServer
from tests.web.results_helpers import e_invoice, invalid_e_invoice_of_every_level, read_queued
from tests.web.support import Account, make_account, screenshot, seed_upload

PHONE, DESKTOP = 390, 1366
LONG_URN = (
    "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0"
    "#conformant#urn:xeinkauf.de:kosit:extension:xrechnung_3.0"
)
LONG_XSD_MESSAGE = (
    "cvc-complex-type.2.4.a:Invalidcontentwasfoundstartingwithelement"
    "'{urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2}"
    "AccountingSupplierPartyIdentificationSchemeAgencyNameWithoutAnyBreak'."
)


@dataclass(frozen=True)
class Documents:
    account: Account
    invoice_url: str  # a read e-invoice's page
    rejected_url: str  # an e-invoice refused by its validation: the failed upload's page


@pytest.fixture(scope="module")
def documents(live: LiveServer) -> Documents:
    """One company for the module: a read e-invoice, a rejected one, and uploads whose
    file name is a long URN and whose failure is a long XSD message."""
    account = make_account(live.database)
    invoice = send(live, account, e_invoice())
    rejected = send(live, account, invalid_e_invoice_of_every_level())
    read_queued(live.services)
    state = httpx.get(f"{live.url}/v1/uploads/{invoice}", headers=account.headers).json()
    assert state["status"] == "completed", state
    seed_upload(live.database, account.company_id, file_name=f"{LONG_URN}.xml")
    seed_upload(
        live.database,
        account.company_id,
        status="failed",
        file_name=f"{LONG_URN}-{LONG_URN}.xml",
        error_code="invalid_e_invoice",
        error_message=LONG_XSD_MESSAGE,
    )
    return Documents(account, state["result"]["url"], f"/app/uploads/{rejected}")


@pytest.fixture(
    params=[(PHONE, "de"), (PHONE, "en"), (DESKTOP, "de"), (DESKTOP, "en")],
    ids=["390px-de", "390px-en", "1366px-de", "1366px-en"],
)
def sized_page(
    request: pytest.FixtureRequest, browser: Browser, live: LiveServer, documents: Documents
) -> Iterator[Page]:
    """Signed in at the parameter's width, reading the parameter's language."""
    width, language = request.param
    with live.database.session() as session:
        users.set_language(session, documents.account.user_id, language)
        session.commit()
    context = browser.new_context(
        base_url=live.url, locale="de-DE", viewport={"width": width, "height": 900}
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto("/app/uploads")
    page.get_by_label("E-Mail").fill(documents.account.email)
    page.get_by_label("Passwort").fill(documents.account.password)
    page.get_by_role("button", name="Anmelden").click()
    expect(page).to_have_url(re.compile(r"/app/uploads$"))
    yield page
    context.close()


def page_overflow(page: Page) -> int:
    """How far the page is wider than the window (0: no horizontal scrolling)."""
    overflow: int = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    return overflow


def width_of(page: Page) -> int:
    width: int = page.evaluate("window.innerWidth")
    return width


def test_the_inbox_fits_the_window_with_long_urns_and_messages(sized_page: Page) -> None:
    page = sized_page
    expect(page.get_by_role("link", name=re.compile(re.escape(LONG_URN[:30])))).to_have_count(2)
    assert page_overflow(page) <= 0
    screenshot(page, f"layout-inbox-{width_of(page)}-{page.locator('html').get_attribute('lang')}")


def test_on_a_phone_every_inbox_card_shows_supplier_amount_and_status(
    sized_page: Page, documents: Documents
) -> None:
    page = sized_page
    if width_of(page) != PHONE:
        pytest.skip("the cards are the phone's layout")
    rows = page.locator("table.uploads tbody tr")
    assert rows.count() == 4
    for index in range(rows.count()):
        row = rows.nth(index)
        assert row.evaluate("r => getComputedStyle(r).display") == "block"  # a card
        status = row.locator(".status")
        expect(status).to_be_visible()
        assert _inside_the_window(status, PHONE)
    read = page.locator("td.glance-amount:not(:empty)")
    invoice = page.locator("table.uploads tbody tr", has=read)
    expect(invoice).to_have_count(1)
    for cell in ("td.glance-party", "td.glance-amount", ".status"):
        shown = invoice.locator(cell)
        expect(shown).to_be_visible()
        expect(shown).not_to_have_text("")
        assert _inside_the_window(shown, PHONE)
    # Each value says what it is: the column's heading is its label on the card.
    label = invoice.locator("td.glance-amount").evaluate(
        "td => getComputedStyle(td, '::before').content"
    )
    expected = {"de": '"Betrag"', "en": '"Amount"'}[str(page.locator("html").get_attribute("lang"))]
    assert label == expected


def _inside_the_window(locator: Locator, width: int) -> bool:
    box = locator.bounding_box()
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5


def test_result_pages_fit_the_window(sized_page: Page, documents: Documents) -> None:
    page = sized_page
    for url in (documents.invoice_url, documents.rejected_url):
        page.goto(url)
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        assert page_overflow(page) <= 0, url
    page.goto("/app/uploads?status=failed")
    page.get_by_role("link", name=re.compile(re.escape(LONG_URN[:30]))).click()
    expect(page.get_by_text(LONG_XSD_MESSAGE[:40])).to_have_count(1)
    assert page_overflow(page) <= 0
    screenshot(page, f"layout-failed-upload-{width_of(page)}")


def test_tables_scroll_inside_their_box(sized_page: Page, documents: Documents) -> None:
    """A table wider than the window (the invoice's lines on a phone) scrolls in its
    own box; the page itself does not."""
    page = sized_page
    page.goto(documents.invoice_url)
    boxes = page.locator(".table-wrap")
    assert boxes.count() > 0
    for index in range(boxes.count()):
        box = boxes.nth(index)
        assert box.evaluate("b => getComputedStyle(b).overflowX") == "auto"
        assert box.evaluate("b => b.getBoundingClientRect().right") <= width_of(page) + 0.5
    assert page_overflow(page) <= 0
    screenshot(page, f"layout-invoice-{width_of(page)}")

"""The A4 print view of a long invoice (issue 43): every sheet has its page number, and
the totals block (VAT breakdown and totals) is printed whole on one page, in Chromium's
own PDF of the page."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import httpx2 as httpx
import pytest
from playwright.sync_api import Browser, Page, expect
from pypdf import PdfReader

from tests.web.conftest import LiveServer
from tests.web.results_helpers import e_invoice, read_queued
from tests.web.support import make_account, screenshot


@pytest.fixture
def print_page(browser: Browser, live: LiveServer) -> Iterator[Page]:
    context = browser.new_context(base_url=live.url, locale="en-GB")
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


def test_the_stylesheet_keeps_the_totals_together_and_numbers_the_pages(
    print_page: Page, live: LiveServer
) -> None:
    stylesheet = httpx.get(f"{live.url}/app/static/print.css").text
    assert '@bottom-right { content: counter(page) " / " counter(pages);' in stylesheet
    assert ".sheet-sums { break-inside: avoid;" in stylesheet
    assert ".sheet h2 { break-after: avoid;" in stylesheet


def test_a_long_invoice_prints_its_totals_on_one_page_with_page_numbers(
    print_page: Page, live: LiveServer
) -> None:
    """The e-invoice of 20 lines takes two A4 pages; wherever the break falls, the
    totals heading, the VAT breakdown and the amount due are on the same page."""
    account = make_account(live.database, "Druck GmbH", locale="en", language=None)
    name, content = e_invoice()
    sent = httpx.post(
        f"{live.url}/v1/uploads", headers=account.headers, files={"file": (name, content)}
    )
    assert sent.status_code == 202, sent.text
    read_queued(live.services)
    state = httpx.get(f"{live.url}/v1/uploads/{sent.json()['id']}", headers=account.headers)
    invoice_url = state.json()["result"]["url"]

    page = print_page
    page.goto(invoice_url)
    page.get_by_label("E-mail", exact=True).fill(account.email)
    page.get_by_label("Password", exact=True).fill(account.password)
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    page.goto(f"{invoice_url}/print")
    expect(page.locator("article.sheet .sheet-sums")).to_have_count(1)
    page.emulate_media(media="print")
    screenshot(page, "invoice-print-long")

    # Wherever the page break falls: blank space of growing height before the totals
    # block moves it across the foot of the first page, step by step.
    page.evaluate(SPACER)
    for space in range(0, 1100, 60):
        page.evaluate(f"document.getElementById('spacer').style.height = '{space}px'")
        texts = _printed(page)
        assert len(texts) >= 2, "the long invoice is expected to take more than one page"
        for number, text in enumerate(texts, start=1):
            assert re.search(rf"\b{number} / {len(texts)}\b", text), (number, text[-200:])
        with_totals = [text for text in texts if "totals" in text]
        assert len(with_totals) == 1, (space, texts)
        for part in ("vat breakdown", "taxable amount", "gross amount", "amount due"):
            assert part in with_totals[0], (space, part)


SPACER = """() => {
  const spacer = document.createElement('div');
  spacer.id = 'spacer';
  const sums = document.querySelector('.sheet-sums');
  sums.parentNode.insertBefore(spacer, sums);
}"""


def _printed(page: Page) -> list[str]:
    """Each A4 page's text, from Chromium's PDF; headings print in capitals
    (text-transform), so compared without case."""
    pdf = PdfReader(io.BytesIO(page.pdf(prefer_css_page_size=True)))
    return [sheet.extract_text().casefold() for sheet in pdf.pages]

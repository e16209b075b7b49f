"""The document beside its data in Chromium (issue 43, part 5), in German and English at
1366 px and on a 390 px phone: a hybrid's first page image loads under the pages'
Content-Security-Policy, an XML e-invoice's sheet shows its number, and neither page is
wider than the window or has a serious accessibility violation (axe-core)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

import httpx2 as httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.processors.hybrid_layouts import LAYOUTS, Printed
from tests.processors.hybrids import cii_xml, hybrid_pdf, random_values
from tests.web.browser_pages import (
    AXE_SCRIPT,
    BROWSER_LOCALES,
    WIDTHS,
    axe_violations,
    horizontal_overflow,
    set_language,
    signed_in_context,
)
from tests.web.conftest import LiveServer
from tests.web.results_helpers import read_queued
from tests.web.support import Account, make_account, screenshot

VALUES = random_values(11)


@dataclass(frozen=True)
class Invoices:
    account: Account
    hybrid: str  # the invoice page of a Factur-X PDF
    xml: str  # the invoice page of its XML alone


def _read(live: LiveServer, account: Account, name: str, content: bytes) -> str:
    sent = httpx.post(
        f"{live.url}/v1/uploads", headers=account.headers, files={"file": (name, content)}
    )
    assert sent.status_code == 202, sent.text
    read_queued(live.services)
    state = httpx.get(f"{live.url}/v1/uploads/{sent.json()['id']}", headers=account.headers)
    assert state.json()["status"] == "completed", state.text
    url: str = state.json()["result"]["url"]
    return url[url.index("/app/") :]


@pytest.fixture(scope="module")
def invoices(live: LiveServer) -> Iterator[Invoices]:
    if not AXE_SCRIPT.is_file():
        pytest.fail(f"{AXE_SCRIPT} is missing: run scripts/install-axe.sh (make test does)")
    account = make_account(live.database, "Preview GmbH")
    shown = Printed.of(VALUES)
    xml = cii_xml(VALUES, shown)
    hybrid = _read(live, account, "factur-x.pdf", hybrid_pdf(LAYOUTS[1], VALUES, shown, xml))
    yield Invoices(account, hybrid, _read(live, account, "invoice.xml", xml))
    live.services.page_renderer.shutdown()


@pytest.fixture(params=[(w, lang) for w in WIDTHS for lang in BROWSER_LOCALES])
def shown(
    request: pytest.FixtureRequest, browser: Browser, live: LiveServer, invoices: Invoices
) -> Iterator[Page]:
    width, language = request.param
    set_language(live, invoices.account, language)
    context = signed_in_context(browser, live, invoices.account, language, WIDTHS[width])
    yield context.pages[0]
    context.close()


def test_a_hybrids_page_image_loads_beside_its_data(shown: Page, invoices: Invoices) -> None:
    page = shown
    with page.expect_response(re.compile(r"/pages/1\.png$")) as image:
        page.goto(invoices.hybrid)
    assert image.value.status == 200
    picture = page.locator(".preview-page img")
    expect(picture).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert picture.evaluate("i => i.complete && i.naturalWidth > 0")
    assert horizontal_overflow(page) <= 0
    assert axe_violations(page) == []
    screenshot(page, f"invoice-hybrid-preview-{page.viewport_size['width']}")  # type: ignore[index]


def test_an_xml_einvoice_shows_its_sheet_beside_its_data(shown: Page, invoices: Invoices) -> None:
    page = shown
    page.goto(invoices.xml)
    sheet = page.locator(".sheet-preview article.sheet")
    expect(sheet.get_by_role("heading", level=3)).to_contain_text(VALUES.number)
    assert horizontal_overflow(page) <= 0
    assert axe_violations(page) == []
    screenshot(page, f"invoice-xml-preview-{page.viewport_size['width']}")  # type: ignore[index]

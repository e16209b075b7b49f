"""The accountant's pages in Chromium, in German and English, at 1366 px and on a 390 px
phone (issue 43): the inbox, each kind of result, a rejected e-invoice, the settings and
the print view. axe-core (npm registry, tests/web/axe/package.json, installed by `make
test`) finds no serious or critical violation on any of them, no page is wider than the
window, no page shows a word of the other language (test_every_page_language.py's check,
in the browser), and the summary card states the invoice's facts in the page's format. One live
server and one browser for the module; the documents are sent and read once."""

from __future__ import annotations

from decimal import Decimal

import pytest
from playwright.sync_api import Browser, expect

from api.web.formats import format_money
from tests.web.browser_pages import (
    AXE_SCRIPT,
    WIDTHS,
    Seeded,
    axe_violations,
    horizontal_overflow,
    seed_pages,
    set_language,
    signed_in_context,
)
from tests.web.conftest import LiveServer
from tests.web.language_words import ALLOWED, leaked

PAGES = (
    "inbox",
    "invoice",
    "bank-statement",
    "payment-file",
    "document",
    "failed-upload",
    "settings",
    "invoice-print",
)
SUMMARY_HEADING = {"de": "Auf einen Blick", "en": "At a glance"}
# The sample's parties are not the company's: the direction is uncertain, so the one
# verdict is "needs review", with its reason.
VERDICT = {"de": "Zu prüfen", "en": "Needs review"}


@pytest.fixture(scope="module")
def seeded(live: LiveServer) -> Seeded:
    if not AXE_SCRIPT.is_file():
        pytest.fail(f"{AXE_SCRIPT} is missing: run scripts/install-axe.sh (make test does)")
    return seed_pages(live)


Walk = dict[str, tuple[list[str], int, set[str]]]
_WALKS: dict[tuple[str, str, int], Walk] = {}


def _walk(browser: Browser, live: LiveServer, seeded: Seeded, language: str, width: int) -> Walk:
    """Each page's serious and critical axe violations, its horizontal overflow and the
    other language's words on it; once per server, language and width (two tests read
    the phone's)."""
    key = (live.url, language, width)
    if key not in _WALKS:
        _WALKS[key] = _walk_pages(browser, live, seeded, language, width)
    return _WALKS[key]


def _walk_pages(
    browser: Browser, live: LiveServer, seeded: Seeded, language: str, width: int
) -> Walk:
    set_language(live, seeded.account, language)
    context = signed_in_context(browser, live, seeded.account, language, width)
    page = context.pages[0]
    found: Walk = {}
    try:
        for name in PAGES:
            page.goto(seeded.pages[name])
            expect(page.locator("html")).to_have_attribute("lang", language)
            words = leaked(page.content(), language, ALLOWED | seeded.data.get(name, frozenset()))
            found[name] = (axe_violations(page), horizontal_overflow(page), words)
    finally:
        context.close()
    return found


@pytest.mark.parametrize("width", ["desktop", "phone"])
@pytest.mark.parametrize("language", ["de", "en"])
def test_every_page_is_accessible_and_fits_the_window(
    browser: Browser, live: LiveServer, seeded: Seeded, language: str, width: str
) -> None:
    found = _walk(browser, live, seeded, language, WIDTHS[width])
    violations = {name: v for name, (v, _, _) in found.items() if v}
    assert not violations, "\n".join(f"{name}: {v}" for name, v in violations.items())
    foreign = {name: sorted(w) for name, (_, _, w) in found.items() if w}
    assert not foreign, f"words of the other language: {foreign}"
    wider = {name: px for name, (_, px, _) in found.items() if px > 0}
    assert not wider, f"pages wider than {WIDTHS[width]} px (by px): {wider}"


@pytest.mark.parametrize("language", ["de", "en"])
def test_no_page_has_a_serious_accessibility_violation_on_a_phone(
    browser: Browser, live: LiveServer, seeded: Seeded, language: str
) -> None:
    found = _walk(browser, live, seeded, language, WIDTHS["phone"])
    violations = {name: v for name, (v, _, _) in found.items() if v}
    assert not violations, "\n".join(f"{name}: {v}" for name, v in violations.items())


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_summary_card_states_the_invoices_facts(
    browser: Browser, live: LiveServer, seeded: Seeded, language: str
) -> None:
    set_language(live, seeded.account, language)
    context = signed_in_context(browser, live, seeded.account, language, WIDTHS["phone"])
    page = context.pages[0]
    try:
        page.goto(seeded.pages["invoice"])
        card = page.locator("section.summary-card")
        expect(card.get_by_role("heading", level=2)).to_have_text(SUMMARY_HEADING[language])
        expect(card.locator(".verdict .flag")).to_have_text(VERDICT[language])
        expect(card.locator(".verdict .reason")).not_to_have_count(0)
        expect(card).to_contain_text(seeded.invoice_number)
        gross = format_money(Decimal(seeded.invoice_gross), "EUR", language)
        expect(card).to_contain_text(gross)
        # The card is the first thing on the page, above the fold of a phone.
        box = card.bounding_box()
        assert box is not None and box["y"] < 900, box
    finally:
        context.close()

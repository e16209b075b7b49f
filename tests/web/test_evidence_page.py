"""The invoice page shows where each field was read: the page image with the field's
box, highlighted while the field is pointed at or focused (issue 36)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Page, expect

from api.deps import Services
from processors.results.evidence import EvidenceField
from storage.db import Database
from storage.repositories import users
from tests.processors.layout_docs import MM
from tests.web.conftest import LiveServer
from tests.web.evidence_support import LOW_REASON, seed_invoice_with_evidence
from tests.web.support import Account, screenshot, section_of

STYLES = Path(__file__).parents[2] / "api" / "web" / "static" / "results.css"
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(autouse=True)
def renderer_stopped(request: pytest.FixtureRequest) -> Iterator[None]:
    """The page's view starts the reading process that renders its images: stopped."""
    yield
    if "services" in request.fixturenames:
        services: Services = request.getfixturevalue("services")
        services.page_renderer.shutdown()


def test_the_page_shows_the_image_and_each_fields_box(
    web_client: TestClient, services: Services, account: Account
) -> None:
    result = seed_invoice_with_evidence(services.db, services.store, account.company_id)
    section = section_of(web_client.get(f"/app/invoices/{result}").text, "evidence")

    assert f'<image href="/app/invoices/{result}/pages/1.png"' in section
    assert re.search(r'<svg viewBox="0 0 595\.3 841\.9"', section)
    number = re.search(
        r'<li tabindex="0" data-field="number" data-page="1" data-box="([^"]+)"', section
    )
    assert number is not None
    x0, y0, x1, y1 = (float(v) for v in number.group(1).split(","))
    # "RE-2024-17" is drawn from 160 mm on, its baseline 60 mm from the top
    assert x0 == pytest.approx(160 * MM, abs=0.5) and y0 < 60 * MM < y1 and x0 < x1
    rect = re.search(
        r'<rect class="evidence-box" data-field="number" x="([\d.]+)" y="([\d.]+)"', section
    )
    assert rect is not None and (float(rect.group(1)), float(rect.group(2))) == (x0, y0)
    assert 'class="evidence-box evidence-low" data-field="totals.gross"' in section
    assert LOW_REASON in section and "1 field was read with low confidence" in section


def test_the_page_image_is_rendered_in_a_reading_process(
    web_client: TestClient, services: Services, account: Account
) -> None:
    result = seed_invoice_with_evidence(services.db, services.store, account.company_id)
    image = web_client.get(f"/app/invoices/{result}/pages/1.png")
    assert image.status_code == 200
    assert image.headers["content-type"] == "image/png" and image.content.startswith(PNG)
    assert "private" in image.headers["cache-control"]
    assert web_client.get(f"/app/invoices/{result}/pages/2.png").status_code == 404


def test_another_companys_page_image_is_not_found(
    web_client: TestClient, services: Services, other_account: Account
) -> None:
    result = seed_invoice_with_evidence(services.db, services.store, other_account.company_id)
    assert web_client.get(f"/app/invoices/{result}/pages/1.png").status_code == 404


def test_an_invoice_without_evidence_has_no_evidence_section(
    web_client: TestClient, database: Database, services: Services, account: Account
) -> None:
    result = seed_invoice_with_evidence(database, services.store, account.company_id, False)
    html = web_client.get(f"/app/invoices/{result}").text
    assert 'aria-labelledby="evidence"' not in html


def test_in_german(web_client: TestClient, services: Services, account: Account) -> None:
    with services.db.session() as session:
        users.set_language(session, account.user_id, "de")
        session.commit()
    result = seed_invoice_with_evidence(services.db, services.store, account.company_id)
    section = section_of(web_client.get(f"/app/invoices/{result}").text, "evidence")
    assert "Wo die Felder gelesen wurden" in section and "Seite 1 des PDF" in section


@pytest.mark.parametrize("field", list(EvidenceField))
def test_every_field_has_its_highlight_rule(field: EvidenceField) -> None:
    rule = f'.evidence:has(li[data-field="{field}"]:is(:hover, :focus)) rect[data-field="{field}"]'
    assert rule in STYLES.read_text()


# --- in a browser -----------------------------------------------------------------------


@pytest.fixture
def evidence_page(signed_in_page: Page, live: LiveServer, live_account: Account) -> Iterator[Page]:
    services = live.services
    result = seed_invoice_with_evidence(services.db, services.store, live_account.company_id)
    refused: list[str] = []
    signed_in_page.on(
        "console", lambda m: refused.append(m.text) if "Content Security" in m.text else None
    )
    with signed_in_page.expect_response(re.compile(r"/pages/1\.png$")) as image:
        signed_in_page.goto(f"/app/invoices/{result}")
    assert image.value.status == 200 and image.value.header_value("content-type") == "image/png"
    yield signed_in_page
    assert refused == []  # the page image and the highlight pass the CSP
    services.page_renderer.shutdown()


def _highlighted(page: Page, field: str) -> bool:
    rect = page.locator(f'rect[data-field="{field}"]')
    return bool(rect.evaluate("r => getComputedStyle(r).strokeOpacity === '1'"))


def test_pointing_at_a_field_highlights_its_box(evidence_page: Page) -> None:
    page = evidence_page
    image = page.locator("svg image")
    expect(image).to_have_attribute("href", re.compile(r"/pages/1\.png$"))
    page.wait_for_load_state("networkidle")
    assert not _highlighted(page, "number")
    page.locator('li[data-field="number"]').hover()
    assert _highlighted(page, "number") and not _highlighted(page, "totals.gross")
    screenshot(page, "invoice-evidence")


def test_the_keyboard_focus_highlights_a_box_too(evidence_page: Page) -> None:
    page = evidence_page
    page.locator('li[data-field="issueDate"]').focus()
    assert _highlighted(page, "issueDate")
    page.keyboard.press("Tab")
    assert _highlighted(page, "totals.gross") and not _highlighted(page, "issueDate")

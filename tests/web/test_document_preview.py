"""The document beside its data, for every invoice kind (issue 43, part 5): a PDF read
from its text shows its page with each field's box (tests/web/test_evidence_page.py); a
hybrid (Factur-X: a PDF with its XML) its first page's image; an XML e-invoice, which has
no pages, the printable view's sheet. Both read by the real API and pipeline, from a
generated Factur-X invoice (tests/processors/hybrids.py) and its XML alone."""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal

import pytest
from fastapi.testclient import TestClient

from api.deps import Services
from storage.repositories import users
from tests.processors.hybrid_layouts import LAYOUTS, Printed
from tests.processors.hybrids import cii_xml, hybrid_pdf, random_values
from tests.web.evidence_support import seed_invoice_with_evidence
from tests.web.results_helpers import result_path, send_and_read
from tests.web.support import Account

PNG = b"\x89PNG\r\n\x1a\n"
VALUES = random_values(7)
SHOWN = Printed.of(VALUES)


@pytest.fixture(autouse=True)
def renderer_stopped(services: Services) -> Iterator[None]:
    """A hybrid's page starts the reading process that renders its image: stopped."""
    yield
    services.page_renderer.shutdown()


def _read(client: TestClient, account: Account, services: Services, hybrid: bool) -> str:
    """The invoice page's path of the generated invoice: as Factur-X PDF or bare XML."""
    xml = cii_xml(VALUES, SHOWN)
    if hybrid:
        body = send_and_read(
            client,
            account.headers,
            services,
            "factur-x.pdf",
            hybrid_pdf(LAYOUTS[0], VALUES, SHOWN, xml),
        )
    else:
        body = send_and_read(client, account.headers, services, "invoice.xml", xml)
    return result_path(body)


def _in_german(services: Services, account: Account) -> None:
    with services.db.session() as session:
        users.set_language(session, account.user_id, "de")
        session.commit()


def _money(amount: Decimal, german: bool) -> str:
    english = f"{amount:,.2f}"
    return english.translate(str.maketrans(",.", ".,")) if german else english


def _sheet(page: str) -> str:
    """The preview section's sheet (it holds sections of its own: not `section_of`)."""
    found = re.search(r'<section aria-labelledby="preview".*?</article>', page, re.DOTALL)
    assert found is not None
    return found.group()


@pytest.mark.parametrize("german", [False, True], ids=["en", "de"])
def test_an_xml_einvoice_shows_its_printable_sheet(
    web_client: TestClient, services: Services, account: Account, german: bool
) -> None:
    if german:
        _in_german(services, account)
    path = _read(web_client, account, services, hybrid=False)
    page = web_client.get(path).text
    sheet = _sheet(page)
    number, gross = VALUES.number, VALUES.gross
    assert '<article class="sheet" aria-labelledby="preview-title">' in sheet
    assert re.search(rf'<h3 id="preview-title" class="sheet-title">[^<]*{number}</h3>', sheet)
    assert f"{_money(gross, german)} EUR" in sheet
    assert f'<a href="{path}/print">' in sheet
    assert '<link rel="stylesheet" href="/app/static/sheet.css">' in page
    assert "<iframe" not in page and "<script" not in page
    heading = "Das Dokument" if german else "The document"
    hint = "keine eigenen Seiten" if german else "has no pages of its own"
    assert f'<h2 id="preview">{heading}</h2>' in sheet and hint in sheet
    assert "/pages/1.png" not in page
    # The printable view is the same sheet, its title the page's heading.
    printed = web_client.get(f"{path}/print").text
    assert re.search(rf'<h1 id="print-title" class="sheet-title">[^<]*{number}</h1>', printed)
    assert f"{_money(gross, german)} EUR" in printed


@pytest.mark.parametrize("german", [False, True], ids=["en", "de"])
def test_a_hybrid_shows_its_first_page_image(
    web_client: TestClient, services: Services, account: Account, german: bool
) -> None:
    if german:
        _in_german(services, account)
    path = _read(web_client, account, services, hybrid=True)
    page = web_client.get(path).text
    assert 'aria-labelledby="evidence"' not in page and 'class="sheet"' not in page
    caption = "Seite 1 des PDF" if german else "Page 1 of the PDF"
    assert f'<img src="{path}/pages/1.png" alt="{caption}">' in page
    assert f"<figcaption>{caption}</figcaption>" in page
    key = path.rsplit("/", 1)[1]
    assert f'href="/app/results/{key}/original"' in _sheetless_preview(page)
    image = web_client.get(f"{path}/pages/1.png")
    assert image.status_code == 200
    assert image.headers["content-type"] == "image/png" and image.content.startswith(PNG)


def _sheetless_preview(page: str) -> str:
    found = re.search(r'<section aria-labelledby="preview".*?</section>', page, re.DOTALL)
    assert found is not None
    return found.group()


def test_another_companys_hybrid_page_image_is_not_found(
    client: TestClient, web_client: TestClient, services: Services, other_account: Account
) -> None:
    path = _read(client, other_account, services, hybrid=True)
    assert web_client.get(path).status_code == 404
    assert web_client.get(f"{path}/pages/1.png").status_code == 404


def test_a_pdf_with_evidence_shows_its_boxes_and_no_second_preview(
    web_client: TestClient, services: Services, account: Account
) -> None:
    result = seed_invoice_with_evidence(services.db, services.store, account.company_id)
    page = web_client.get(f"/app/invoices/{result}").text
    assert 'aria-labelledby="evidence"' in page
    assert 'aria-labelledby="preview"' not in page


def test_a_pdf_read_without_evidence_shows_its_page_without_boxes(
    web_client: TestClient, services: Services, account: Account
) -> None:
    result = seed_invoice_with_evidence(services.db, services.store, account.company_id, False)
    page = web_client.get(f"/app/invoices/{result}").text
    assert f'<img src="/app/invoices/{result}/pages/1.png"' in page
    assert "<rect" not in page

"""The invoice page of a hybrid PDF: the embedded XML beside the visible invoice, field
by field, and a warning when they disagree (issue 18, part 1)."""

from __future__ import annotations

import re
import uuid
from dataclasses import replace
from datetime import date
from decimal import Decimal

from fastapi.testclient import TestClient

from processors.base import DocumentType, FileKind
from processors.einvoice.hybrid_check import check_hybrid
from processors.invoice_model import (
    DirectionDecision,
    Invoice,
    InvoiceType,
    Party,
    PaymentMeans,
    Totals,
)
from processors.results.invoice import EInvoiceValidation, InvoiceResult
from processors.results.source import Source
from storage.db import Database
from storage.models import Result, Upload
from storage.repositories import users
from tests.web.support import Account, section_of, seed_upload

INVOICE = Invoice(
    number="RE-2025-0042",
    invoice_type=InvoiceType.INVOICE,
    type_code="380",
    issue_date=date(2025, 3, 12),
    currency="EUR",
    seller=Party(name="Beispiel Handel GmbH"),
    buyer=Party(name="Muster GmbH"),
    totals=Totals(gross=Decimal("1234.56"), amount_due=Decimal("1234.56")),
    payment_means=(PaymentMeans(type_code="58", payee_iban="DE89370400440532013000"),),
)


def _hybrid_page(client: TestClient, database: Database, account: Account, text: str) -> str:
    decision = DirectionDecision(DocumentType.SUPPLIER_INVOICE, False, False, None, "test")
    validation = EInvoiceValidation("cii", "urn:cen.eu:en16931:2017", "EN16931", None, True)
    source = Source(FileKind.PDF, attachment="factur-x.xml", relationship="Alternative")
    result = InvoiceResult.of(INVOICE, decision, source, validation=validation)
    result = replace(result, hybrid_check=check_hybrid(INVOICE, [text]))
    upload_id = seed_upload(database, account.company_id, status="completed", result_type="invoice")
    with database.session() as session:
        upload = session.get_one(Upload, upload_id)
        session.get_one(Result, upload.result_id).data = result.to_dict()
        session.commit()
    page = client.get(f"/app/invoices/{_result_id(database, upload_id)}")
    assert page.status_code == 200
    return page.text


def _result_id(database: Database, upload_id: uuid.UUID) -> uuid.UUID | None:
    with database.session() as session:
        return session.get_one(Upload, upload_id).result_id


def test_a_mismatch_is_shown_with_both_values(
    web_client: TestClient, database: Database, account: Account
) -> None:
    text = "Rechnungsnummer: RE-2025-0042\nRechnungsdatum: 12.03.2025\nGesamtbetrag: 1.243,56 €"
    section = section_of(_hybrid_page(web_client, database, account, text), "hybrid")

    assert "disagree: Gross amount, Amount due" in section
    row = re.search(r"<th scope=\"row\">Gross amount</th>(.*?)</tr>", section, re.DOTALL)
    assert row is not None
    cells = row.group(1)
    assert "1,234.56 EUR" in cells and "1,243.56 EUR" in cells and "differs" in cells
    assert "not printed" in section  # the IBAN
    assert "2025-03-12" in section  # the English page's date format


def test_the_german_page_shows_german_dates_and_amounts(
    web_client: TestClient, database: Database, account: Account
) -> None:
    """Issue 43: no ISO dates or English decimals in the table of a German page."""
    with database.session() as session:
        users.set_language(session, account.user_id, "de")
        session.commit()
    text = "Rechnungsnummer: RE-2025-0042\nRechnungsdatum: 12.03.2025\nGesamtbetrag: 1.243,56 €"
    section = section_of(_hybrid_page(web_client, database, account, text), "hybrid")

    row = re.search(r"<th scope=\"row\">Bruttobetrag</th>(.*?)</tr>", section, re.DOTALL)
    assert row is not None
    assert "1.234,56 EUR" in row.group(1) and "1.243,56 EUR" in row.group(1)
    assert "12.03.2025" in section
    assert "2025-03-12" not in section and "1234.56" not in section


def test_an_agreeing_hybrid_says_so(
    web_client: TestClient, database: Database, account: Account
) -> None:
    text = (
        "Rechnung RE-2025-0042 vom 12.03.2025\nGesamtbetrag 1.234,56\nIBAN DE89370400440532013000"
    )
    section = section_of(_hybrid_page(web_client, database, account, text), "hybrid")

    assert "agrees with the invoice it shows" in section
    assert "differs" not in section

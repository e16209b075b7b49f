"""Every field carries its evidence (issue 36): the page and box it was read from, `high`,
or `low` with the reason where the reader doubts it, and the invoice then for review."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal

import pytest

from processors.base import ResultType
from processors.pdf_invoices import PdfTextInvoiceProcessor
from processors.pdf_invoices.fields import read_invoice
from processors.pdf_invoices.terms import TERMS_DAYS
from processors.pdf_layout.document import read_layout
from processors.pdf_layout.lines import PageLayout
from processors.results.evidence import EvidenceField
from processors.results.invoice import InvoiceResult
from processors.text_values import find_dates
from testkit.generated_docs import SAMPLE_INVOICE, german_invoice
from tests.processors.conftest import context
from tests.processors.pdf_invoice_layouts import TUNING, Family
from tests.processors.pdf_invoice_pages import Page

MM = 72 / 25.4


def test_each_field_read_carries_its_page_and_box() -> None:
    outcome = PdfTextInvoiceProcessor().process(german_invoice(SAMPLE_INVOICE), context())
    assert outcome.result_type is ResultType.INVOICE
    evidence = {item["field"]: item for item in outcome.data["evidence"]}
    for field in ("number", "issueDate", "totals.net", "totals.gross", "seller.vatId"):
        item = evidence[field]
        assert item["page"] == 1
        assert item["confidence"] == "high"
        box, size = item["box"], item["pageSize"]
        assert 0 <= box["x0"] < box["x1"] <= size["width"]
        assert 0 <= box["y0"] < box["y1"] <= size["height"]
    number = evidence["number"]["box"]
    assert number["y0"] < evidence["totals.gross"]["box"]["y0"]  # the number heads the page


def test_a_guessed_issue_date_is_low_and_the_invoice_for_review() -> None:
    text = (
        "Rechnung\nRechnungsnummer: 2024-17\nDruckdatum 01.03.2024\nStand 02.03.2024\n"
        "Nettobetrag: 100,00 EUR\nUSt. 19 %: 19,00 EUR\nGesamtbetrag: 119,00 EUR\n"
    )
    reading = read_invoice(text)
    assert EvidenceField.ISSUE_DATE in reading.doubts
    assert reading.checks["needsReview"] is True
    assert EvidenceField.GROSS_TOTAL not in reading.doubts


def test_totals_that_do_not_close_are_low_with_the_reason() -> None:
    text = (
        "Rechnung Nr. 2024-17 vom 03.02.2024\nNettobetrag: 100,00 EUR\n"
        "USt. 19 %: 19,00 EUR\nGesamtbetrag: 129,00 EUR\n"
    )
    reading = read_invoice(text)
    assert reading.doubts[EvidenceField.GROSS_TOTAL] == "net + VAT does not equal the gross printed"
    assert EvidenceField.ISSUE_DATE not in reading.doubts


def test_a_second_vat_id_unmarked_makes_the_sellers_low() -> None:
    text = (
        "Rechnung Nr. 2024-17 vom 03.02.2024\nUSt-IdNr.: DE123456789\nUSt-IdNr.: DE987654321\n"
        "Nettobetrag: 100,00 EUR\nUSt. 19 %: 19,00 EUR\nGesamtbetrag: 119,00 EUR\n"
    )
    reading = read_invoice(text)
    assert reading.invoice.seller.vat_id == "DE123456789"
    assert "more than one VAT id" in reading.doubts[EvidenceField.SELLER_VAT_ID]
    assert reading.checks["needsReview"] is True


def test_a_vat_id_marked_as_the_buyers_leaves_the_sellers_sure() -> None:
    text = (
        "Facture N° F-17 du 03/02/2024\nN° TVA client      FR19787878784\n"
        "TVA : FR11999999998 - SIRET : 99999999800010\nWEEE-Reg-Nr.: DE87654321\n"
        "Total HT 100,00 €\nTVA 20 % 20,00 €\nTotal TTC 120,00 €\n"
    )
    reading = read_invoice(text)
    assert (reading.invoice.seller.vat_id, reading.invoice.buyer.vat_id) == (
        "FR11999999998",
        "FR19787878784",
    )
    assert EvidenceField.SELLER_VAT_ID not in reading.doubts


def test_a_total_printed_twice_is_boxed_where_its_label_is() -> None:
    page = Page()
    page.text(20, 12, "Muster GmbH · Hauptstraße 1 · 80331 München", size=7)
    page.text(20, 30, "Rechnung Nr. RE-2024-17 vom 03.02.2024", bold=True)
    page.text(20, 45, "Beratung, pauschal")
    page.right(190, 45, "100,00 EUR")  # the item's line prints the net first
    for index, (label, amount) in enumerate(
        (("Nettobetrag", "100,00 EUR"), ("USt. 19 %", "19,00 EUR"), ("Gesamtbetrag", "119,00 EUR"))
    ):
        page.text(110, 80 + 5 * index, label)
        page.right(190, 80 + 5 * index, amount)
    outcome = PdfTextInvoiceProcessor().process(page.bytes(), context())
    evidence = {item["field"]: item for item in outcome.data["evidence"]}
    net, gross = evidence["totals.net"]["box"], evidence["totals.gross"]["box"]
    assert evidence["totals.net"]["confidence"] == "high"
    assert 70 * MM < net["y0"] < gross["y0"]  # on the Nettobetrag row, not the item's


def _words_in(page: PageLayout, box: dict[str, float]) -> str:
    """The words whose middle lies in `box`, in reading order."""
    inside = [
        word
        for line in page.lines
        for word in line.words
        if box["x0"] - 1 <= (word.box.x0 + word.box.x1) / 2 <= box["x1"] + 1
        and box["y0"] - 1 <= (word.box.y0 + word.box.y1) / 2 <= box["y1"] + 1
    ]
    return " ".join(word.text for word in inside)


def _prints(text: str, value: object, month_first: bool) -> bool:
    if isinstance(value, Decimal):
        return f"{abs(value):.2f}".replace(".", "") in re.sub(r"\D", "", text)
    if isinstance(value, date):
        if value in {d.value for d in find_dates(text, month_first)}:
            return True
        return TERMS_DAYS.search(text) is not None  # computed from the terms printed there
    return re.sub(r"\s", "", str(value)).casefold() in re.sub(r"\s", "", text).casefold()


@pytest.mark.parametrize("family", TUNING, ids=lambda family: family.name)
def test_the_box_of_every_field_prints_its_value(family: Family) -> None:
    """On every tuning family, each field's box holds the words that print its value (a
    due date computed from the terms: the terms), on the page it names."""
    _, pdf, _ = family.document(1)
    outcome = PdfTextInvoiceProcessor().process(pdf, context())
    invoice = outcome.result.invoice if isinstance(outcome.result, InvoiceResult) else None
    assert invoice is not None
    values: dict[str, object] = {
        "number": invoice.number,
        "issueDate": invoice.issue_date,
        "dueDate": invoice.due_date,
        "seller.name": invoice.seller.name,
        "seller.vatId": invoice.seller.vat_id,
        "buyer.name": invoice.buyer.name,
        "totals.net": invoice.totals.net,
        "totals.vat": invoice.totals.vat,
        "totals.gross": invoice.totals.gross,
        "totals.amountDue": invoice.totals.amount_due,
        "paymentMeans.payeeIban": invoice.payment_means[0].payee_iban,
    }
    pages = read_layout(pdf, 5)
    month_first = family.name == "english_credit"
    boxed = {item["field"]: item for item in outcome.data["evidence"]}
    assert {"number", "totals.gross", "totals.amountDue", "dueDate"} <= boxed.keys()
    for name, item in boxed.items():
        if name == "currency":
            continue
        text = _words_in(pages[item["page"] - 1], item["box"])
        assert _prints(text, values[name], month_first), (name, values[name], text)

"""Issue 40, class 5: long reference documents (charts of accounts, price lists, tables
of contents of accounting handbooks) sent as `auto` are other documents, not invoices;
a long invoice with hundreds of item lines and its totals block stays an invoice."""

from __future__ import annotations

from decimal import Decimal

import pytest

from processors.pdf_invoices.classify import REFERENCE_LIST_LINES, classify
from processors.pdf_invoices.processor import joined
from processors.pdf_text import read_pdf_text
from tests.processors.pdf_accuracy import classify_pdf
from tests.processors.pdf_invoice_pages import Page
from tests.processors.pdf_invoice_truth import amount_in
from tests.processors.reference_docs import DEVELOPMENT, Reference
from tests.processors.reference_heldout import HELD_OUT

_SEEDS = (1, 2)


@pytest.mark.parametrize("reference", DEVELOPMENT + HELD_OUT, ids=lambda r: r.name)
def test_a_reference_list_sent_as_auto_is_no_invoice(reference: Reference) -> None:
    for seed in _SEEDS:
        outcome = classify_pdf(reference.name, reference.document(seed), invoice=False)
        assert not outcome.taken_for_invoice, outcome.kind


@pytest.mark.parametrize("reference", DEVELOPMENT, ids=lambda r: r.name)
def test_the_reference_list_is_named_in_the_signals(reference: Reference) -> None:
    text = read_pdf_text(reference.document(1), "tesseract", 5)
    classification = classify(joined(text), "\n".join(text.layout))
    assert "other_document:reference_list" in classification.signals


def _long_invoice(items: int) -> bytes:
    """A German invoice of `items` numbered item lines over several pages, then its
    totals block (net + VAT = gross)."""
    page = Page(size=8.5)
    page.text(20, 15, "Bürobedarf Schreiber GmbH, Lindenstraße 12, 50667 Köln", size=8)
    page.lines(20, 30, ["Kanzlei Weber & Partner", "Marktplatz 3", "80331 München"])
    page.text(20, 55, "Rechnung Nr. R-2025-0815", bold=True, size=13)
    page.text(130, 55, "Rechnungsdatum: 14.03.2025")
    y, net = 66.0, Decimal(0)
    for index in range(1, items + 1):
        if y > 275:
            page.pdf.add_page()
            y = 20
        price = Decimal(100 + index * 7) / 100
        net += price
        page.text(20, y, str(index))
        page.text(30, y, f"Artikel {1000 + index} Kopierpapier A4")
        page.right(185, y, amount_in("de", price))
        y += 4.6
    vat = (net * Decimal("0.19")).quantize(Decimal("0.01"))
    for label, value in (
        ("Nettobetrag", net),
        ("zzgl. 19 % USt.", vat),
        ("Gesamtbetrag", net + vat),
    ):
        page.text(120, y + 4, label, bold=True)
        page.right(185, y + 4, amount_in("de", value))
        y += 5
    page.text(20, 285, "USt-IdNr. DE123456789  IBAN DE89 3704 0044 0532 0130 00", size=7)
    return page.bytes()


def test_a_long_invoice_with_its_totals_stays_an_invoice() -> None:
    outcome = classify_pdf("long invoice", _long_invoice(4 * REFERENCE_LIST_LINES // 2), True)
    assert outcome.taken_for_invoice, outcome.kind

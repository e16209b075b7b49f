"""Receipts are invoices, templates are invoices flagged as templates, charts of accounts
and price lists are other documents (docs/pdf_text.md, "Receipts, templates and
lookalikes"). Every layout as a text-layer PDF; a few scanned, read by OCR. The larger
measurement is scripts/corpus_report_lookalikes.py (`make corpus-report`)."""

from __future__ import annotations

import pytest

from processors.base import DocumentType, ResultType
from processors.pdf_invoices.title_and_template import placeholders, titled
from processors.pipeline import read_document
from testkit.lookalike_docs import (
    EXPECTED,
    KINDS,
    Layout,
    bracket_template,
    restaurant_bill,
    till_receipt,
)
from testkit.lookalike_numbers import german_price_list
from tests.processors.conftest import context
from tests.processors.scans import GRADE, scan
from tests.processors.test_ocr import needs_tesseract

CASES = [(kind, layout) for kind, layouts in KINDS.items() for layout in layouts]


def _read(pdf: bytes) -> tuple[str, dict[str, object]]:
    outcome = read_document(pdf, context(DocumentType.AUTO))
    checks = outcome.data.get("checks", {}) if outcome.result_type is ResultType.INVOICE else {}
    return str(outcome.result_type), dict(checks)


@pytest.mark.parametrize("seed", [4, 5])
@pytest.mark.parametrize(("kind", "layout"), CASES, ids=[f"{k}-{f.__name__}" for k, f in CASES])
def test_text_layer_kind(kind: str, layout: Layout, seed: int) -> None:
    result_type, checks = _read(layout(seed))
    assert result_type == EXPECTED[kind]
    if result_type == "invoice":
        assert checks["template"] is (kind == "template")


def test_template_names_its_placeholders_and_asks_for_review() -> None:
    _, checks = _read(bracket_template(1))
    assert checks["template"] is True and checks["needsReview"] is True
    assert checks["placeholders"][:2] == ["[Firmenname]", "[Straße Nr.]"]


def test_receipt_is_read_with_its_totals() -> None:
    outcome = read_document(restaurant_bill(2), context(DocumentType.AUTO))
    assert outcome.data["checks"]["totals"] == "passed"
    assert outcome.data["invoice"]["currency"] == "EUR"


@pytest.mark.parametrize(
    ("cell", "heading"),
    [
        ("Rechnung", True),
        ("TAX INVOICE", True),
        ("Payment receipt", True),
        ("Rechnung Nr. 2024-17 vom 03.02.2024 für Ihre Bestellung beim Versand", True),
        ("Lieferung gegen Rechnung, zahlbar innerhalb von 14 Tagen ohne Abzug.", False),
        ("Invoices are payable within 30 days of the invoice date.", False),
        ("Please ask for an invoice at check-out", False),
    ],
)
def test_title_counts_where_it_heads_a_cell(cell: str, heading: bool) -> None:
    assert titled([cell]) is heading


def test_bracketed_units_are_no_placeholders() -> None:
    assert placeholders("Preis [EUR]  Menge [kg]  Zeit [Std.]") == []
    assert placeholders("Kunde: [Name des Kunden]  Datum: TT.MM.JJJJ  Nr. RE-XXXX") == [
        "[Name des Kunden]",
        "TT.MM.JJJJ",
        "RE-XXXX",
    ]


@needs_tesseract
@pytest.mark.parametrize(
    ("layout", "wanted"),
    [(till_receipt, "invoice"), (german_price_list, "other_document")],
    ids=["till_receipt", "price_list"],
)
def test_scanned_kind(layout: Layout, wanted: str) -> None:
    result_type, checks = _read(scan(layout(1), GRADE["g1-office"]))
    assert result_type == wanted
    assert checks.get("template", False) is False

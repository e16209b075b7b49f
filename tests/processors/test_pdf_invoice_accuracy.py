"""PDF invoices read field by field against a known invoice (issue 36; docs/pdf_invoices.md,
"Measurement"). The floors are the numbers measured when the measurement was written:
no regression, not the targets. Raise them as the reader gets better."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from processors.base import DocumentType, FileKind, Outcome, ResultType
from processors.einvoice.pdf_attachment import find_embedded_invoice
from processors.invoice_model import (
    Invoice,
    InvoiceType,
    Party,
    PaymentMeans,
    Totals,
    invoice_direction,
)
from processors.json_fields import from_json
from processors.results.invoice import InvoiceChecks, InvoiceResult
from processors.results.source import ReadMethod, Source
from tests.processors.pdf_accuracy import (
    COMPANY,
    DocumentScore,
    Tally,
    Verdict,
    low_fields,
    measure_pdf,
    score_document,
)
from tests.processors.stripped_hybrids import Stripped, corpus_stripped

# Measured on main e280acd (19 corpus hybrids, 212 values): exact values per field.
CORPUS_EXACT_FLOORS = {
    "BT-1": 11, "BT-2": 10, "BT-5": 13, "BT-27": 10, "BT-31": 9, "BT-44": 6,
    "BT-109": 10, "BT-110": 8, "BT-112": 8, "BT-115": 8, "BT-84": 8, "BT-9": 8,
}  # fmt: skip
CORPUS_TAKEN_FLOOR = 13
CORPUS_UNFLAGGED_CEILING = 4


@pytest.fixture(scope="module")
def hybrids(corpus: Path) -> list[Stripped]:
    return list(corpus_stripped(corpus))


@pytest.fixture(scope="module")
def corpus_tally(hybrids: list[Stripped]) -> Tally:
    return Tally([measure_pdf(s.name, s.pdf, s.expected) for s in hybrids])


@pytest.fixture(scope="module")
def corpus() -> Path:
    from tests.processors.conftest import CORPUS, MANIFEST

    if not MANIFEST.is_file():
        pytest.skip(f"shared corpus not found at {CORPUS}")
    return CORPUS


def test_corpus_hybrids_lose_their_xml_and_keep_their_truth(hybrids: list[Stripped]) -> None:
    assert len(hybrids) == 19
    assert all(find_embedded_invoice(h.pdf) is None for h in hybrids)
    assert all(h.expected.number and h.expected.totals.gross is not None for h in hybrids)


def test_corpus_hybrids_no_field_regresses(corpus_tally: Tally) -> None:
    measured = {bt: corpus_tally.count(Verdict.EXACT, bt) for bt in CORPUS_EXACT_FLOORS}
    assert all(measured[bt] >= floor for bt, floor in CORPUS_EXACT_FLOORS.items()), measured
    assert corpus_tally.taken >= CORPUS_TAKEN_FLOOR
    assert corpus_tally.unflagged() <= CORPUS_UNFLAGGED_CEILING


# --- the comparison itself -------------------------------------------------------------

EXPECTED = Invoice(
    number="RE-2024 001",
    invoice_type=InvoiceType.INVOICE,
    type_code="380",
    issue_date=date(2024, 3, 1),
    currency="EUR",
    seller=Party(name="Muster  GmbH", vat_id="DE 123 456 789"),
    buyer=Party(name=None),
    totals=Totals(net=Decimal("100"), vat=Decimal("19.0"), gross=Decimal("119.00")),
    payment_means=(PaymentMeans(payee_iban="DE02 1203 0000 0000 2020 51"),),
)


def _scored(read: Invoice, checks: dict[str, Any] | None = None) -> DocumentScore:
    stored = {
        "totals": "passed",
        "totalsExplained": "",
        "vatBreakdownRows": 0,
        "confidence": "high",
        "needsReview": False,
        **(checks or {}),
    }
    result = InvoiceResult.of(
        read,
        invoice_direction(read, COMPANY, DocumentType.SUPPLIER_INVOICE),
        Source(FileKind.PDF, ReadMethod.TEXT),
        checks=from_json(InvoiceChecks, stored),
    )
    return score_document("case", EXPECTED, Outcome(result))


def test_values_compare_normalized_and_absent_fields_do_not_count() -> None:
    read = replace(
        EXPECTED,
        number="re-2024   001",
        seller=Party(name="MUSTER GMBH", vat_id="DE123456789"),
        totals=Totals(net=Decimal("100.00"), vat=Decimal("19"), gross=Decimal("119")),
        payment_means=(PaymentMeans(payee_iban="DE02120300000000202051"),),
    )
    score = _scored(read)
    assert {s.field.bt for s in score.fields} == {
        "BT-1", "BT-2", "BT-5", "BT-27", "BT-31", "BT-109", "BT-110", "BT-112", "BT-84",
    }  # fmt: skip
    assert score.of(Verdict.WRONG) == score.of(Verdict.MISSING) == []


def test_a_wrong_value_is_flagged_by_needs_review_or_a_low_field() -> None:
    read = replace(EXPECTED, totals=Totals(net=Decimal(100), vat=Decimal(19)), currency="USD")
    quiet = _scored(read)
    assert [(s.field.bt, s.verdict, s.flagged) for s in quiet.fields if s.verdict != "exact"] == [
        ("BT-5", Verdict.WRONG, False),
        ("BT-112", Verdict.MISSING, False),
    ]
    assert all(s.flagged for s in _scored(read, {"needsReview": True}).fields)
    assert low_fields({"evidence": {"currency": {"confidence": "low"}}}) == {"currency"}
    assert low_fields({"invoice": {"evidence": [{"field": "BT-112", "confidence": "LOW"}]}}) == {
        "totals.gross"
    }
    assert low_fields({"evidence": "not yet"}) == frozenset()


def test_a_document_not_taken_for_an_invoice_misses_every_field() -> None:
    score = score_document("case", EXPECTED, "unreadable_document")
    assert not score.taken_for_invoice
    assert {s.verdict for s in score.fields} == {Verdict.MISSING}
    assert str(ResultType.INVOICE) == "invoice"

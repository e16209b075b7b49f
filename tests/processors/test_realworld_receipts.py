"""Issue 40, class 4: receipts from a camera or a phone scanner. Where OCR finds a total
and a date the receipt is an invoice marked for review (below the quality gate: every
field `low`); a page where nothing of that is found stays `unreadable_document`. The
preprocessing (`processors/ocr_preprocess.py`) cuts the paper out of a photo and reads a
narrow till roll as one column."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from PIL import Image

from processors.base import DocumentType, FailureCode, ProcessingError
from processors.ocr_preprocess import narrow, paper
from processors.pdf_invoices.classify import classify
from processors.pdf_text import read_pdf_text
from processors.pipeline import read_document
from testkit.generated_docs import SAMPLE_INVOICE, german_invoice
from testkit.receipt_docs import CAPTURES, HELD_OUT, Receipt, bewirtung, photograph
from tests.processors.conftest import context
from tests.processors.scans import GRADE, scan
from tests.processors.test_ocr import needs_tesseract

CAPTURE = {capture.name: capture for capture in CAPTURES}


def _read(pdf: bytes, document_type: DocumentType = DocumentType.AUTO) -> dict[str, Any]:
    outcome = read_document(pdf, context(document_type))
    assert str(outcome.result_type) == "invoice", outcome.data
    return dict(outcome.data)


def _assert_receipt(data: dict[str, Any], receipt: Receipt) -> None:
    invoice = data["invoice"]
    assert Decimal(invoice["totals"]["gross"]) == receipt.gross
    assert invoice["issueDate"] == receipt.issue_date.isoformat()
    assert data["checks"]["needsReview"] is True


@needs_tesseract
def test_a_bewirtungsbeleg_from_a_scanner_is_an_invoice() -> None:
    """No title and no number label, and Tesseract's page layout used to drop its column
    of amounts: it was filed as an other document."""
    receipt = bewirtung("bewirtung:1")
    _assert_receipt(_read(photograph(receipt, CAPTURE["scanner"], 1)), receipt)


@needs_tesseract
def test_a_faded_receipt_photographed_on_a_table_is_an_invoice() -> None:
    """On the table OCR read no word before the paper was cut out."""
    receipt = bewirtung("bewirtung:1")
    data = _read(photograph(receipt, CAPTURE["faded"], 1), DocumentType.SUPPLIER_INVOICE)
    _assert_receipt(data, receipt)
    assert data["source"]["ocr"]["meanConfidence"] < 90


@needs_tesseract
def test_a_page_below_the_gate_is_kept_only_when_the_reader_accepts_it() -> None:
    pdf = scan(german_invoice(SAMPLE_INVOICE), GRADE["g9-bad"])
    with pytest.raises(ProcessingError) as raised:
        read_pdf_text(pdf, "tesseract", 5)
    assert raised.value.code is FailureCode.UNREADABLE_DOCUMENT
    kept = read_pdf_text(pdf, "tesseract", 5, keep_below_gate=lambda text: True)
    assert kept.ocr is not None and not kept.ocr.trusted


@needs_tesseract
@pytest.mark.parametrize("kind", HELD_OUT, ids=lambda kind: kind.name)
def test_held_out_receipts_from_a_phone(kind: Any) -> None:
    receipt = kind.make(f"{kind.name}:1")
    _assert_receipt(_read(photograph(receipt, CAPTURE["phone"], 1)), receipt)


@needs_tesseract
def test_a_receipt_with_neither_total_nor_date_legible_stays_unreadable() -> None:
    lines = ("%&/ ()=?", "~~ ::: ;;;", "_-_-_-_-_") * 6
    blur = Receipt("smudge", lines, bewirtung("x").issue_date, Decimal(0))
    pdf = photograph(blur, CAPTURE["faded"], 1)
    with pytest.raises(ProcessingError) as raised:
        read_document(pdf, context(DocumentType.SUPPLIER_INVOICE))
    assert raised.value.code is FailureCode.UNREADABLE_DOCUMENT


def test_the_paper_is_cut_out_of_a_photo_on_a_table() -> None:
    page = Image.new("L", (800, 1100), 90)
    page.paste(Image.new("L", (300, 600), 210), (250, 200))
    found = paper(page)
    assert found is not None
    cut, (left, top) = found
    assert abs(left - 250) <= 8 and abs(top - 200) <= 8
    assert abs(cut.width - 300) <= 8 and abs(cut.height - 600) <= 8
    assert narrow(cut)
    assert paper(Image.new("L", (800, 1100), 230)) is None


def test_a_short_page_with_total_vat_and_date_is_a_receipt() -> None:
    text = "\n".join(bewirtung("bewirtung:3").lines)
    classification = classify(text)
    assert "receipt" in classification.signals
    assert classification.is_invoice

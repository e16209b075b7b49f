"""OCR of scanned PDFs: generated scans read field by field, the quality gate, PDFs with
nothing to read, a missing OCR engine, obfuscated text layers, and the pure parts
(text quality, Tesseract's TSV turned into rows)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from processors.bank_statement import BankStatementProcessor
from processors.base import (
    CompanyProfile,
    DocumentType,
    FailureCode,
    ProcessingContext,
    ProcessingError,
    ResultType,
)
from processors.ocr import OcrWord, layout_text, ocr_available, parse_tsv
from processors.ocr_gate import MIN_MEAN_CONFIDENCE
from processors.pdf import open_pdf
from processors.pdf_invoices.processor import PdfTextInvoiceProcessor
from processors.pdf_text import read_pdf_text
from processors.pipeline import read_document
from processors.text_quality import measure
from processors.text_values import page_texts
from tests.processors.generated_docs import (
    SAMPLE_INVOICE,
    SAMPLE_STATEMENT,
    InvoiceSpec,
    StatementSpec,
    english_invoice,
    english_statement,
    german_invoice,
    german_statement,
)
from tests.processors.scans import GRADE, obfuscate_text_layer, scan, stamped_scan
from tests.processors.test_pdf import blank_pdf

MISSING_ENGINE = "/nonexistent/bin/tesseract"
needs_tesseract = pytest.mark.skipif(
    ocr_available() is not None, reason=f"{ocr_available()} (make test installs it)"
)
INVOICE_LAYOUTS = {"german": german_invoice, "english": english_invoice}
STATEMENT_LAYOUTS = {"german": german_statement, "english": english_statement}
LEGIBLE = ("g0-clean", "g2-fair")
ILLEGIBLE = ("g9-bad", "g11-illegible")


def context(document_type: DocumentType, ocr_command: str = "tesseract") -> ProcessingContext:
    return ProcessingContext(document_type, "scan.pdf", CompanyProfile("Nobody GmbH"), ocr_command)


def read_invoice(pdf: bytes, document_type: DocumentType = DocumentType.AUTO) -> dict[str, Any]:
    outcome = PdfTextInvoiceProcessor().process(pdf, context(document_type))
    assert outcome.result_type is ResultType.INVOICE
    return dict(outcome.data)


def read_statement(pdf: bytes) -> dict[str, Any]:
    outcome = BankStatementProcessor().process(pdf, context(DocumentType.BANK_STATEMENT))
    assert outcome.result_type is ResultType.BANK_STATEMENT
    return dict(outcome.data)


def failure(pdf: bytes, document_type: DocumentType, ocr_command: str = "tesseract") -> Any:
    with pytest.raises(ProcessingError) as raised:
        read_document(pdf, context(document_type, ocr_command))
    return raised.value


def assert_invoice(data: dict[str, Any], spec: InvoiceSpec) -> None:
    invoice = data["invoice"]
    assert invoice["number"] == spec.number
    assert invoice["issueDate"] == spec.issue_date.isoformat()
    assert invoice["dueDate"] == spec.due_date.isoformat()
    assert invoice["currency"] == spec.currency
    assert invoice["seller"]["vatId"] == spec.seller_vat_id
    assert Decimal(invoice["totals"]["net"]) == spec.net
    assert Decimal(invoice["totals"]["vat"]) == spec.vat
    assert Decimal(invoice["totals"]["gross"]) == spec.gross
    assert invoice["paymentMeans"][0]["payeeIban"] == spec.iban
    assert data["checks"]["totals"] == "passed"


def assert_statement(data: dict[str, Any], spec: StatementSpec) -> None:
    statement = data["statement"]
    assert statement["accountIban"] == spec.iban
    assert Decimal(statement["openingBalance"]) == spec.opening
    assert Decimal(statement["closingBalance"]) == spec.closing
    assert data["reconciled"] is True
    read = [(t["bookingDate"], Decimal(t["amount"])) for t in data["transactions"]]
    assert read == [(b.booking.isoformat(), b.amount) for b in spec.bookings]


# --- scans read field by field --------------------------------------------------------


@needs_tesseract
@pytest.mark.parametrize("grade", LEGIBLE)
@pytest.mark.parametrize("layout", INVOICE_LAYOUTS)
def test_scanned_invoice_fields(layout: str, grade: str) -> None:
    data = read_invoice(scan(INVOICE_LAYOUTS[layout](SAMPLE_INVOICE), GRADE[grade]))
    assert_invoice(data, SAMPLE_INVOICE)
    source = data["source"]
    assert source["method"] == "ocr"
    assert source["ocr"]["pages"] == 1
    assert source["ocr"]["meanConfidence"] >= MIN_MEAN_CONFIDENCE


@needs_tesseract
@pytest.mark.parametrize("grade", LEGIBLE)
@pytest.mark.parametrize("layout", STATEMENT_LAYOUTS)
def test_scanned_statement_fields(layout: str, grade: str) -> None:
    data = read_statement(scan(STATEMENT_LAYOUTS[layout](SAMPLE_STATEMENT), GRADE[grade]))
    assert_statement(data, SAMPLE_STATEMENT)
    assert data["source"]["method"] == "ocr"


@needs_tesseract
def test_obfuscated_text_layer_is_read_by_ocr() -> None:
    pdf = obfuscate_text_layer(german_invoice(SAMPLE_INVOICE))
    garbage = page_texts(open_pdf(pdf), 1, layout=False)[0]
    assert "Rechnung" not in garbage and measure(garbage).share < 0.5
    data = read_invoice(pdf)
    assert_invoice(data, SAMPLE_INVOICE)
    assert data["source"]["method"] == "ocr"


@needs_tesseract
def test_scan_with_a_stamped_text_line_is_read_by_ocr() -> None:
    pdf = stamped_scan(german_invoice(SAMPLE_INVOICE), GRADE["g0-clean"], "Seite 1 von 1")
    data = read_invoice(pdf)
    assert_invoice(data, SAMPLE_INVOICE)
    assert data["source"]["method"] == "ocr"


def test_text_layer_needs_no_ocr_engine() -> None:
    """A PDF with a text layer is read without Tesseract, even when it is missing."""
    outcome = PdfTextInvoiceProcessor().process(
        german_invoice(SAMPLE_INVOICE), context(DocumentType.AUTO, MISSING_ENGINE)
    )
    assert outcome.data["source"] == {"container": "pdf", "method": "text"}
    assert_invoice(dict(outcome.data), SAMPLE_INVOICE)


@needs_tesseract
def test_pages_over_the_ocr_limit_are_counted_not_read() -> None:
    two_pages = scan(german_invoice(SAMPLE_INVOICE), GRADE["g0-clean"])
    doubled = _concatenate(two_pages, two_pages)
    text = read_pdf_text(doubled, "tesseract", max_pages=5, max_ocr_pages=1)
    assert text.ocr is not None and text.ocr.pages == 1
    assert text.skipped_ocr_pages == 1
    source = text.source()
    assert source.ocr is not None and source.ocr.pages_not_read == 1
    assert "Rechnungsnummer" in text.layout[0] and text.layout[1] == ""


PASS_LOGGING_TESSERACT = """#!/bin/sh
[ "$2" = stdout ] && echo "$4" >> "{log}"
exec tesseract "$@"
"""


@needs_tesseract
@pytest.mark.parametrize(
    ("second_page", "passes"),
    [
        (german_statement, ["deu+eng", "deu", "deu"]),
        (english_statement, ["deu+eng", "deu", "deu", "deu+eng"]),
    ],
    ids=["german", "english"],
)
def test_a_page_after_a_german_one_is_read_once_unless_it_reads_otherwise(
    tmp_path: Any, second_page: Any, passes: list[str]
) -> None:
    """The first page decides with both models and is read again with the German model
    alone; the next is read with the German model once, or, when that reading is English,
    decided again (docs/ocr.md)."""
    log, command = tmp_path / "passes.log", tmp_path / "tesseract"
    command.write_text(PASS_LOGGING_TESSERACT.format(log=log))
    command.chmod(0o755)
    first = scan(german_statement(SAMPLE_STATEMENT), GRADE["g0-clean"])
    second = scan(second_page(SAMPLE_STATEMENT), GRADE["g0-clean"])
    text = read_pdf_text(_concatenate(first, second), str(command), max_pages=5)
    assert log.read_text().split() == passes
    assert "Kontoauszug" in text.plain[0]
    assert ("Kontoauszug" in text.plain[1]) is (second_page is german_statement)


def _concatenate(*pdfs: bytes) -> bytes:
    import io

    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for pdf in pdfs:
        writer.append(PdfReader(io.BytesIO(pdf)))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


# --- failing honestly -----------------------------------------------------------------


@needs_tesseract
@pytest.mark.parametrize("grade", ILLEGIBLE)
@pytest.mark.parametrize(
    "document_type",
    [DocumentType.AUTO, DocumentType.SUPPLIER_INVOICE, DocumentType.BANK_STATEMENT],
)
def test_illegible_scan_is_unreadable(grade: str, document_type: DocumentType) -> None:
    make = german_statement if document_type is DocumentType.BANK_STATEMENT else german_invoice
    spec: Any = SAMPLE_STATEMENT if document_type is DocumentType.BANK_STATEMENT else SAMPLE_INVOICE
    error = failure(scan(make(spec), GRADE[grade]), document_type)
    assert error.code is FailureCode.UNREADABLE_DOCUMENT
    assert "not legible" in error.message
    ocr = error.details["ocr"]
    assert ocr["page"] == 1
    assert ocr["meanConfidence"] < MIN_MEAN_CONFIDENCE or ocr["recognisedRate"] < 0.7


@pytest.mark.parametrize(
    "document_type",
    [DocumentType.SUPPLIER_INVOICE, DocumentType.CUSTOMER_INVOICE, DocumentType.BANK_STATEMENT],
)
def test_pdf_with_no_text_and_nothing_drawn_is_unreadable(document_type: DocumentType) -> None:
    error = failure(blank_pdf(pages=2), document_type, MISSING_ENGINE)
    assert error.code is FailureCode.UNREADABLE_DOCUMENT
    assert "no text" in error.message


def test_blank_pdf_sent_as_auto_is_an_other_document() -> None:
    """Nothing says it is an invoice and nothing can be read: filed, as before OCR."""
    outcome = read_document(blank_pdf(), context(DocumentType.AUTO, MISSING_ENGINE))
    assert outcome.result_type is ResultType.OTHER_DOCUMENT


@pytest.mark.parametrize(
    "document_type", [DocumentType.AUTO, DocumentType.CUSTOMER_INVOICE, DocumentType.BANK_STATEMENT]
)
def test_scan_without_ocr_engine_says_so(document_type: DocumentType) -> None:
    pdf = scan(german_invoice(SAMPLE_INVOICE), GRADE["g0-clean"])
    error = failure(pdf, document_type, MISSING_ENGINE)
    assert error.code is FailureCode.PROCESSING_FAILED
    assert "OCR" in error.message and "not installed" in error.message
    assert MISSING_ENGINE in error.message
    assert error.details == {"ocr": {"engine": "missing", "command": MISSING_ENGINE}}


def test_ocr_available_names_what_is_missing() -> None:
    problem = ocr_available(MISSING_ENGINE)
    assert problem is not None
    assert "not installed" in problem and MISSING_ENGINE in problem
    assert "tesseract-ocr-deu" in problem


@needs_tesseract
def test_ocr_available_with_tesseract_installed() -> None:
    assert ocr_available("tesseract") is None


# --- pure parts -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "share"),
    [
        ("Rechnung Nr. RE-2024-0815 vom 09.01.2015, Gesamtbetrag 1.234,56 EUR", 1.0),
        ("Invoice No. INV/2023/03/0008 Total $ 279.84 USt-IdNr.: DE123456789", 1.0),
        ("DatenvonZUGFeRD-Rechnungen Währung:EUR SELLER_NAME GmbH", 1.0),
        ("↗⇄∰ ⊕⊗⇶ ⇷⇸ ⇹⇺⇻", 0.0),
        ("tHeSe xzqwrtp bcdfgh", 0.0),
    ],
)
def test_text_quality(text: str, share: float) -> None:
    assert measure(text).share == share


def test_single_symbols_are_neutral() -> None:
    assert measure("- | & € Summe").tokens == 1


TSV = (
    "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"
    "1\t1\t0\t0\t0\t0\t0\t0\t2000\t3000\t-1\t\n"
    "5\t1\t1\t1\t1\t1\t100\t1000\t200\t30\t96.5\tNettobetrag\n"
    "5\t1\t2\t1\t1\t1\t1500\t1000\t120\t30\t91.0\t\u20141.234,56\n"
    "5\t1\t2\t1\t1\t2\t1630\t1000\t60\t30\t-1\t\n"
)


def test_tsv_words_with_confidences() -> None:
    words = parse_tsv(TSV)
    assert [(w.text, w.confidence) for w in words] == [("Nettobetrag", 96.5), ("-1.234,56", 91.0)]
    assert words[1].line == (2, 1, 1)


def _row(y: int, slope: float, block: int, texts: list[tuple[int, str]]) -> list[OcrWord]:
    """Words of one printed row at x positions, on a page turned by `slope` (dy/dx)."""
    return [
        OcrWord(text, 95.0, x, round(y + slope * x), 20 * len(text), 30, (block, 1, y))
        for x, text in texts
    ]


def test_layout_puts_columns_of_a_skewed_page_back_on_their_rows() -> None:
    """Tesseract reads the label column and the amount column as separate blocks; on
    a page turned by two degrees the amount sits a row lower at the right margin."""
    slope = 0.035
    words = [
        *_row(1000, slope, 1, [(100, "Nettobetrag:"), (380, "1.234,50"), (600, "EUR")]),
        *_row(1070, slope, 1, [(100, "USt."), (200, "19%"), (300, "auf"), (380, "1.234,50")]),
        *_row(1140, slope, 1, [(100, "Gesamtbetrag:"), (400, "inkl."), (520, "USt.")]),
        *_row(1000, slope, 2, [(1500, "Netto")]),
        *_row(1070, slope, 2, [(1500, "234,56")]),
        *_row(1140, slope, 2, [(1500, "1.469,06")]),
    ]
    lines = layout_text(tuple(words)).splitlines()
    assert len(lines) == 3
    assert lines[1].split()[-1] == "234,56"
    assert lines[2].startswith("Gesamtbetrag: inkl. USt.") and lines[2].endswith("1.469,06")

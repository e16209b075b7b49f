"""Invoices printed as PDF without structured data: read from the text layer.

`PdfTextInvoiceProcessor` scores below the e-invoice processor and above the fallback,
so it sees PDFs the e-invoice processor declined. It classifies the text (see
docs/pdf_text.md for the score), declines non-invoices (they end as other documents) and
extracts what it can into the normalized `Invoice`. Totals are cross-checked
(net + VAT = gross); a failed or incomplete check is reported in `checks`, never hidden.
"""

from __future__ import annotations

from dataclasses import replace

from processors.base import (
    Declined,
    DocumentType,
    FailureCode,
    FileKind,
    Outcome,
    ProcessingContext,
    ProcessingError,
)
from processors.invoice_model import PaymentMeans, invoice_direction
from processors.json_fields import from_json
from processors.ocr import DEFAULT_COMMAND
from processors.ocr_gate import MIN_MEAN_CONFIDENCE
from processors.pdf_invoices.classify import (
    INVOICE_THRESHOLD,
    Classification,
    classify,
    template_checks,
    total_and_date,
)
from processors.pdf_invoices.evidence import field_evidence
from processors.pdf_invoices.fields import Reading, extract_invoice, read_invoice
from processors.pdf_invoices.letterhead import iban_in_column
from processors.pdf_invoices.party_choice import with_parties
from processors.pdf_layout.lines import PageLayout
from processors.pdf_text import PdfText, read_pdf_text
from processors.results.evidence import EvidenceField
from processors.results.invoice import InvoiceChecks, InvoiceResult, TextClassification
from processors.text_values import forget_lines

__all__ = [
    "INVOICE_THRESHOLD",
    "MAX_PAGES",
    "PDF_TEXT_INVOICE_SCORE",
    "Classification",
    "PdfTextInvoiceProcessor",
    "classify",
    "extract_invoice",
    "joined",
    "read_text",
]

PDF_TEXT_INVOICE_SCORE = 20
"""Below `EInvoiceProcessor` (40): a PDF with embedded XML is read from the XML."""
MAX_PAGES = 5
_READ_TYPES = (DocumentType.AUTO, DocumentType.SUPPLIER_INVOICE, DocumentType.CUSTOMER_INVOICE)


class PdfTextInvoiceProcessor:
    name = "pdf_text_invoice"

    def score(self, kind: FileKind, head: bytes, context: ProcessingContext) -> int:
        if kind is FileKind.PDF and context.document_type in _READ_TYPES:
            return PDF_TEXT_INVOICE_SCORE
        return 0

    def process(self, data: bytes, context: ProcessingContext) -> Outcome:
        forget_lines()
        pdf_text = read_pdf_text(
            data, context.ocr_command, MAX_PAGES, with_words=True, keep_below_gate=total_and_date
        )
        if pdf_text.empty:
            if context.document_type is DocumentType.AUTO:
                raise Declined("nothing to read (no text, nothing drawn): an other document")
            raise ProcessingError(
                FailureCode.UNREADABLE_DOCUMENT,
                "The PDF has no text and nothing legible drawn on its pages to read the "
                "invoice from. Upload the invoice itself, or an e-invoice.",
            )
        text = joined(pdf_text)
        classification = classify(text, "\n".join(pdf_text.layout))
        if not classification.is_invoice:
            raise Declined(f"not an invoice (score {classification.score})")
        reading = read_invoice(text, classification.credit_note)
        pages = _pages(pdf_text)
        reading = with_parties(reading, pages, text)
        reading = _with_column_iban(reading, pages)
        reading = _below_gate_doubts(reading, pdf_text)
        invoice, checks = reading.invoice, reading.checks
        if pdf_text.ocr is not None and not pdf_text.ocr.trusted:
            checks = {**checks, "ocr": "low_confidence", "confidence": "low", "needsReview": True}
        checks = {**checks, **template_checks(classification)}
        return Outcome(
            InvoiceResult.of(
                invoice,
                invoice_direction(invoice, context.company, context.document_type),
                pdf_text.source(),
                classification=TextClassification(classification.score, classification.signals),
                # The checks are put together as a mapping by the readers of the totals and
                # the template; their keys are the stored ones.
                checks=from_json(InvoiceChecks, checks),
                evidence=field_evidence(pages, reading.invoice, reading.doubts, reading.sources)
                or None,
                text=text,
            )
        )


def _pages(pdf_text: PdfText) -> tuple[PageLayout, ...]:
    """The words of the first pages with their boxes, from the text page the text layer
    loaded (or from OCR): about 3 ms a document, where a second PDFium pass took
    0.3-0.7 s under load (docs/pdf_invoices.md)."""
    return tuple(PageLayout.of(words) for words in pdf_text.words or ())


def _with_column_iban(reading: Reading, pages: tuple[PageLayout, ...]) -> Reading:
    """The IBAN wrapped in its table cell where the text found none."""
    invoice = reading.invoice
    if invoice.payment_means and invoice.payment_means[0].payee_iban:
        return reading
    iban = iban_in_column(pages)
    if iban is None:
        return reading
    means = invoice.payment_means[0] if invoice.payment_means else PaymentMeans()
    paid = replace(means, type_code="58", payee_iban=iban)
    return replace(
        reading, invoice=replace(invoice, payment_means=(paid, *invoice.payment_means[1:]))
    )


def _below_gate_doubts(reading: Reading, pdf_text: PdfText) -> Reading:
    """A scan kept below the OCR quality gate for its total and date (a receipt): every
    field is doubted, with the page's mean confidence."""
    ocr = pdf_text.ocr
    if ocr is None or ocr.mean_confidence >= MIN_MEAN_CONFIDENCE:
        return reading
    reason = f"read by OCR with a mean confidence of {ocr.mean_confidence:.0f}/100"
    return replace(reading, doubts={**dict.fromkeys(EvidenceField, reason), **reading.doubts})


def read_text(data: bytes, ocr_command: str = DEFAULT_COMMAND) -> str:
    """The text the invoice is read from (text layer, or OCR for scanned pages)."""
    return joined(read_pdf_text(data, ocr_command, MAX_PAGES))


def joined(pdf_text: PdfText) -> str:
    """Plain text of the first pages, then the layout text (columns kept on one line),
    so label/value pairs can be found in whichever order the PDF draws them."""
    return "\n".join(pdf_text.plain) + "\n" + "\n".join(pdf_text.layout)

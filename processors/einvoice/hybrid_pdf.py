"""The hybrid check of a PDF with an embedded e-invoice: its visible text read, then
compared with the invoice read from the XML (processors/einvoice/hybrid_check.py).

The text layer only (PDFium, as processors/pdf_text.py reads it; pypdf for the PDFs
PDFium cannot open), no OCR and no rendering: a hybrid's visible part is made by the
same software as its XML, OCR would cost seconds a page on every e-invoice, and a
misread digit would be a false mismatch. Pages without a text layer leave their fields
not found.
"""

from __future__ import annotations

import pypdfium2 as pdfium  # type: ignore[import-untyped]

from processors.base import ProcessingError
from processors.einvoice.hybrid_check import HybridCheck, check_hybrid
from processors.invoice_model import Invoice
from processors.pdf import open_pdf
from processors.text_layer import read_pages
from processors.text_values import page_texts

HYBRID_MAX_PAGES = 8
"""The visible invoice's first pages: number, date and totals are on them."""


def check_pdf_hybrid(pdf: bytes, invoice: Invoice) -> HybridCheck | None:
    """The comparison; None when the PDF's text cannot be read at all."""
    try:
        plain, layout = _text_layer(pdf)
    except ProcessingError:
        return None
    return check_hybrid(invoice, plain, layout)


def _text_layer(pdf: bytes) -> tuple[list[str], list[str]]:
    try:
        document = pdfium.PdfDocument(pdf)
    except pdfium.PdfiumError:
        reader = open_pdf(pdf)
        return (
            page_texts(reader, HYBRID_MAX_PAGES, layout=False),
            page_texts(reader, HYBRID_MAX_PAGES, layout=True),
        )
    try:
        return read_pages(document, HYBRID_MAX_PAGES)
    finally:
        document.close()

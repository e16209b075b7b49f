"""The hybrid check of a PDF with an embedded e-invoice: its visible text read, then
compared with the invoice read from the XML (processors/einvoice/hybrid_check.py).

The text layer only, no OCR: a hybrid's visible part is made by the same software as
its XML, OCR would cost seconds a page on every e-invoice, and a misread digit would be
a false mismatch. Pages without a text layer leave their fields not found.
"""

from __future__ import annotations

from processors.base import ProcessingError
from processors.einvoice.hybrid_check import HybridCheck, check_hybrid
from processors.invoice_model import Invoice
from processors.pdf_text import read_pdf_text

HYBRID_MAX_PAGES = 8
"""The visible invoice's first pages: number, date and totals are on them."""


def check_pdf_hybrid(pdf: bytes, invoice: Invoice) -> HybridCheck | None:
    """The comparison; None when the PDF's text cannot be read at all."""
    try:
        text = read_pdf_text(pdf, "", HYBRID_MAX_PAGES, max_ocr_pages=0)
    except ProcessingError:
        return None
    return check_hybrid(invoice, text.plain, text.layout)

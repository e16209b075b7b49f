"""Invoices printed as PDF, read from their text: classified as invoices or not
(`classify`, `title_and_template`), then number, dates and payment means (`fields`),
parties (`parties`) and totals (`totals`) found by their labels (`labels`, `regex`),
the parties also by the page's layout (`party_blocks`, decided in `party_choice`).
`processor` is the entry. docs/pdf_invoices.md describes the design and its measured
accuracy; the text and OCR it reads come from the shared layer in `processors/`
(`pdf_text`, `text_layer`, `ocr`, `text_values`)."""

from processors.pdf_invoices.processor import PdfTextInvoiceProcessor

__all__ = ["PdfTextInvoiceProcessor"]

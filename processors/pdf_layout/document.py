"""A PDF's pages as layouts, from bytes: opened by `processors.pdf.open_pdf` (its
limits on structure, pages and decoded size, and its failures) and read by PDFium. Like
every parser of untrusted bytes, it runs in the reading processes (kernel limits on
memory and CPU, docs/security.md); a reader that already holds the PDFium document
calls `page_words` and `PageLayout.of` itself."""

from __future__ import annotations

import logging

import pypdfium2 as pdfium  # type: ignore[import-untyped]

from processors.base import FailureCode, ProcessingError
from processors.pdf import open_pdf
from processors.pdf_layout.lines import PageLayout
from processors.pdf_layout.words import PageWords, page_words

logger = logging.getLogger(__name__)


def read_layout(data: bytes, max_pages: int) -> tuple[PageLayout, ...]:
    """The layouts of the first `max_pages` pages; a page PDFium cannot load has no
    words. Raises `ProcessingError` from `open_pdf`, or `unreadable_document` when
    PDFium cannot open what pypdf could."""
    open_pdf(data)
    try:
        document = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as error:
        raise ProcessingError(FailureCode.UNREADABLE_DOCUMENT, f"PDFium: {error}") from error
    try:
        return tuple(
            PageLayout.of(_words(document, n)) for n in range(min(max_pages, len(document)))
        )
    finally:
        document.close()


def _words(document: pdfium.PdfDocument, index: int) -> PageWords:
    try:
        return page_words(document, index)
    except pdfium.PdfiumError as error:
        logger.info("no words from page %d: %s", index + 1, error)
        return PageWords(index + 1, 0.0, 0.0, ())

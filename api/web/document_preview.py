"""The document beside its data (issue 43): what an invoice page shows of the document
itself, by how the invoice was read.

- a PDF read from its text, with evidence: its pages with each field's box
  (api/web/evidence_views.py, results/_evidence.html), not this view;
- any other PDF (a hybrid, ZUGFeRD or Factur-X, its XML embedded; a PDF read before
  evidence was kept): its first page's image, rendered in a reading process
  (flows/page_render.py) as for the evidence, and the whole PDF to download;
- an XML e-invoice, which has no pages of its own: the printable view's sheet
  (results/_print_sheet.html), and a link to print it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from processors.base import FileKind
from processors.results.invoice import InvoiceResult


class PreviewKind(StrEnum):
    PAGES = "pages"  # the PDF's page images
    SHEET = "sheet"  # the printable view's sheet


@dataclass(frozen=True)
class PreviewPage:
    number: int
    image_url: str


@dataclass(frozen=True)
class DocumentPreview:
    kind: PreviewKind
    pages: tuple[PreviewPage, ...]
    print_url: str
    original_url: str


def document_preview(
    result: InvoiceResult, invoice_url: str, original_url: str
) -> DocumentPreview | None:
    """None when the evidence view shows the document, or the container is unknown."""
    print_url = f"{invoice_url}/print"
    if result.evidence:
        return None
    if result.source.container is FileKind.XML:
        return DocumentPreview(PreviewKind.SHEET, (), print_url, original_url)
    if result.source.container is FileKind.PDF:
        # The first page: the page count is not stored with the result, and a page past
        # the last would be a broken image; the whole PDF is a download away.
        first = PreviewPage(1, f"{invoice_url}/pages/1.png")
        return DocumentPreview(PreviewKind.PAGES, (first,), print_url, original_url)
    return None

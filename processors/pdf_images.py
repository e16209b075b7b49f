"""Images on a page that PDFium cannot decode.

PDFium decodes every image filter PDF allows itself (DCT, JPX, JBIG2, CCITTFax, Flate
and LZW with predictors, RunLength); a page whose image stream is broken renders as
white where the image would be. For a page OCR finds nothing on, the images that
failed say why (docs/realworld.md, issue 40 class 1)."""

from __future__ import annotations

import logging

import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pypdfium2.raw as pdfium_raw  # type: ignore[import-untyped]

from processors.results.source import UndecodablePage

logger = logging.getLogger(__name__)


def undecodable_page(page: pdfium.PdfPage, number: int) -> list[UndecodablePage]:
    """The page (1-based `number`) with the filters of its images PDFium cannot decode,
    logged; empty when every image decodes."""
    filters = undecodable_filters(page)
    if filters:
        logger.warning("page %d: PDFium cannot decode its images (%s)", number, filters)
    return [UndecodablePage(number, filters)] if filters else []


def undecodable_filters(page: pdfium.PdfPage) -> tuple[str, ...]:
    """The filter chains (`JBIG2Decode`, `ASCII85Decode+DCTDecode`) of the page's images,
    forms included, that PDFium cannot turn into a bitmap; an image without filters
    counts as `none`."""
    failed = []
    for image in page.get_objects(filter=[pdfium_raw.FPDF_PAGEOBJ_IMAGE]):
        try:
            image.get_bitmap()
        except pdfium.PdfiumError:
            failed.append("+".join(image.get_filters()) or "none")
    return tuple(failed)

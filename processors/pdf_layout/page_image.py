"""A page of a PDF as a PNG image, for the web application's evidence view: the page as
displayed, greyscale, at `PAGE_DPI`. Pure, and like every parser of untrusted bytes run
only in a reading process under kernel limits (api/web/page_images.py)."""

from __future__ import annotations

import io

import pypdfium2 as pdfium  # type: ignore[import-untyped]

from processors.pdf import open_pdf

PAGE_DPI = 110
"""A4 at 110 dpi is 910 x 1286 pixels: a value's glyphs stay legible beside the fields
at the width of a page column; over the corpus's PDFs a first page's PNG is 47 kB
(median, 160 kB at most) and takes 150 ms to open and render (median, 2.4 s at most)."""
MAX_PIXELS = 4_000_000
"""A larger page (a poster, a plan) is rendered at a lower resolution."""


def render_page(data: bytes, number: int, dpi: int = PAGE_DPI) -> bytes | None:
    """Page `number` (1 for the first) as PNG; None when the PDF has no such page.
    Raises `ProcessingError` when the PDF cannot be opened (`open_pdf`'s limits)."""
    open_pdf(data)
    document = pdfium.PdfDocument(data)
    try:
        if not 1 <= number <= len(document):
            return None
        page = document[number - 1]
        width, height = page.get_size()
        scale = min(dpi / 72, (MAX_PIXELS / max(width * height, 1.0)) ** 0.5)
        image = page.render(scale=scale, grayscale=True).to_pil()
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", optimize=False)
        return buffer.getvalue()
    finally:
        document.close()

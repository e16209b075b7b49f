"""The text layer read through PDFium: plain text, and layout text whose rows and columns
the invoice and statement readers rely on (`text_values.cells`, `column_amounts`)."""

from __future__ import annotations

from collections.abc import Sequence

import pypdfium2 as pdfium  # type: ignore[import-untyped]
from fpdf import FPDF

from processors.pdf_text import read_pdf_text
from processors.text_layer import read_pages
from processors.text_values import cells, column_amounts, lines_of


def _pdf(
    draw: Sequence[tuple[float, float, str]], font: str = "Helvetica", size: int = 10
) -> bytes:
    """One A4 page with each text drawn at (x, y) in millimetres from the top left."""
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font(font, size=size)
    for x, y, text in draw:
        pdf.text(x, y, text)
    return bytes(pdf.output())


def _texts(data: bytes) -> tuple[list[str], list[str]]:
    document = pdfium.PdfDocument(data)
    try:
        return read_pages(document, 5)
    finally:
        document.close()


def test_a_row_of_columns_is_one_line_with_its_cells_apart() -> None:
    data = _pdf([(20, 30, "Net amount"), (90, 30, "VAT"), (150, 30, "Total")])
    _, layout = _texts(data)
    assert [cell.text for cell in cells(lines_of(layout[0])[0])] == ["Net amount", "VAT", "Total"]


def test_amounts_line_up_under_their_header_cells() -> None:
    rows = [(30, "Net"), (36, "100,00"), (42, "200,00")]
    totals = [(30, "Total"), (36, "119,00"), (42, "238,00")]
    data = _pdf(
        [(20, 30, "Item"), *((120, y, text) for y, text in rows)]
        + [(20, y, "Widget") for y in (36, 42)]
        + [(170, y, text) for y, text in totals]
    )
    _, layout = _texts(data)
    lines = lines_of(layout[0])
    header = cells(lines[0])
    assert [c.text for c in header] == ["Item", "Net", "Total"]
    net = [str(a.value) for a in column_amounts(lines, 0, header[1])]
    total = [str(a.value) for a in column_amounts(lines, 0, header[2])]
    assert (net, total) == (["100.00", "200.00"], ["119.00", "238.00"])


def test_words_keep_single_spaces_in_a_monospaced_font() -> None:
    _, layout = _texts(_pdf([(20, 30, "John Miller")], font="Courier", size=13))
    assert layout[0].strip() == "John Miller"


def test_rows_are_ordered_top_to_bottom_whatever_the_drawing_order() -> None:
    data = _pdf([(20, 60, "third"), (20, 30, "first"), (20, 45, "second")])
    plain, layout = _texts(data)
    assert lines_of(layout[0]) == ["first", "second", "third"]
    assert set(lines_of(plain[0])) == {"first", "second", "third"}


def test_rotated_text_is_left_out_of_the_layout() -> None:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=10)
    pdf.text(20, 30, "Invoice 2024-001")
    with pdf.rotation(45, 100, 150):
        pdf.set_font("Helvetica", size=40)
        pdf.text(60, 150, "SPECIMEN")
    _, layout = _texts(bytes(pdf.output()))
    assert lines_of(layout[0]) == ["Invoice 2024-001"]


def test_a_page_without_text_reads_empty() -> None:
    pdf = FPDF()
    pdf.add_page()
    pdf.rect(20, 20, 50, 50)
    plain, layout = _texts(bytes(pdf.output()))
    assert (plain, layout) == ([""], [""])


def test_a_pdf_pdfium_cannot_open_is_read_through_pypdf() -> None:
    """No `%PDF-` header: pypdf reads the objects, PDFium refuses the file. (The pipeline
    does not take such a file as a PDF; here the fallback itself is under test.)"""
    data = _pdf([(20, 30, "Invoice 2024-001 due 2024-05-31")]).replace(b"%PDF-", b"%XDF-", 1)
    text = read_pdf_text(data, "tesseract", 5)
    assert text.method == "text"
    assert "Invoice 2024-001" in text.plain[0]

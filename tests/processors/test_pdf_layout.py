"""The geometry layer (processors/pdf_layout/) on pages whose geometry is known
(tests/processors/layout_docs.py) and over the corpus's PDFs."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pytest
from pypdf import PdfReader, PdfWriter

from processors.base import ProcessingError
from processors.ocr import OcrWord
from processors.pdf_layout.document import read_layout
from processors.pdf_layout.lines import PageLayout
from processors.pdf_layout.ocr_words import (
    ASCENT,
    CAP_HEIGHT,
    DESCENT,
    LOOSE_DESCENT,
    ocr_page_words,
)
from processors.pdf_layout.pairs import Placement, label_values
from processors.pdf_layout.regions import PageRegions
from processors.pdf_layout.words import LOOSE_EM, page_chars, page_words
from processors.pdf_text import read_pdf_text
from processors.results.evidence import Box
from processors.text_layer import words
from tests.processors.conftest import CORPUS
from tests.processors.layout_docs import BUYER, MM, din_form_b, kerned_words, label_layouts
from tests.processors.scans import GRADE, scan


def _page(data: bytes) -> PageLayout:
    return read_layout(data, 1)[0]


def _line(page: PageLayout, text: str) -> Box:
    return next(line.box for line in page.lines if line.text == text)


def test_a_word_drawn_in_two_pieces_is_one_word_and_a_space_wide_gap_two() -> None:
    texts = [line.text for line in _page(kerned_words()).lines]
    assert texts == ["Kopf", "Taxiunternehmen", "Taxi GmbH"]


def test_boxes_are_points_from_the_top_left() -> None:
    box = _line(_page(din_form_b()), "Rechnungsnummer:")
    assert box.x0 == pytest.approx(125 * MM, abs=0.5)
    assert box.y0 < 60 * MM < box.y1  # the baseline lies inside the loose box
    assert box.height == pytest.approx(10 * 1.17, abs=0.5)


@pytest.mark.parametrize("rotation", [90, 180, 270])
def test_a_rotated_page_has_its_boxes_where_it_is_displayed(rotation: int) -> None:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(din_form_b())))
    writer.pages[0].rotate(rotation)
    buffer = io.BytesIO()
    writer.write(buffer)
    page = _page(buffer.getvalue())
    box = _line(page, "Rechnungsnummer:")
    rendered = pdfium.PdfDocument(buffer.getvalue())[0].render(scale=1).to_pil().convert("L")
    assert rendered.size == pytest.approx((page.width, page.height), abs=1)
    darkest, _ = rendered.crop((int(box.x0), int(box.y0), int(box.x1), int(box.y1))).getextrema()
    assert darkest < 100  # ink where the box says


def test_regions_of_a_din_5008_letter() -> None:
    regions = PageRegions.of(_page(din_form_b()))
    assert regions.letterhead and regions.letterhead.text.startswith("Beispiel Handel GmbH\n")
    assert "Hauptstraße 5 - 80331" not in regions.letterhead.text  # the return address
    assert regions.address_window and regions.address_window.text == "\n".join(BUYER)
    assert regions.buyer == regions.address_window
    assert regions.footer and "DE123456789" in regions.footer.text
    assert "IBAN DE02" in regions.footer.text
    assert regions.totals and regions.totals.text.endswith("Gesamtbetrag\n1.469,06")
    table = regions.item_table
    assert table and table.header == ("Pos.", "Beschreibung", "Menge", "Betrag")
    assert [[cell.text if cell else "" for cell in row] for row in table.body] == [
        ["1", "Beratung Projekt", "2", "1.000,00"],
        ["2", "Reisekosten", "1", "234,50"],
    ]


@pytest.mark.parametrize(
    "letter",
    [
        din_form_b(dotted_return=True),
        din_form_b(pitch=9),  # a blank line's worth between the address lines
        din_form_b(first_line=43),  # the name set above the window
    ],
    ids=["return-address-with-dots", "wide-pitch", "name-above-the-window"],
)
def test_the_address_in_the_window(letter: bytes) -> None:
    window = PageRegions.of(_page(letter)).address_window
    assert window is not None and window.text == "\n".join(BUYER)


@pytest.mark.parametrize(
    ("label", "value", "placement"),
    [
        (r"Rechnungsnummer:", "2024-001", Placement.SAME_LINE),
        (r"Kundennummer", "K-4711", Placement.RIGHT),
        (r"Käufer", "Name: Grundbesitz GmbH & Co. KG", Placement.BELOW),
        (r"Name:", "Grundbesitz GmbH & Co. KG", Placement.SAME_LINE),
        (r"Fällig am", "04.04.2024", Placement.BELOW),
    ],
)
def test_a_labels_value_by_geometry(label: str, value: str, placement: Placement) -> None:
    (found,) = label_values(_page(label_layouts()), re.compile(label))
    assert (found.value, found.placement) == (value, placement)
    assert found.label_box.x1 <= found.value_box.x0 or found.label_box.y1 <= found.value_box.y0


def test_a_buyer_block_under_its_label() -> None:
    buyer = PageRegions.of(_page(label_layouts())).buyer
    assert buyer and buyer.text == "Name: Grundbesitz GmbH & Co. KG"


def test_ocr_words_in_points() -> None:
    word = OcrWord("Rechnung", 95.0, 300, 600, 200, 40, (1, 1, 1))
    (read,) = ocr_page_words([word], 1, 300, (595.0, 842.0)).words
    em = 40 / (CAP_HEIGHT + DESCENT) * 72 / 300  # a capital over, a `g` under the baseline
    assert (read.box.x0, read.box.x1) == (72.0, 120.0)
    assert read.box.height == pytest.approx(LOOSE_EM * em)
    assert read.em == pytest.approx(em)


def _ocr_word(text: str, left: int, over: float, under: float = 0.0) -> OcrWord:
    """A word of 40-pixel type on the baseline at 640 px, its ink from `over` em above
    the baseline to `under` em below it."""
    return OcrWord(
        text,
        95.0,
        left,
        round(640 - 40 * over),
        30 * len(text),
        round(40 * (over + under)),
        (1, 1, 1),
    )


def test_ocr_words_of_one_line_are_as_tall_as_a_text_layers_whatever_their_letters() -> None:
    """Ink boxes of `Bei` (capital), `Spiel` (descender), `was` (x-height) and `Ämter`
    (an accent over the capital) differ; PDFium's loose boxes do not."""
    texts = [("Bei", 0.72, 0.0), ("Spiel", 0.72, 0.21), ("was", 0.52, 0.0), ("Ämter", 0.9, 0.0)]
    words, left = [], 100
    for text, over, under in texts:
        words.append(_ocr_word(text, left, over, under))
        left += 30 * len(text) + 12  # a space of 0.3 em
    page = PageLayout.of(ocr_page_words(words, 1, 300, (595.0, 842.0)))
    (line,) = page.lines
    assert line.text == "Bei Spiel was Ämter"
    top, bottom = (640 - 40 * ASCENT) * 0.24, (640 + 40 * LOOSE_DESCENT) * 0.24
    for word in line.words:  # within the rounding of the ink to whole pixels
        assert (word.box.y0, word.box.y1) == pytest.approx((top, bottom), abs=0.3)


def test_the_text_of_a_pdf_comes_with_its_words() -> None:
    (words_read,) = read_pdf_text(din_form_b(), "tesseract", 3, with_words=True).words or ()
    assert PageLayout.of(words_read) == _page(din_form_b())
    assert read_pdf_text(din_form_b(), "tesseract", 3).words is None  # not asked for


def test_a_scanned_pages_words_are_in_points_too() -> None:
    scanned = scan(din_form_b(), GRADE["g1-office"])
    text = read_pdf_text(scanned, "tesseract", 1, with_words=True)
    assert text.ocr is not None
    (words_read,) = text.words or ()
    page = PageLayout.of(words_read)
    box = next(w.box for line in page.lines for w in line.words if w.text == "Rechnungsnummer:")
    assert box.x0 == pytest.approx(125 * MM, abs=3)
    assert box.y0 < 60 * MM < box.y1 + 2  # Tesseract's box ends at the baseline
    assert (page.width, page.height) == pytest.approx((595.3, 841.9), abs=1)


def _corpus_pdfs() -> list[Path]:
    return sorted(CORPUS.glob("**/*.pdf")) if CORPUS.exists() else []


@pytest.mark.parametrize("path", _corpus_pdfs(), ids=lambda p: p.name)
def test_corpus_pdfs_read_without_breaking_a_glyph_run(path: Path) -> None:
    """Every run of glyphs PDFium's text layer reads as one word lies inside one word."""
    data = path.read_bytes()
    try:
        pages = read_layout(data, 3)
    except ProcessingError:
        return
    document = pdfium.PdfDocument(data)
    for page in pages:
        ours = "\n".join(word.text for word in page_words(document, page.number - 1).words)
        text_page = document[page.number - 1].get_textpage()
        for word in words(text_page, page_chars(text_page)):
            assert word.text.rstrip("-") in ours, (page.number, word.text)
        assert all(line.box.x0 <= line.box.x1 for line in page.lines)

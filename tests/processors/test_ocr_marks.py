"""What the first OCR reading of a page leaves out or misreads (processors/ocr_marks.py):
rules found on a rendered page, the ink left for a second look, bullets."""

from __future__ import annotations

import pypdfium2 as pdfium  # type: ignore[import-untyped]
from fpdf import FPDF
from PIL import Image, ImageDraw

from processors.ocr import OcrWord
from processors.ocr_marks import BULLET, bullets, find_rules, second_look, unread_ink

DPI = 300


def _typewriter_totals() -> Image.Image:
    """A totals table between a row of dashes and a row of equals signs, in Courier."""
    pdf = FPDF(format="A4")
    pdf.add_page()
    pdf.set_font("courier", size=10)
    for y, text in ((30, "-" * 80), (36, "Summe gesamt 447,88 " * 4), (42, "=" * 80)):
        pdf.text(15, y, text)
    page = pdfium.PdfDocument(bytes(pdf.output()))[0]
    image: Image.Image = page.render(scale=DPI / 72, grayscale=True).to_pil().convert("L")
    return image


def _mm(value: float) -> float:
    return value / 25.4 * DPI


def test_rows_of_dashes_and_equals_signs_are_rules_and_a_line_of_text_is_not() -> None:
    rules = find_rules(_typewriter_totals(), DPI)
    baselines = sorted({round((rule.top + rule.bottom) / 2) for rule in rules})
    # the dashes sit at half the x-height over their baseline, the equals signs' two bars
    # about as high: nothing between, where the text runs (its baseline at 36 mm)
    assert len(rules) == 3
    assert all(_mm(27) < y < _mm(30) or _mm(39) < y < _mm(42) for y in baselines)
    assert all(rule.right - rule.left > _mm(150) for rule in rules)


def _word(text: str, box: tuple[int, int, int, int], confidence: float = 95.0) -> OcrWord:
    left, top, width, height = box
    return OcrWord(text, confidence, left, top, width, height, (1, 1, 1))


def test_only_ink_the_first_reading_left_is_looked_at_again() -> None:
    page = Image.new("L", (1200, 400), 255)
    ImageDraw.Draw(page).rectangle((100, 100, 300, 140), fill=0)  # ink read as a word
    ImageDraw.Draw(page).rectangle((100, 250, 1100, 252), fill=0)  # a rule
    read = (_word("Summe", (100, 100, 201, 41)),)
    assert unread_ink(page, read, DPI) is None
    ImageDraw.Draw(page).rectangle((800, 100, 900, 140), fill=0)  # ink nobody read
    left = unread_ink(page, read, DPI)
    assert left is not None
    assert left.getpixel((850, 120)) == 0
    assert left.getpixel((200, 120)) == left.getpixel((600, 251)) == 255


def test_the_second_look_adds_the_words_it_is_sure_of_on_lines_of_their_own() -> None:
    first = (_word("Gesamtbeträge", (0, 0, 10, 10)),)
    found = (
        _word("447,88", (0, 50, 10, 10)),
        _word("BE", (0, 90, 10, 10), confidence=30.0),
        _word("~", (0, 120, 10, 10)),
    )
    merged = second_look(first, found)
    assert [word.text for word in merged] == ["Gesamtbeträge", "447,88"]
    assert merged[1].line == (2, 1, 1)


def test_a_filled_dot_read_as_a_letter_is_a_bullet_and_a_letter_is_not() -> None:
    page = Image.new("L", (400, 100), 255)
    draw = ImageDraw.Draw(page)
    draw.ellipse((20, 40, 40, 60), fill=0)  # a bullet
    draw.ellipse((100, 40, 120, 60), outline=0, width=3)  # an `o`
    draw.ellipse((200, 40, 204, 44), fill=0)  # a full stop
    words = (
        _word("e", (20, 40, 21, 21)),
        _word("o", (100, 40, 21, 21)),
        _word(".", (200, 40, 5, 5)),
    )
    assert [word.text for word in bullets(words, page)] == [BULLET, "o", "."]

"""The text layer of PDF pages through PDFium (pypdfium2): plain text in PDFium's reading
order, and a layout text that keeps every visual row on one line with its columns apart.

PDFium's text already breaks words where glyphs leave a gap and lines where text moves
to a new line; the layout text places those words by their boxes, the way pypdf's layout
mode places text runs:
- words whose vertical centres lie within half a glyph height of each other form a row,
  and neighbouring rows less than about an em apart whose cells do not overlap are one
  row (a label set a little higher than its value in the next column);
- within a row, words further apart than `CELL_GAP` glyph heights are separate cells;
- a cell starts at the column of its x position, in a fixed width of
  `CHAR_WIDTH_SHARE` of the page's mean glyph advance, and at least two spaces after
  the cell before it, so that `text_values.cells` splits it off.
Rotated words (a watermark, a vertical margin note) are left out of the layout text,
as pypdf's layout mode leaves them out.
"""

from __future__ import annotations

import ctypes
import logging
import math
import re
from dataclasses import dataclass
from typing import NamedTuple

import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pypdfium2.raw as pdfium_raw  # type: ignore[import-untyped]

from processors.pdf_layout.words import Frame, PageWords, page_chars, words_of_text_page

logger = logging.getLogger(__name__)

CELL_GAP = 0.45
"""From about half an em (loose glyph boxes are about 1.15 em high) a gap separates
cells, as two spaces or more do in pypdf's layout mode."""
JOINED_CELL_GAP = 0.9
"""Words the PDF itself separates with one space character are one cell up to twice
that gap (a monospaced font's space is 0.6 em wide)."""
ROW_SHARE = 0.5
"""Words whose centres are closer than this share of their height share a row."""
MERGE_SHARE = 0.85
"""Neighbouring rows closer than this share of a glyph height (about one em) whose
cells do not overlap are one row, as in pypdf's layout mode."""
CHAR_WIDTH_SHARE = 0.8
"""One layout column is 0.8 of the page's mean glyph advance (pypdf's layout mode uses
the same), so that proportional text rarely runs into the next column."""
CELL_SPACES = 2
MAX_ANGLE = 0.01
"""Radians: a word turned further than this is rotated text."""
MAX_COLUMN = 1_000
_WORDS = re.compile("[^\\s\ufffe]+\ufffe?")
"""Runs of characters; PDFium marks a hyphen that ends a line, joining the word to its
rest on the next line, as U+FFFE."""
_LINE_END_HYPHEN = "\ufffe"


class Word(NamedTuple):
    text: str
    left: float
    right: float
    middle: float
    height: float
    spaced: bool
    """Separated from the word before it by exactly one space character of the PDF."""


@dataclass(frozen=True, slots=True)
class Cell:
    text: str
    left: float
    right: float
    middle: float
    height: float


def read_pages(document: pdfium.PdfDocument, max_pages: int) -> tuple[list[str], list[str]]:
    """(plain, layout) text of the first `max_pages` pages; a page PDFium cannot load
    reads empty (logged), as the other pages may still be read."""
    plain, layout, _ = _read_pages(document, max_pages, with_words=False)
    return plain, layout


def read_pages_and_words(
    document: pdfium.PdfDocument, max_pages: int
) -> tuple[list[str], list[str], list[PageWords]]:
    """`read_pages` and each page's words with their boxes (processors/pdf_layout/), from
    the same text page: loading it is most of the cost (8 ms of 10 a page, median over
    the corpus's PDFs); the words add about 2 ms."""
    return _read_pages(document, max_pages, with_words=True)


def _read_pages(
    document: pdfium.PdfDocument, max_pages: int, with_words: bool
) -> tuple[list[str], list[str], list[PageWords]]:
    plain: list[str] = []
    layout: list[str] = []
    found: list[PageWords] = []
    for number in range(min(max_pages, len(document))):
        try:
            page_plain, page_layout, page_words = _read_page(document, number, with_words)
        except pdfium.PdfiumError as error:
            logger.info("no text from page %d: %s", number + 1, error)
            page_plain, page_layout, page_words = "", "", PageWords(number + 1, 0.0, 0.0, ())
        plain.append(page_plain)
        layout.append(page_layout)
        found.append(page_words)
    return plain, layout, found


def _read_page(
    document: pdfium.PdfDocument, number: int, with_words: bool
) -> tuple[str, str, PageWords]:
    page = document[number]
    try:
        frame = Frame(page)
        text_page = page.get_textpage()
        try:
            text = page_chars(text_page)
            found = tuple(words_of_text_page(text_page, frame, text)) if with_words else ()
            width, height = frame.size()
            page_words = PageWords(number + 1, width, height, found)
            return plain_text(text), layout_text(words(text_page, text)), page_words
        finally:
            text_page.close()
    finally:
        page.close()


def plain_text(text: str) -> str:
    """PDFium's reading order: content-stream order, a line break where text moves to a
    new line."""
    text = text.replace("\r\n", "\n").replace(_LINE_END_HYPHEN, "-\n")
    if text.replace("\n", "").isprintable():
        return text
    return "".join(_printable(char) for char in text)


def _printable(char: str) -> str:
    if char == "\n" or char.isprintable():
        return char
    if char == _LINE_END_HYPHEN:
        return "-"
    return " " if char.isspace() else ""


def words(text_page: pdfium.PdfTextPage, text: str) -> list[Word]:
    """The upright words of the page with their boxes: from the loose box of the first
    character to that of the last (the loose boxes span the glyph advances)."""
    handle = text_page.raw
    box = pdfium_raw.FS_RECTF()
    pointer = ctypes.byref(box)
    found: list[Word] = []
    end = 0
    for match in _WORDS.finditer(text):
        start, spaced = match.start(), _one_space(handle, text, end, match.start())
        end = match.end()
        word = match.group()
        if not word.isprintable():
            word = "".join(_printable(char) for char in word)
        if not word or not pdfium_raw.FPDFText_GetLooseCharBox(handle, start, pointer):
            continue
        left, bottom, top = box.left, box.bottom, box.top
        if top <= bottom or not _upright(handle, start):
            continue
        if pdfium_raw.FPDFText_GetLooseCharBox(handle, end - 1, pointer):
            first = (left, bottom, top)
            found.extend(_word_or_glyphs(handle, match, word, first, box, spaced))
    return found


def _one_space(handle: object, text: str, end: int, start: int) -> bool:
    return (
        start - end == 1 and text[end] == " " and not pdfium_raw.FPDFText_IsGenerated(handle, end)
    )


def _upright(handle: object, index: int) -> bool:
    angle = pdfium_raw.FPDFText_GetCharAngle(handle, index)
    return not MAX_ANGLE < angle < 2 * math.pi - MAX_ANGLE


def _word_or_glyphs(
    handle: object,
    match: re.Match[str],
    word: str,
    first: tuple[float, float, float],
    last: pdfium_raw.FS_RECTF,
    spaced: bool,
) -> list[Word]:
    """The word, when its last glyph ends on the line of its first; else (PDFium joined
    glyphs of several lines) its pieces line by line."""
    left, bottom, top = first
    middle, height = (top + bottom) / 2, top - bottom
    if abs((last.top + last.bottom) / 2 - middle) < ROW_SHARE * height and last.right > left:
        return [Word(word, left, last.right, middle, height, spaced)]
    pieces: list[Word] = []
    box = pdfium_raw.FS_RECTF()
    for index in range(match.start(), match.end()):
        char = _printable(match.string[index])
        if not char or not pdfium_raw.FPDFText_GetLooseCharBox(handle, index, ctypes.byref(box)):
            continue
        if box.top <= box.bottom or not _upright(handle, index):
            continue
        glyph = Word(
            char, box.left, box.right, (box.top + box.bottom) / 2, box.top - box.bottom, False
        )
        if pieces and _continues(pieces[-1], glyph):
            piece = pieces[-1]
            pieces[-1] = piece._replace(text=piece.text + char, right=glyph.right)
        else:
            pieces.append(glyph._replace(spaced=spaced and not pieces))
    return pieces


def _continues(piece: Word, glyph: Word) -> bool:
    return abs(glyph.middle - piece.middle) < ROW_SHARE * piece.height and (
        piece.right - piece.height < glyph.left < piece.right + CELL_GAP * piece.height
    )


def layout_text(found: list[Word]) -> str:
    rows = _merged([cells for cells in map(_cells, _rows(found)) if cells])
    width = _column_width(rows)
    origin = min((row[0].left for row in rows), default=0.0)
    return "\n".join(_line(row, origin, width) for row in rows)


def _rows(found: list[Word]) -> list[list[Word]]:
    rows: list[list[Word]] = []
    middle = height = 0.0
    for word in sorted(found, key=lambda w: -w.middle):
        if rows and middle - word.middle < ROW_SHARE * min(height, word.height):
            rows[-1].append(word)
            continue
        rows.append([word])
        middle, height = word.middle, word.height
    return [sorted(row, key=lambda w: w.left) for row in rows]


def _cells(row: list[Word]) -> list[Cell]:
    """A row's words (sorted by x) as cells: apart by more than `CELL_GAP`."""
    cells: list[Cell] = []
    run: list[Word] = []
    for word in row:
        gap = word.left - run[-1].right if run else 0.0
        limit = JOINED_CELL_GAP if word.spaced else CELL_GAP
        if run and gap > limit * word.height:
            cells.append(_cell(run))
            run = []
        run.append(word)
    if run:
        cells.append(_cell(run))
    return cells


def _cell(run: list[Word]) -> Cell:
    first = run[0]
    text = " ".join(word.text for word in run)
    return Cell(text, first.left, max(word.right for word in run), first.middle, first.height)


def _merged(rows: list[list[Cell]]) -> list[list[Cell]]:
    merged: list[list[Cell]] = []
    for row in rows:
        if merged and _close(merged[-1][0], row[0]) and not _overlapping(merged[-1], row):
            merged[-1] = sorted([*merged[-1], *row], key=lambda cell: cell.left)
        else:
            merged.append(row)
    return merged


def _close(upper: Cell, lower: Cell) -> bool:
    return upper.middle - lower.middle < MERGE_SHARE * min(upper.height, lower.height)


def _overlapping(upper: list[Cell], lower: list[Cell]) -> bool:
    return any(a.left < b.right and b.left < a.right for a in upper for b in lower)


def _column_width(rows: list[list[Cell]]) -> float:
    chars = sum(len(cell.text) for row in rows for cell in row)
    width = sum(cell.right - cell.left for row in rows for cell in row)
    return CHAR_WIDTH_SHARE * width / chars if chars and width > 0 else 1.0


def _line(row: list[Cell], origin: float, width: float) -> str:
    parts: list[str] = []
    length = 0
    for cell in row:
        column = min(int((cell.left - origin) / width), MAX_COLUMN)
        spaces = max(column - length, CELL_SPACES) if parts else column
        parts.append(" " * spaces + cell.text)
        length += spaces + len(cell.text)
    return "".join(parts)

"""The text layer of PDF pages through PDFium (pypdfium2): plain text in PDFium's reading
order, and a layout text that keeps every visual row on one line with its columns apart.

The layout text is rebuilt from the glyph boxes, the way pypdf's layout mode lays out
text: glyphs whose vertical centres fall within half a glyph height of each other form a
row; within a row a gap wider than `WORD_GAP` glyph heights is a space and one wider than
`CELL_GAP` starts a new cell; a cell starts at the column of its x position (in a fixed
width of `CHAR_WIDTH_SHARE` of the page's mean glyph advance), and at least two spaces
after the cell before it, so that `text_values.cells` splits it off.
"""

from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass

import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pypdfium2.raw as pdfium_raw  # type: ignore[import-untyped]

WORD_GAP = 0.1
"""A gap between glyphs of more than this share of the glyph height is a word space
(letters of a word touch: the loose boxes span the advance widths)."""
CELL_GAP = 0.45
"""From about half an em (loose boxes are about 1.15 em high) a gap separates cells,
as two spaces or more do in pypdf's layout mode."""
ROW_SHARE = 0.5
"""Glyphs whose centres are closer than this share of their height share a row."""
MERGE_SHARE = 0.85
"""Neighbouring rows closer than this share of a glyph height (about one em) whose cells
do not overlap are one row, as in pypdf's layout mode."""
CHAR_WIDTH_SHARE = 0.8
"""One layout column is 0.8 of the page's mean glyph advance (pypdf's layout mode uses
the same), so that proportional text rarely runs into the next column."""
CELL_SPACES = 2
MAX_ANGLE = 0.01
"""Rotated glyphs (radians; a vertical margin note) are left out, as pypdf's layout mode
leaves them out."""
MAX_COLUMN = 1_000


@dataclass(frozen=True, slots=True)
class Glyph:
    char: str
    left: float
    right: float
    bottom: float
    top: float

    @property
    def height(self) -> float:
        return self.top - self.bottom

    @property
    def middle(self) -> float:
        return (self.top + self.bottom) / 2


@dataclass(frozen=True, slots=True)
class Cell:
    text: str
    left: float
    right: float
    middle: float
    height: float


def page_plain_text(text_page: pdfium.PdfTextPage) -> str:
    """PDFium's own reading order: content-stream order, lines broken where text moves
    to a new line."""
    text: str = text_page.get_text_range()
    return "".join(_printable(char) for char in text.replace("\r\n", "\n"))


def _printable(char: str) -> str:
    if char == "\n" or char.isprintable():
        return char
    return " " if char.isspace() else ""


def glyphs(text_page: pdfium.PdfTextPage) -> list[Glyph]:
    """Every visible, unrotated glyph of the page with its loose box."""
    found: list[Glyph] = []
    box = pdfium_raw.FS_RECTF()
    for index in range(text_page.count_chars()):
        code = pdfium_raw.FPDFText_GetUnicode(text_page, index)
        char = chr(code) if 0 < code < 0x110000 else ""
        if char == " " and pdfium_raw.FPDFText_IsGenerated(text_page, index) == 0:
            pass  # a space the PDF draws: its box fills the gap between two words
        elif not char or char.isspace() or not char.isprintable():
            continue
        angle = pdfium_raw.FPDFText_GetCharAngle(text_page, index)
        if MAX_ANGLE < angle < 2 * math.pi - MAX_ANGLE:
            continue
        if not pdfium_raw.FPDFText_GetLooseCharBox(text_page, index, ctypes.byref(box)):
            continue
        if box.top > box.bottom:
            found.append(Glyph(char, box.left, box.right, box.bottom, box.top))
    return found


def layout_text(found: list[Glyph]) -> str:
    rows = _merged([cells for cells in map(_cells, _rows(found)) if cells])
    width = _column_width(rows)
    origin = min((row[0].left for row in rows if row), default=0.0)
    return "\n".join(_line(row, origin, width) for row in rows)


def _rows(found: list[Glyph]) -> list[list[Glyph]]:
    rows: list[list[Glyph]] = []
    middle = height = 0.0
    for glyph in sorted(found, key=lambda g: -g.middle):
        if rows and middle - glyph.middle < ROW_SHARE * min(height, glyph.height):
            rows[-1].append(glyph)
            continue
        rows.append([glyph])
        middle, height = glyph.middle, glyph.height
    return [sorted(row, key=lambda g: g.left) for row in rows]


def _merged(rows: list[list[Cell]]) -> list[list[Cell]]:
    """Rows closer than a glyph height whose cells do not overlap are one row (a label
    set a little higher than its value in the next column), as in pypdf's layout mode."""
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


def _cells(row: list[Glyph]) -> list[Cell]:
    """A row's glyphs (sorted by x) as cells: words apart by `WORD_GAP`, cells by
    `CELL_GAP`."""
    cells: list[Cell] = []
    run: list[Glyph] = []
    text: list[str] = []
    for glyph in row:
        gap = glyph.left - run[-1].right if run else 0.0
        if run and gap > CELL_GAP * glyph.height:
            cells.append(_cell(run, text))
            run, text = [], []
        if not run and glyph.char == " ":
            continue
        if run and (gap > WORD_GAP * glyph.height or glyph.char == " ") and text[-1] != " ":
            text.append(" ")
        run.append(glyph)
        if glyph.char != " ":
            text.append(glyph.char)
    if run:
        cells.append(_cell(run, text))
    return [cell for cell in cells if cell.text]


def _cell(run: list[Glyph], text: list[str]) -> Cell:
    first = run[0]
    last = next(glyph for glyph in reversed(run) if glyph.char != " ")
    return Cell("".join(text).rstrip(), first.left, last.right, first.middle, first.height)


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


def read_pages(document: pdfium.PdfDocument, max_pages: int) -> tuple[list[str], list[str]]:
    """(plain, layout) text of the first `max_pages` pages."""
    plain: list[str] = []
    layout: list[str] = []
    for number in range(min(max_pages, len(document))):
        page = document[number]
        text_page = page.get_textpage()
        try:
            plain.append(page_plain_text(text_page))
            layout.append(layout_text(glyphs(text_page)))
        finally:
            text_page.close()
            page.close()
    return plain, layout

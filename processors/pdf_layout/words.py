"""Words with their boxes from PDFium's text layer, the spacing rebuilt from the glyphs.

PDFium breaks words where glyphs leave a gap and inserts a space of its own there
("generated"); inside a TJ array a kerning step of 0.15 em is enough ("Taxiunter nehmen"
from `[(Taxiunter) -150 (nehmen)]`). Here every gap is judged again by its width against
the glyph height: glyphs of one line closer than `SPACE_EM` em are one word whatever
the text layer says (PDFium itself breaks at wider gaps). A space character the PDF
itself draws always separates words. Rotated glyphs (a watermark, a vertical margin note) are left
out; a page's /Rotate is applied, so the boxes are those of the page as displayed.
"""

from __future__ import annotations

import ctypes
import math
import re
from dataclasses import dataclass

import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pypdfium2.raw as pdfium_raw  # type: ignore[import-untyped]

from processors.results.evidence import Box

LOOSE_EM = 1.15
"""PDFium's loose glyph boxes span the font's ascent to descent: about 1.15 em
(Helvetica 10 pt: 11.7 pt). The font size PDFium reports is not used: a font set at
1 pt and scaled by the text matrix reports 1."""
SPACE_EM = 0.2
"""A gap from 0.2 em on is a space (Helvetica's space is 0.28 em; kerning and
letter-spacing stay under 0.15 em; PDFium already breaks at 0.15 em)."""
LINE_SHARE = 0.5
"""Glyphs whose centres are closer than half a glyph height are on one line."""
MAX_ANGLE = 0.01
_HYPHEN_AT_LINE_END = "\ufffe"
_RUNS = re.compile("[^\\s\ufffe]+\ufffe?")
"""Runs of non-space characters; PDFium marks a hyphen that ends a line, joining the word
to its rest on the next line, as U+FFFE."""


@dataclass(frozen=True, slots=True)
class Word:
    text: str
    box: Box

    @property
    def em(self) -> float:
        return self.box.height / LOOSE_EM

    @property
    def middle(self) -> float:
        return (self.box.y0 + self.box.y1) / 2


@dataclass(frozen=True, slots=True)
class PageWords:
    number: int  # 1 for the first page
    width: float  # points, as displayed
    height: float
    words: tuple[Word, ...]


class Frame:
    """From PDF user space (origin bottom-left, unrotated) to the displayed page
    (origin top-left of the crop box, /Rotate applied clockwise)."""

    def __init__(self, page: pdfium.PdfPage) -> None:
        # The crop box within the media box (pypdfium2's get_cropbox misses an inherited box).
        self.left, self.bottom, self.right, self.top = page.get_bbox()
        self.rotation = page.get_rotation() % 360
        self.upright = math.radians((360 - self.rotation) % 360)

    def size(self) -> tuple[float, float]:
        width, height = self.right - self.left, self.top - self.bottom
        return (height, width) if self.rotation in (90, 270) else (width, height)

    def box(self, left: float, bottom: float, right: float, top: float) -> Box:
        match self.rotation:
            case 90:
                return Box(
                    bottom - self.bottom, left - self.left, top - self.bottom, right - self.left
                )
            case 180:
                return Box(
                    self.right - right, bottom - self.bottom, self.right - left, top - self.bottom
                )
            case 270:
                return Box(self.top - top, self.right - right, self.top - bottom, self.right - left)
        return Box(left - self.left, self.top - top, right - self.left, self.top - bottom)

    def reads_upright(self, angle: float) -> bool:
        """Upright in the content (PDFium's angle ignores /Rotate), or on the page as
        displayed (drawn turned against the page's /Rotate)."""
        return any(_near(angle, upright) for upright in (0.0, self.upright))


def page_chars(text_page: pdfium.PdfTextPage) -> str:
    """One character per PDFium char index (PDFium adds spaces and line breaks of its
    own). `get_text_range` is one call, but may drop or add a character; then the
    characters are asked for one by one."""
    count: int = text_page.count_chars()
    text: str = text_page.get_text_range() if count else ""
    if len(text) == count:
        return text
    codes = (pdfium_raw.FPDFText_GetUnicode(text_page.raw, i) for i in range(count))
    return "".join(chr(code) if 0 < code < 0x110000 else "\ufffd" for code in codes)


def _near(angle: float, target: float) -> bool:
    turn = abs(angle - target) % (2 * math.pi)
    return min(turn, 2 * math.pi - turn) <= MAX_ANGLE


def page_words(document: pdfium.PdfDocument, index: int) -> PageWords:
    """The words of page `index` (0 for the first). PDFium's errors propagate."""
    page = document[index]
    try:
        frame = Frame(page)
        text_page = page.get_textpage()
        try:
            found = tuple(words_of_text_page(text_page, frame, page_chars(text_page)))
        finally:
            text_page.close()
    finally:
        page.close()
    width, height = frame.size()
    return PageWords(index + 1, width, height, found)


def words_of_text_page(text_page: pdfium.PdfTextPage, frame: Frame, text: str) -> list[Word]:
    """The page's words: PDFium's runs of glyphs (a box from the first glyph's to the
    last's), joined again where PDFium generated a space narrower than `SPACE_EM`."""
    handle = text_page.raw
    found: list[Word] = []
    last: _Glyphs | None = None
    for match in _RUNS.finditer(text):
        for run in _runs(handle, match, frame):
            if last is not None and last.joins(run, text, handle):
                last = last.joined(run)
            else:
                if last is not None:
                    found.append(last.word(frame))
                last = run
    if last is not None:
        found.append(last.word(frame))
    return found


@dataclass(frozen=True, slots=True)
class _Glyphs:
    """A run of glyphs on one line: text, loose box in user space, its char indexes."""

    text: str
    left: float
    bottom: float
    right: float
    top: float
    start: int
    end: int

    def joins(self, other: _Glyphs, text: str, handle: object) -> bool:
        between = text[self.end : other.start]
        if between and (between != " " or not pdfium_raw.FPDFText_IsGenerated(handle, self.end)):
            return False  # a space the PDF draws, or a line break
        height = min(self.top - self.bottom, other.top - other.bottom)
        on_line = abs(other.top + other.bottom - self.top - self.bottom) / 2 < LINE_SHARE * height
        return on_line and -0.5 * height < other.left - self.right < SPACE_EM * height / LOOSE_EM

    def joined(self, other: _Glyphs) -> _Glyphs:
        return _Glyphs(
            self.text + other.text,
            self.left,
            min(self.bottom, other.bottom),
            other.right,
            max(self.top, other.top),
            self.start,
            other.end,
        )

    def word(self, frame: Frame) -> Word:
        return Word(self.text, frame.box(self.left, self.bottom, self.right, self.top))


def _runs(handle: object, match: re.Match[str], frame: Frame) -> list[_Glyphs]:
    """A run of non-space chars as one piece when its last glyph ends on the line of its
    first (two calls), else (PDFium joined glyphs of several lines) line by line."""
    start, end = match.start(), match.end()
    first, last = _loose_box(handle, start), _loose_box(handle, end - 1)
    if first is None or last is None or not frame.reads_upright(_angle(handle, start)):
        return _per_glyph(handle, match, frame)
    text = _readable(match.group())
    left, bottom, _, top = first
    height = top - bottom
    if abs(last[1] + last[3] - bottom - top) / 2 < LINE_SHARE * height and last[2] > left:
        return [_Glyphs(text, left, min(bottom, last[1]), last[2], max(top, last[3]), start, end)]
    return _per_glyph(handle, match, frame)


def _per_glyph(handle: object, match: re.Match[str], frame: Frame) -> list[_Glyphs]:
    pieces: list[_Glyphs] = []
    for index in range(match.start(), match.end()):
        box = _loose_box(handle, index)
        char = _readable(match.string[index])
        if box is None or not char or not frame.reads_upright(_angle(handle, index)):
            continue
        glyph = _Glyphs(char, *box, index, index + 1)
        previous = pieces[-1] if pieces else None
        if previous is not None and previous.end == index and previous.joins(glyph, "", handle):
            pieces[-1] = previous.joined(glyph)
        else:
            pieces.append(glyph)
    return pieces


def _loose_box(handle: object, index: int) -> tuple[float, float, float, float] | None:
    rect = pdfium_raw.FS_RECTF()
    if not pdfium_raw.FPDFText_GetLooseCharBox(handle, index, ctypes.byref(rect)):
        return None
    if rect.top <= rect.bottom:
        return None
    return rect.left, rect.bottom, rect.right, rect.top


def _angle(handle: object, index: int) -> float:
    return float(pdfium_raw.FPDFText_GetCharAngle(handle, index))


def _readable(text: str) -> str:
    if text.isprintable():
        return text
    return "".join(
        "-" if c == _HYPHEN_AT_LINE_END else c
        for c in text
        if c.isprintable() or c == _HYPHEN_AT_LINE_END
    )

"""The words of a page read by Tesseract (processors/ocr.py) as layout words: its pixel
boxes scaled to points by the resolution the page was rendered at, and made as tall as a
text layer's, so that a scan's words have the geometry of a text layer's and its
evidence boxes the same unit.

Tesseract's box is the ink of a word: `Bei` is as tall as a capital, `was` as an x,
`GmbH` and `Spiel` differ by the descender. PDFium's boxes span the font's ascent to
its descent (`LOOSE_EM`) whatever the letters. The geometry (`lines.py`) measures its
gaps in glyph heights, so ink boxes broke `Bei Spiel GmbH` into three cells and
joined columns of small print. So each word's em is taken from its ink height and the
letters it has (capitals and ascenders reach `CAP_HEIGHT`, lower case `X_HEIGHT`,
capitals with an accent `ACCENTED_CAP`, descenders go `DESCENT` under the baseline),
evened out over its line, and its box set from its baseline up `ASCENT` and down
`LOOSE_DESCENT`, as PDFium's are.

A scan has no drawing order, so its plain text (`rows_text`) is its rows: each visual
line across the page, its cells joined by one space, the order most content streams
draw in (over the corpus's text layers, 70 % of the neighbouring cells of a row are
drawn one after the other: 1,997 of 2,836). Tesseract's own order reads a column of
labels, then the column of their values (`Name:` apart from `Lieferant GmbH`), which
the text readers took for a party block of labels.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from processors.ocr import OcrWord
from processors.pdf_layout.lines import PageLayout
from processors.pdf_layout.words import LOOSE_EM, PageWords, Word
from processors.results.evidence import Box

CAP_HEIGHT = 0.72
"""Capitals, digits and ascenders over the baseline, in em (Helvetica 0.72, Times 0.66)."""
X_HEIGHT = 0.52
ACCENTED_CAP = 0.9
DESCENT = 0.21
"""g, j, p, q, y under the baseline."""
LOOSE_DESCENT = 0.225
ASCENT = LOOSE_EM - LOOSE_DESCENT
"""Helvetica's font box: 0.93 over the baseline, 0.225 under it (1.15 em)."""
SAME_SIZE = 1.3
"""A word whose own em is within this factor of its line's takes the line's."""

_LOWER = frozenset("acegmnopqrsuvwxyz")
"""Lower-case letters that reach only the x-height (some go under the baseline)."""
_TALL = frozenset("bdfhiklt0123456789!?/\\|#%&$€£@ß'\"()[]{}§")
_ACCENTED_CAPS = frozenset("ÄÖÜÀÁÂÉÈÊËÎÏÔÙÚÛÇÑÅ")
_DESCENDERS = frozenset("gjpqyQ(),;[]{}|çµ")


@dataclass(frozen=True, slots=True)
class _Shape:
    em: float | None  # None: no letter says how tall the word is (`-`, `:`, `•`)
    baseline: float  # pixels


def ocr_page_words(
    words: Iterable[OcrWord], number: int, dpi: float, size: tuple[float, float]
) -> PageWords:
    """Page `number` (1 for the first) of `size` points (as displayed), rendered at
    `dpi` and read into `words`."""
    scale = 72 / dpi
    lines: dict[tuple[int, int, int], list[OcrWord]] = {}
    for word in words:
        lines.setdefault(word.line, []).append(word)
    found = [word for line in lines.values() for word in _loose_words(line, scale)]
    found.sort(key=lambda word: (word.box.y0, word.box.x0))
    return PageWords(number, size[0], size[1], tuple(found))


def rows_text(page: PageLayout) -> str:
    """The page's rows top to bottom, each row's lines left to right, one space apart."""
    return "\n".join(" ".join(line.text for line in row) for row in page.rows)


def _loose_words(line: Sequence[OcrWord], scale: float) -> list[Word]:
    shapes = [_shape(word) for word in line]
    ems = [shape.em for shape in shapes if shape.em is not None]
    line_em = statistics.median(ems) if ems else None
    found: list[Word] = []
    for index, (word, shape) in enumerate(zip(line, shapes, strict=True)):
        em, baseline = shape.em, shape.baseline
        if em is None or (line_em is not None and _alike(em, line_em)):
            em = line_em
        if shape.em is None:
            baseline = _neighbour_baseline(line, shapes, index) or baseline
        if em is None:  # no letter on the line: take the ink as capitals
            em = word.height / CAP_HEIGHT
        top, bottom = baseline - ASCENT * em, baseline + LOOSE_DESCENT * em
        box = Box(word.left * scale, top * scale, (word.left + word.width) * scale, bottom * scale)
        found.append(Word(word.text, box))
    return found


def _shape(word: OcrWord) -> _Shape:
    """The em and baseline the word's ink and letters give."""
    letters = set(word.text)
    if letters & _ACCENTED_CAPS:
        over = ACCENTED_CAP
    elif any(c.isupper() or c in _TALL or (c.isalpha() and c not in _LOWER) for c in letters):
        over = CAP_HEIGHT
    elif letters & _LOWER:
        over = X_HEIGHT
    else:
        return _Shape(None, word.top + word.height)
    under = DESCENT if letters & _DESCENDERS else 0.0
    em = word.height / (over + under)
    return _Shape(em, word.top + word.height - under * em)


def _alike(em: float, other: float) -> bool:
    return other / SAME_SIZE <= em <= other * SAME_SIZE


def _neighbour_baseline(line: Sequence[OcrWord], shapes: list[_Shape], index: int) -> float | None:
    """The baseline of the nearest word of the line whose letters give one."""
    known = [
        (abs(other.left - line[index].left), shape.baseline)
        for other, shape in zip(line, shapes, strict=True)
        if shape.em is not None
    ]
    return min(known)[1] if known else None

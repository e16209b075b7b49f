"""What Tesseract's first reading of a scanned page leaves out or misreads, and how the
page is looked at again (processors/pdf_text.py).

**Text left out.** Tesseract's page layout drops text it takes for part of a picture: a
totals table drawn between rows of `-----` and `=====` (a typewriter layout) came out
without a word, although each is plain print. So the page is looked at a second time
(`unread_ink`): the words read are painted out, and so are the horizontal rules; where
ink is left (`MIN_UNREAD_INK`), Tesseract reads that page as sparse text, and the words
it is sure of (`SECOND_LOOK_CONFIDENCE`) join the first reading. Wiping rules before
the first reading would do it too, but changes how Tesseract sees the rest of the page:
on a form of shaded cells it dropped a column of amounts that it had read with the
rules in place.

A rule is a run of ink across a pixel row, at least `MIN_LENGTH` long, gaps of at most
`MAX_GAP` bridged (a row of dashes or of equals signs is a rule too), no thicker than
`MAX_THICKNESS`, with blank pixel rows `CLEARANCE` above and below it over its length
(so the baseline of a line of text, where the letters stand close, is none: the letters
go on above it). Rules are painted over with the paper around them (a shaded cell
stays shaded: painted white, a shaded shape was left that Tesseract took for a picture).
Lengths are in points, scaled to the resolution of the image.

**Bullets.** A separator dot (`Firma ● Straße 5 ● 12345 Ort`, the return address over a
DIN 5008 window) is read as a letter, `e` or `o` most often, and the line no longer
reads as a sender's address. A word of one character that is not a full stop, comma or
another sign, whose box is about square and mostly ink (`BULLET_FILL`: a disc fills
79 % of its box, letters under half), is a bullet: `•`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from PIL import Image, ImageDraw

from processors.ocr import OcrWord

INK_LEVEL = 128
MIN_LENGTH = 72.0
"""An inch: a dash, a hyphen or an underlined word stays (the baseline of a line of
text is often as long: the blank rows above and below tell it from a rule)."""
MAX_GAP = 3.4
"""Points bridged along a rule: the gap between two dashes of a monospaced `-----`."""
MAX_THICKNESS = 2.0
CLEARANCE = 0.7
"""Points above and below a rule that must be (almost) blank."""
MAX_CLEARANCE_INK = 0.08
"""The share of ink allowed in those pixel rows (a descender or an accent crossing)."""
MIN_UNREAD_INK = 60.0
"""Square points of ink left unread that ask for a second look: about one short word
(a 10-point `447,88`)."""
SECOND_LOOK_CONFIDENCE = 60.0
"""Words of the second look Tesseract is less sure of are left out: on what is left of
a page (logos, lines, stamps) it reads shapes as letters, mostly with less."""
ERASE_MARGIN = 0.5
"""Points around a word's box painted out with it (the edges of its glyphs)."""
BULLET_FILL = 0.65
BULLET = "\u2022"
_NOT_BULLETS = frozenset(".,:;'`=-_~+|/\\")
_INK, _PAPER = ord("#"), ord(".")
_MARKS = bytes(_INK if value < INK_LEVEL else _PAPER for value in range(256))


@dataclass(frozen=True, slots=True)
class Rule:
    top: int  # pixel rows, inclusive
    bottom: int
    left: int  # pixel columns, end exclusive
    right: int


def unread_ink(image: Image.Image, words: tuple[OcrWord, ...], dpi: float) -> Image.Image | None:
    """The greyscale page with its rules and the boxes of `words` painted out, when
    enough ink is left on it to look at again; else None."""
    page = wipe_rules(image, dpi)
    page = page.copy() if page is image else page
    draw = ImageDraw.Draw(page)
    margin = round(ERASE_MARGIN * dpi / 72)
    for word in words:
        right, bottom = word.left + word.width, word.top + word.height
        draw.rectangle(
            (word.left - margin, word.top - margin, right + margin, bottom + margin), 255
        )
    # counted on a copy of half the size, where a speck of one pixel is grey, not ink
    ink = 4 * sum(page.reduce(2).histogram()[:INK_LEVEL])
    return page if ink >= MIN_UNREAD_INK * (dpi / 72) ** 2 else None


def second_look(first: tuple[OcrWord, ...], second: tuple[OcrWord, ...]) -> tuple[OcrWord, ...]:
    """The first reading's words and those of the second look Tesseract is sure of, on
    lines of their own (Tesseract numbers the blocks of each reading from 1)."""
    after = max((word.line[0] for word in first), default=0)
    kept = tuple(
        replace(word, line=(after + word.line[0], *word.line[1:]))
        for word in second
        if word.confidence >= SECOND_LOOK_CONFIDENCE and any(c.isalnum() for c in word.text)
    )
    return first + kept


def wipe_rules(image: Image.Image, dpi: float) -> Image.Image:
    """The greyscale page with its horizontal rules painted over with the paper around
    them (the same image when it has none): the row of pixels above a rule is copied
    over its upper half, the row below over its lower half, so that a shaded cell stays
    shaded (painted white, a rule between a shaded and a white cell left a shaded shape
    that Tesseract took for a picture, and dropped the text in it)."""
    rules = find_rules(image, dpi)
    if not rules:
        return image
    wiped = image.copy()
    edge = max(1, round(CLEARANCE * dpi / 72) - 1)  # the grey of its anti-aliased edges
    for rule in rules:
        left, right = max(0, rule.left - edge), min(image.width, rule.right + edge)
        top, bottom = max(1, rule.top - edge), min(image.height - 1, rule.bottom + 1 + edge)
        middle = (top + bottom) // 2
        above = image.crop((left, top - 1, right, top))
        below = image.crop((left, bottom, right, bottom + 1))
        if middle > top:
            wiped.paste(above.resize((right - left, middle - top)), (left, top))
        wiped.paste(below.resize((right - left, bottom - middle)), (left, middle))
    return wiped


def find_rules(image: Image.Image, dpi: float) -> list[Rule]:
    pixels = dpi / 72
    width = image.width
    marks = image.convert("L").tobytes().translate(_MARKS)
    length = round(MIN_LENGTH * pixels)
    run = re.compile(b"#(?:\\.{0,%d}#)*" % round(MAX_GAP * pixels))
    found: list[Rule] = []
    growing: list[Rule] = []  # those that reach the row above
    for y in range(image.height):
        row = marks[y * width : (y + 1) * width]
        pieces = []
        if row.count(_INK) >= length // 3:  # else too little ink on the row for a rule
            pieces = [m.span() for m in run.finditer(row) if m.end() - m.start() >= length]
        growing, closed = _grown(growing, y, pieces)
        found += closed
    found += growing
    clearance = max(1, round(CLEARANCE * pixels))
    thickness = round(MAX_THICKNESS * pixels)
    return [
        rule
        for rule in found
        if rule.bottom - rule.top < thickness
        and _blank(marks, width, rule.top - clearance, rule)
        and _blank(marks, width, rule.bottom + clearance, rule)
    ]


def _grown(
    growing: list[Rule], y: int, pieces: list[tuple[int, int]]
) -> tuple[list[Rule], list[Rule]]:
    """The rules that reach row `y` (each continued by the pieces of the row that
    overlap it, or started by one), and those that ended on the row above."""
    reaching: list[Rule] = []
    taken: set[int] = set()
    for left, right in pieces:
        over = [i for i, rule in enumerate(growing) if rule.left < right and left < rule.right]
        taken.update(over)
        top = min((growing[i].top for i in over), default=y)
        left = min([left, *(growing[i].left for i in over)])
        right = max([right, *(growing[i].right for i in over)])
        reaching.append(Rule(top, y, left, right))
    return reaching, [rule for i, rule in enumerate(growing) if i not in taken]


def _blank(marks: bytes, width: int, y: int, rule: Rule) -> bool:
    if y < 0 or y * width >= len(marks):
        return True
    row = marks[y * width + rule.left : y * width + rule.right]
    return row.count(_INK) <= MAX_CLEARANCE_INK * len(row)


def bullets(words: tuple[OcrWord, ...], image: Image.Image) -> tuple[OcrWord, ...]:
    """The words with those that are bullets on `image` (the page they were read from)
    as `•`."""
    return tuple(replace(word, text=BULLET) if _bullet(word, image) else word for word in words)


def _bullet(word: OcrWord, image: Image.Image) -> bool:
    if len(word.text) != 1 or word.text in _NOT_BULLETS or word.text == BULLET:
        return False
    if not 0.6 * word.height <= word.width <= 1.6 * word.height or word.height < 3:
        return False
    box = image.crop((word.left, word.top, word.left + word.width, word.top + word.height))
    histogram = box.convert("L").histogram()
    darkest = next(level for level, count in enumerate(histogram) if count)
    if darkest > 255 - 64:
        return False  # no ink on paper: nothing to measure
    ink = sum(histogram[: (darkest + 255) // 2])
    return ink >= BULLET_FILL * word.width * word.height

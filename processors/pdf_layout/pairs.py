"""A label's value found by geometry, where a person looks for it:

1. after the label on its own line ("Rechnungsnummer: 2024-17"): `SAME_LINE`;
2. else the next line to its right in the same row, when it is near (`RIGHT_GAP`)
   ("Rechnungsnummer      2024-17", a key/value table): `RIGHT`;
3. else the line under it that overlaps it horizontally, within `BELOW_GAP` line
   heights ("Käufer" over "Kunden AG Mitte", a column header over its cell): `BELOW`;
4. else the next line to its right however far ("Gesamtbetrag ...... 1.469,06").

A label is a regular expression matched at the start of a word of a line; what the
label ends with (":", "#", "Nr.") is the caller's pattern, and a colon or dash left
between label and value is dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum

from processors.pdf_layout.lines import Line, PageLayout
from processors.results.evidence import Box

RIGHT_GAP = 10.0
"""Line heights (about 11 em): a line this close to the right is the label's value even
over a line under the label; further away ("Käufer" with a column of its own far to
the right) the line under the label comes first, and the far right line is the value
only when nothing is under the label (a totals row, label left and amount right)."""
BELOW_GAP = 1.2
"""Line heights of white space between a label and the value under it."""
_LEADING_PUNCTUATION = frozenset(":-#\u2013")


class Placement(StrEnum):
    SAME_LINE = "same_line"
    RIGHT = "right"
    BELOW = "below"


@dataclass(frozen=True, slots=True)
class LabelValue:
    label: str
    label_box: Box
    value: str
    value_box: Box
    placement: Placement
    line: Line
    """The line that holds the value."""


def label_values(page: PageLayout, label: re.Pattern[str]) -> list[LabelValue]:
    """Every value of `label` on the page, top to bottom."""
    found: list[LabelValue] = []
    for row_index, row in enumerate(page.rows):
        for line_index, line in enumerate(row):
            for match in _label_matches(line, label):
                value = _value(page, row_index, line_index, line, match)
                if value is not None:
                    found.append(value)
    return found


def value_of(page: PageLayout, label: re.Pattern[str]) -> LabelValue | None:
    """The first value of `label` on the page."""
    return next(iter(label_values(page, label)), None)


def _label_matches(line: Line, label: re.Pattern[str]) -> Iterator[tuple[int, int]]:
    """(the first word after the label, the label's first word) for each label in the line."""
    text = line.text
    starts = list(line.word_starts)
    for match in label.finditer(text):
        if match.start() not in starts or match.end() == match.start():
            continue
        after = next((i for i, start in enumerate(starts) if start >= match.end()), len(starts))
        yield after, starts.index(match.start())


def _value(
    page: PageLayout, row_index: int, line_index: int, line: Line, match: tuple[int, int]
) -> LabelValue | None:
    after, first = match
    label_words = line.words[first:after]
    label_box = Box.around(word.box for word in label_words)
    label_text = " ".join(word.text for word in label_words)
    rest = [w for w in line.words[after:] if not set(w.text) <= _LEADING_PUNCTUATION]
    if rest:
        value = Line.of(rest)
        return LabelValue(label_text, label_box, value.text, value.box, Placement.SAME_LINE, line)
    row = page.rows[row_index]
    right = row[line_index + 1] if line_index + 1 < len(row) else None
    near = right is not None and right.box.x0 - line.box.x1 <= RIGHT_GAP * line.height
    below = None if near else _below(page, row_index, line)
    if below is not None:
        return LabelValue(label_text, label_box, below.text, below.box, Placement.BELOW, below)
    if right is not None:
        return LabelValue(label_text, label_box, right.text, right.box, Placement.RIGHT, right)
    return None


def _below(page: PageLayout, row_index: int, label: Line) -> Line | None:
    for row in page.rows[row_index + 1 :]:
        if row[0].box.y0 - label.box.y1 > BELOW_GAP * label.height:
            return None
        under = [line for line in row if line.box.x0 < label.box.x1 and label.box.x0 < line.box.x1]
        if under:
            return under[0]
    return None

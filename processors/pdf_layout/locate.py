"""Where a value the reader chose is printed: its page and box, for the field's evidence
(processors/results/evidence.py). A reader that chose a value from the text finds it
again on the pages' lines:

- `locate_text`: a value as printed ("RE-2024-17", "Kunden AG Mitte", an IBAN in groups),
  compared without spaces and case; the first line that holds it;
- `locate_amount`, `locate_date`: a value however it is printed ("1.469,06",
  "1,469.06 EUR", "05.03.2024", "5 March 2024"), read from each line as the readers read
  amounts and dates (processors/text_values.py). Of several places, one in the page's
  totals block comes first (an amount), then one right of or under a label matching
  `label` when given, then the last one (a total is printed below what it sums).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from processors.pdf_layout.lines import Line, PageLayout
from processors.pdf_layout.pairs import label_values
from processors.pdf_layout.regions import Region, totals_block
from processors.results.evidence import (
    Box,
    Confidence,
    EvidenceField,
    FieldEvidence,
    PageSize,
)
from processors.text_values import find_amounts, find_dates

_SPACES = re.compile(r"\s+")

Spans = Callable[[str], Iterable[tuple[int, int]]]
"""The character spans of a line's text that print the value."""


@dataclass(frozen=True, slots=True)
class Located:
    page: int  # 1 for the first
    box: Box
    page_size: PageSize

    def evidence(
        self, field: EvidenceField, confidence: Confidence, reason: str | None = None
    ) -> FieldEvidence:
        return FieldEvidence(
            field, self.page, self.box.rounded(), confidence, reason, self.page_size
        )


@dataclass(frozen=True, slots=True)
class _Place:
    page: PageLayout
    line: Line
    box: Box


def locate_text(pages: Sequence[PageLayout], printed: str) -> Located | None:
    wanted = _SPACES.sub("", printed).casefold()
    if not wanted:
        return None
    for page in pages:
        for line in page.lines:
            box = _text_box(line, wanted)
            if box is not None:
                return _located(_Place(page, line, box))
    return None


def locate_amount(
    pages: Sequence[PageLayout], amount: Decimal, label: re.Pattern[str] | None = None
) -> Located | None:
    def spans(text: str) -> Iterable[tuple[int, int]]:
        return ((m.start, m.end) for m in find_amounts(text) if abs(m.value) == abs(amount))

    return _best(_places(pages, spans), label, in_totals=True)


def locate_date(
    pages: Sequence[PageLayout], value: date, label: re.Pattern[str] | None = None
) -> Located | None:
    def spans(text: str) -> Iterable[tuple[int, int]]:
        return ((m.start, m.end) for m in find_dates(text) if m.value == value)

    return _best(_places(pages, spans), label, in_totals=False)


def _text_box(line: Line, wanted: str) -> Box | None:
    """The words of `line` that print `wanted` (compared without spaces and case)."""
    squeezed, owners = "", []
    for index, word in enumerate(line.words):
        folded = word.text.casefold()
        squeezed += folded
        owners += [index] * len(folded)
    at = squeezed.find(wanted)
    if at < 0 or len(owners) != len(squeezed):  # casefold changed a length: "ß" -> "ss"
        return None
    first, last = owners[at], owners[at + len(wanted) - 1]
    return Box.around(word.box for word in line.words[first : last + 1])


def _places(pages: Sequence[PageLayout], spans: Spans) -> list[_Place]:
    found = []
    for page in pages:
        for line in page.lines:
            for start, end in spans(line.text):
                words = line.words_in(start, end)
                if words:
                    found.append(_Place(page, line, Box.around(w.box for w in words)))
    return found


def _best(places: list[_Place], label: re.Pattern[str] | None, in_totals: bool) -> Located | None:
    if not places:
        return None
    if in_totals:
        totals = {p.page.number: totals_block(p.page) for p in places}
        inside = [p for p in places if _within(p.box, totals[p.page.number])]
        if inside:
            return _located(inside[-1])
    if label is not None:
        labelled = [p for p in places if _labelled(p, label)]
        if labelled:
            return _located(labelled[0])
    return _located(places[-1])


def _within(box: Box, region: Region | None) -> bool:
    if region is None:
        return False
    outer = region.box
    return outer.x0 <= box.x0 and box.x1 <= outer.x1 and outer.y0 <= box.y0 and box.y1 <= outer.y1


def _labelled(place: _Place, label: re.Pattern[str]) -> bool:
    return any(
        found.value_box.x0 <= place.box.x0
        and place.box.x1 <= found.value_box.x1
        and found.value_box.y0 <= place.box.y0 <= found.value_box.y1
        for found in label_values(place.page, label)
    )


def _located(place: _Place) -> Located:
    page = place.page
    return Located(page.number, place.box, PageSize(page.width, page.height))

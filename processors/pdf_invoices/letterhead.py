"""Party names from the page's geometry when the text names none: a party block read
from the words (whose gaps are judged again, so `Ver käufer:` is one label), its lines
the ones printed under the label in its column; else, for the seller, the name over the
first postal address in the upper half of the first page that is not the buyer's
(letterhead: name, street, postal code and town)."""

from __future__ import annotations

import re

from processors.pdf_invoices.labels import POSTAL, SELLER_LABEL, STREET
from processors.pdf_invoices.parties import bare_label, block_name, labelled_value, name_like
from processors.pdf_layout.lines import Line, PageLayout
from processors.text_values import find_ibans

_UPPER = 0.5
"""A letterhead address is printed in the upper half of the page."""
_DEPTH = 5
"""Lines of a column read under a label (number, GLN, contact lines before the name)."""
_ADDRESS_DEPTH = 3
"""Lines from the name to the postal code: name, (extra line,) street, city."""


def geometry_seller(pages: tuple[PageLayout, ...], buyer: str | None) -> str | None:
    if not pages:
        return None
    return geometry_block(pages, SELLER_LABEL) or address_name(pages[0], buyer)


def geometry_block(pages: tuple[PageLayout, ...], label: re.Pattern[str]) -> str | None:
    """The name in a party block of the first page's words, its label first."""
    if not pages:
        return None
    for row in pages[0].rows:
        for index, line in enumerate(row):
            if not label.match(line.text):
                continue
            texts = [each.text.strip() for each in _close(pages[0].lines, line)]
            right = row[index + 1] if index + 1 < len(row) else None
            if right is not None and bare_label(line.text.strip()):
                texts[0] = f"{texts[0]}: {right.text.strip()}"  # the value right of its label
            name = block_name(texts, label)
            if name is not None:
                return name
    return None


_CLOSE = 2.5
"""Line heights of white space that end a block under its label."""


def _close(lines: tuple[Line, ...], label: Line) -> list[Line]:
    """The label and the lines of its column under it, up to a gap."""
    found = [label]
    for line in _column(lines, label, below=True)[:_DEPTH]:
        if line.box.y0 - found[-1].box.y1 > _CLOSE * label.height:
            break
        found.append(line)
    return found


def address_name(page: PageLayout, not_of: str | None) -> str | None:
    """The nearest line naming someone over the first postal line in the upper half whose
    name is not `not_of` (the other party)."""
    other = (not_of or "").casefold()
    lines = page.lines
    for line in lines:
        if line.box.y0 > _UPPER * page.height or not POSTAL.search(line.text):
            continue
        above = [each.text.strip() for each in _column(lines, line, below=False)]
        name = _name_above(above[:_ADDRESS_DEPTH])
        if name is not None and name.casefold() != other:
            return name
    return None


def _column(lines: tuple[Line, ...], start: Line, below: bool) -> list[Line]:
    """The lines under (or over, nearest first) `start` that overlap it horizontally."""
    box = start.box
    found = [
        line
        for line in lines
        if line.box.x0 < box.x1
        and line.box.x1 > box.x0
        and (_middle(line) > box.y1 if below else _middle(line) < box.y0)
    ]
    return sorted(found, key=lambda line: line.box.y0, reverse=not below)


def _middle(line: Line) -> float:
    """Loose boxes (ascent to descent) of stacked lines overlap: compare their middles."""
    return (line.box.y0 + line.box.y1) / 2


def _name_above(lines: list[str]) -> str | None:
    """The line over the street (`Benrath`, a district between street and postal code,
    is no name); the nearest line when no street is printed."""
    street = next((i for i, text in enumerate(lines) if STREET.search(text)), None)
    for text in lines[street + 1 :] if street is not None else lines:
        if STREET.search(text) or POSTAL.search(text):
            continue
        if bare_label(text) or labelled_value(text) or not name_like(text):
            return None
        return text
    return None


_IBAN_CELL = re.compile(r"^\s*IBAN\s*:?\s*$", re.IGNORECASE)


def iban_in_column(pages: tuple[PageLayout, ...]) -> str | None:
    """An IBAN under its column header, wrapped over two lines of its cell (`IBAN` over
    `DE67 1004 8392 7221` and `8882 72`)."""
    for page in pages:
        lines = page.lines
        for line in lines:
            if _IBAN_CELL.match(line.text):
                cell = " ".join(each.text for each in _column(lines, line, below=True)[:2])
                found = find_ibans(cell)
                if found:
                    return found[0]
    return None

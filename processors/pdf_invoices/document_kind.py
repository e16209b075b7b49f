"""What kind of document a page is, from its titles and their order, not from single
words: an invoice refers to orders, delivery notes and quotes ("Bestellung: 2018-471331",
"Rechnung gemäß Bestellung Nr. ..."), so such words only name the document where they
head it, before any invoice title. Without a title of either kind the structure tells:
a reminder speaks of overdue invoices, a quote of its validity.

Credit notes (Gutschrift, Rechnungskorrektur, Avoir, Credit note) are invoices with a
negative sign: `credit_note` says so when a credit title heads the document."""

from __future__ import annotations

import re
from dataclasses import dataclass

from processors.pdf_invoices.labels import CREDIT_TITLE, OTHER_TITLES, OVERDUE, TITLE, VALIDITY
from processors.pdf_invoices.title_and_template import heading_word
from processors.text_values import cells

_ORDINAL = re.compile(
    r"^(?:\d+\.\s*|(?:erste|zweite|dritte|letzte|first|second|third|final|1st|2nd|3rd|"
    r"friendly|freundliche)\s+)?",
    re.IGNORECASE,
)
_LABEL_AFTER = re.compile(
    r"^(?:-\s*(?:nr|no|nummer|number|n°|datum|date)\b"
    r"|(?:\s*(?:nr|no|nummer|number|n°|datum|date|vom|from)\b\.?)?\s*:)",
    re.IGNORECASE,
)
"""`Lieferschein-Nr 4711`, `Bestellung: 2018-471331`, `Bestell-Nr.`: a reference field,
not a title (`Lieferschein Nr. 4711` is one)."""
_SPACED = re.compile(r"\b(?:[^\W\d_] ){3,}[^\W\d_]\b")
"""A title set in spaced letters (`W A R E N R E C H N U N G`)."""


@dataclass(frozen=True, slots=True)
class DocumentKind:
    invoice_line: int | None
    """The first line an invoice title heads; None when untitled."""
    credit_note: bool
    other: str | None
    """The other document this is (`quote`, `order`, `delivery_note`, `reminder`,
    `statement`), or None."""


def document_kind(lines: list[str], text: str) -> DocumentKind:
    invoice_line: int | None = None
    credit = False
    other: tuple[int, str] | None = None
    for index, line in enumerate(lines):
        for cell in cells(line):
            heading = _SPACED.sub(lambda m: m.group().replace(" ", ""), cell.text)
            if invoice_line is None and heading_word(heading, TITLE):
                invoice_line, credit = index, heading_word(heading, CREDIT_TITLE)
            if other is None:
                kind = _other_title(heading)
                other = (index, kind) if kind else None
        if invoice_line is not None and other is not None:
            break
    if other is not None and (invoice_line is None or other[0] < invoice_line):
        return DocumentKind(invoice_line, credit, other[1])
    if invoice_line is None:
        return DocumentKind(None, False, _untitled_structure(text))
    return DocumentKind(invoice_line, credit, None)


def _other_title(cell: str) -> str | None:
    """An other document's title word first in the cell (after an ordinal: `1. Mahnung`),
    the cell short or followed by a number, and not a reference label."""
    if cell.rstrip().endswith(":"):
        return None  # `Bestellung:`, a label whose value stands in the next cell
    text = _ORDINAL.sub("", cell.strip("*#-|. "), count=1)
    for kind, pattern in OTHER_TITLES.items():
        match = pattern.match(text)
        if match is None or _LABEL_AFTER.match(text[match.end() :]):
            continue
        if heading_word(text, pattern):
            return kind
    return None


def _untitled_structure(text: str) -> str | None:
    if OVERDUE.search(text):
        return "reminder"
    if VALIDITY.search(text):
        return "quote"
    return None

"""Evidence for the invoice classifier (`classify.classify`) beyond labels and amounts:
whether the document is *titled* an invoice, and whether it is a template.

**Titled.** A title word (Rechnung, Invoice, Facture, Factuur, Fattura, Factura,
Gutschrift; for receipts Quittung, Receipt, Kassenbon, Kassenbeleg) counts where it
heads a cell of the page (a line, or a column cell: runs of text two spaces or more
apart): first in a cell followed by a number (`Rechnung Nr. 2024-17 vom ...`), or first
or last in a short cell (`HEADING_WORDS`: `Rechnung`, `TAX INVOICE`, `Payment receipt`).
The same word inside a sentence ("Lieferung gegen Rechnung, zahlbar in 14 Tagen" in a
price list's terms, "payable within 30 days of the invoice date") names no document.

**Template.** A template prints an invoice's labels with placeholders instead of values:
bracketed fields (`[Firmenname]`, `{{invoice.number}}`, `<<Datum>>`, `«Name»`), masks
(`TT.MM.JJJJ`, `MM/DD/YYYY`, `INV-XXXX`) and zero amounts. A label followed by a
placeholder counts for the classifier as a label with a value (it is an invoice in
layout); the result is flagged (`checks.template`). A document is a template when it
prints two placeholders or more and no filled-in value (no amount other than zero, or
no date), or three amounts or more that are all zero.
"""

from __future__ import annotations

import re
from decimal import Decimal

from processors.pdf_invoices.labels import TITLE
from processors.pdf_invoices.regex import guarded
from processors.text_values import cells, find_amounts, find_dates

_I = re.IGNORECASE
HEADING_WORDS = 6
"""A title cell of up to this many words is a heading ("Rechnung an Firma X" too)."""
_NUMBER_AFTER = re.compile(
    r"\s*(?:\(\d{3}\)\s*)?(?:(?:\S+\s+){0,3}(?:n[°or]\.?|nummer|number|#)|:)?\s*[#:]?\s*"
    r"[A-Z]*[-/]?\d",
    _I,
)
"""A number after the title, after its type code (`Handelsrechnung (380) Nr. 471102`) or
a few words naming it (`Beitragsrechnung zur Kraftfahrtversicherung Nr. 12`)."""
_PLACEHOLDER = guarded(
    r"\{\{[^{}\n]{1,60}\}\}|\$\{[^{}\n]{1,60}\}|<<[^<>\n]{1,60}>>|«[^«»\n]{1,60}»"
    r"|\[[^\[\]\d\n]{2,60}\]"
    r"|\b(?:TT|DD)[./-]MM[./-](?:JJJJ|YYYY|JJ|YY)\b|\bMM[./-]DD[./-](?:YYYY|YY)\b"
    r"|\b(?:JJJJ|YYYY)-MM-(?:TT|DD)\b"
    r"|(?<![\w-])(?:[A-Z]{1,5}[-/])?X{3,}(?![\w-])"
)
_UNIT = re.compile(r"\[\s*(?:[A-Z]{3}|[€$£%]|[a-zA-Z.]{1,4})\s*\]")
"""Bracketed units (`[EUR]`, `[kg]`, `[Std.]`) are column heads, not placeholders."""
MIN_PLACEHOLDERS = 2
MIN_ZERO_AMOUNTS = 3


def titled(lines: list[str]) -> bool:
    return any(heading_word(cell.text, TITLE) for line in lines for cell in cells(line))


def heading_word(cell: str, title: re.Pattern[str]) -> bool:
    """The title word first in the cell (`Rechnung Nr. 17`, `Rechnung an`,
    `Handelsrechnung (380) Nr. 471102`, `Beitragsrechnung zur Kraftfahrtversicherung Nr.
    ...`) or last in a short one (`TAX INVOICE`, `Payment receipt`, `Proforma-Rechnung`)."""
    text = cell.strip("*#-:|. ")
    first = title.match(text)
    if first is not None and bool(_NUMBER_AFTER.match(text[first.end() :])):
        return True
    if len(text.split()) > HEADING_WORDS:
        return False
    return first is not None or any(m.end() == len(text) for m in title.finditer(text))


def placeholders(text: str) -> list[str]:
    """Placeholder fields printed in the text, in order (units in brackets left out)."""
    return [m.group() for m in _PLACEHOLDER.finditer(text) if not _UNIT.fullmatch(m.group())]


def starts_with_placeholder(value: str) -> bool:
    """A label's value that is a placeholder (`Rechnungsnummer: [Nummer]`)."""
    match = _PLACEHOLDER.match(value.strip(" :#\t"))
    return match is not None and not _UNIT.fullmatch(match.group())


def has_placeholder(line: str) -> bool:
    return bool(placeholders(line))


def is_template(lines: list[str], found: tuple[str, ...]) -> bool:
    amounts = [a.value for line in lines for a in find_amounts(line)]
    filled = any(value != Decimal(0) for value in amounts) and bool(find_dates("\n".join(lines)))
    zero_only = len(amounts) >= MIN_ZERO_AMOUNTS and not any(amounts)
    return (len(found) >= MIN_PLACEHOLDERS and not filled) or zero_only

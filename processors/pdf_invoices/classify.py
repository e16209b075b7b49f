"""Is this text an invoice? Weighted signals (docs/pdf_text.md), minus the vocabulary of
other business documents; a template (placeholders for values) is an invoice in layout,
flagged (`processors/pdf_invoices/title_and_template.py`)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from processors.pdf_invoices.document_kind import document_kind
from processors.pdf_invoices.fields import invoice_number
from processors.pdf_invoices.labels import (
    GROSS_LABEL,
    ISSUE_LABELS,
    NUMBER_LABEL,
    VAT_ID,
    VAT_LABEL,
)
from processors.pdf_invoices.title_and_template import (
    has_placeholder,
    is_template,
    placeholders,
    starts_with_placeholder,
)
from processors.pdf_invoices.totals import totals
from processors.text_values import find_amounts, find_dates, find_ibans, labelled, lines_of

INVOICE_THRESHOLD = 50
REFERENCE_LIST_LINES = 60
"""Numbered lines (an account, article or section number, then words) from which a
document without a consistent totals block is a reference list (a chart of accounts, a
price list, a table of contents), not an invoice; a page of invoice items has about 30."""
_NUMBERED_LINE = re.compile(
    r"^\s*(?:[A-Z]{1,3}\s+)?(?:[A-Z]{1,3}-)?\d{1,8}(?:\.\d{1,3})*\.?\s+[^\W\d_]{2,}"
)
"""`0980  Aktive Rechnungsabgrenzung`, `KU  8400  Erlöse 19 % USt`, `HF-2003  Hex bolt`,
`2.3.1  Rechnungsnummer`."""


@dataclass(frozen=True, slots=True)
class Classification:
    score: int
    signals: tuple[str, ...]
    template: bool = False
    """Placeholders instead of values (`processors/pdf_invoices/title_and_template.py`)."""
    placeholders: tuple[str, ...] = ()

    other: str | None = None
    """The other document this is by its title or structure (`document_kind`)."""
    credit_note: bool = False

    @property
    def is_invoice(self) -> bool:
        """Enough evidence, and the document calls itself an invoice or numbers itself
        as one: orders and offers print totals, VAT and dates too. A document titled
        as another kind before any invoice title is that kind."""
        named = any(name in self.signals for name in ("title", "invoice_number", "receipt"))
        return self.score >= INVOICE_THRESHOLD and named and self.other is None


_SIGNALS: tuple[tuple[str, int], ...] = (
    ("title", 30),
    ("invoice_number", 20),
    ("total", 20),
    ("date", 10),
    ("vat", 10),
    ("vat_id", 10),
    ("iban", 5),
    ("amounts", 5),
    ("receipt", 10),
)
RECEIPT_LINES = 100
"""Lines (text and layout order together) of a short page: a receipt."""


def classify(text: str, ordered: str | None = None) -> Classification:
    """Sum of the weights of the invoice signals found; minus 40 for a document titled
    as another kind (statements, quotes, orders, delivery notes, reminders) before any
    invoice title (`document_kind`, read in `ordered`: the page text in visual order
    where it differs from `text`). The title counts where it heads a cell, not inside a
    sentence; a label followed by a placeholder counts as a label with its value."""
    lines = lines_of(text)
    layout = lines_of(ordered) if ordered else lines
    kind = document_kind(layout, text)
    if kind.other is None and _reference_list(layout):
        kind = replace(kind, other="reference_list")
    present = {
        "title": kind.invoice_line is not None,
        "invoice_number": invoice_number(lines) is not None
        or _placeholder_after(lines, NUMBER_LABEL),
        "total": any(
            GROSS_LABEL.search(line) and (find_amounts(line) or has_placeholder(line))
            for line in lines
        ),
        "date": bool(find_dates(text)) or _placeholder_after(lines, ISSUE_LABELS[1]),
        "vat": bool(VAT_LABEL.search(text)),
        "vat_id": bool(VAT_ID.search(text)),
        "iban": bool(find_ibans(text)),
        "amounts": _at_least(3, (a for line in lines for a in find_amounts(line))),
    }
    present["receipt"] = _receipt(present, lines)
    signals = [name for name, _ in _SIGNALS if present[name]]
    score = sum(weight for name, weight in _SIGNALS if present[name])
    if kind.other is not None:
        signals.append(f"other_document:{kind.other}")
        score -= 40
    if kind.credit_note:
        signals.append("credit_note")
    found = tuple(dict.fromkeys(placeholders(text)))
    template = is_template(lines, found)
    return Classification(
        max(score, 0), tuple(signals), template, found, kind.other, kind.credit_note
    )


def template_checks(classification: Classification) -> dict[str, Any]:
    """`checks.template`; a template is marked for review with the placeholders it prints
    (up to five; none when only its amounts are all zero)."""
    if not classification.template:
        return {"template": False}
    shown = list(classification.placeholders[:5])
    return {"template": True, "placeholders": shown, "confidence": "low", "needsReview": True}


def _receipt(present: dict[str, bool], lines: list[str]) -> bool:
    """A till receipt or a restaurant's Bewirtungsbeleg often has no title and no
    number label: a short page with a total of one amount, VAT and a date is one (issue
    40). A ledger's sum row (a trial balance: debit, credit, balance) is not a total."""
    if not (present["total"] and present["vat"] and present["date"]):
        return False
    return len(lines) <= RECEIPT_LINES and any(
        GROSS_LABEL.search(line) and len(find_amounts(line)) == 1 for line in lines
    )


def total_and_date(text: str) -> bool:
    """A total with its amount and a date: what a receipt read below the OCR quality
    gate must still show to be kept (`read_pdf_text(keep_below_gate=...)`)."""
    lines = lines_of(text)
    return bool(find_dates(text)) and any(
        GROSS_LABEL.search(line) and find_amounts(line) for line in lines
    )


def _reference_list(lines: list[str]) -> bool:
    """Hundreds of numbered lines and no totals block where net + VAT = gross: an
    invoice has a title, a number, a date, parties and totals that add up; a chart of
    accounts, a price list or a table of contents has only the numbered lines."""
    numbered = sum(1 for line in lines if _NUMBERED_LINE.match(line))
    if numbered < REFERENCE_LIST_LINES:
        return False
    decision, _, _ = totals(lines)
    return decision.totals != "passed"


def _placeholder_after(lines: list[str], label: re.Pattern[str]) -> bool:
    return any(starts_with_placeholder(value) for _, value in labelled(lines, label))


def _at_least(count: int, items: Iterator[object]) -> bool:
    """Whether `items` yields `count` items, looking no further."""
    return next(itertools.islice(items, count - 1, None), None) is not None

"""Is this text an invoice? Weighted signals (docs/pdf_text.md), minus the vocabulary of
other business documents."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass

from processors.pdf_invoice_fields import invoice_number
from processors.pdf_invoice_labels import GROSS_LABEL, NOT_INVOICE, TITLE, VAT_ID, VAT_LABEL
from processors.text_values import (
    find_amounts,
    find_dates,
    find_ibans,
    lines_of,
)

INVOICE_THRESHOLD = 50


@dataclass(frozen=True, slots=True)
class Classification:
    score: int
    signals: tuple[str, ...]

    @property
    def is_invoice(self) -> bool:
        """Enough evidence, and the document calls itself an invoice or numbers itself
        as one: orders and offers print totals, VAT and dates too."""
        named = "title" in self.signals or "invoice_number" in self.signals
        return self.score >= INVOICE_THRESHOLD and named


_SIGNALS: tuple[tuple[str, int], ...] = (
    ("title", 30),
    ("invoice_number", 20),
    ("total", 20),
    ("date", 10),
    ("vat", 10),
    ("vat_id", 10),
    ("iban", 5),
    ("amounts", 5),
)


def classify(text: str) -> Classification:
    """Sum of the weights of the invoice signals found; minus 40 for vocabulary of
    other business documents (statements, quotes, delivery notes)."""
    lines = lines_of(text)
    present = {
        "title": bool(TITLE.search(text)),
        "invoice_number": invoice_number(lines) is not None,
        "total": any(GROSS_LABEL.search(line) and find_amounts(line) for line in lines),
        "date": bool(find_dates(text)),
        "vat": bool(VAT_LABEL.search(text)),
        "vat_id": bool(VAT_ID.search(text)),
        "iban": bool(find_ibans(text)),
        "amounts": _at_least(3, (a for line in lines for a in find_amounts(line))),
    }
    signals = [name for name, _ in _SIGNALS if present[name]]
    score = sum(weight for name, weight in _SIGNALS if present[name])
    if NOT_INVOICE.search(text):
        signals.append("other_document_vocabulary")
        score -= 40
    return Classification(max(score, 0), tuple(signals))


def _at_least(count: int, items: Iterator[object]) -> bool:
    """Whether `items` yields `count` items, looking no further."""
    return next(itertools.islice(items, count - 1, None), None) is not None

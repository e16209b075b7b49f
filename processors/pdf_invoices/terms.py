"""The due date of a PDF invoice (BT-9): printed after its label (`Fällig am`, `Zahlbar
bis`, `payable by`, `à régler avant le`, `te betalen voor`), the net date of a discount
line (`2 % Skonto bis 19.02.2025, netto bis 22.02.2025`), or, where no date is printed,
computed as a person computes it from the payment terms (`Zahlbar innerhalb von 14 Tagen
ohne Abzug`, `Netto 30 Tage`, `payable within 30 days`, `Paiement à 30 jours`, `Net 30`):
the issue date plus the days. A computed date, and one of two different printed ones,
is doubted (`low`): a person checks it against the terms."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from processors.pdf_invoices.labels import DUE_LABEL
from processors.pdf_invoices.regex import guarded
from processors.text_values import find_dates, labelled

_DAYS = r"(?:werk)?(?:tage[n]?|days|jours|dagen|giorni|d[ií]as)\b"
TERMS_DAYS = guarded(
    r"(?:innerhalb\s*(?:von\s*)?|binnen\s*|within\s*|entro\s*|netto\s*|\bnet\s*|"
    r"(?:payable|zahlbar|paiement|payment|betaling|pagamento|pago)\s*(?:in\s*|à\s*|a\s*)?|"
    r"\b[àa]\s*)(\d{1,3})\s*" + _DAYS + r"|\b(\d{1,3})\s*" + _DAYS + r"\s*(?:netto|net|rein)\b"
    r"|\bnet\s*(\d{1,3})\b(?![.,]\d)",
    re.IGNORECASE,
)
"""Payment terms in days, in the languages of the labels."""
_TERMS_WORD = guarded(
    r"(terms|zahlungsbedingung\w*|zahlungsziel|zahlungsfrist|conditions\s*de\s*(?:paiement|"
    r"r[èe]glement)|d[ée]lai\s*de\s*paiement|betalingstermijn|betalingsconditie\w*|"
    r"condizioni\s*di\s*pagamento|condiciones\s*de\s*pago|payment\s*due|due\s*in)",
    re.IGNORECASE,
)
_N_DAYS = guarded(r"\b(\d{1,3})\s*" + _DAYS, re.IGNORECASE)
"""`Payment terms: 14 days`, `Zahlungsziel: 14 Tage`: the days after a terms label."""
_AT_ONCE = guarded(
    r"(sofort\s*(?:fällig|zahlbar)|(?:zahlbar|fällig)\s*sofort|due\s*(?:on|upon)\s*receipt|"
    r"payable\s*(?:immediately|(?:up)?on\s*receipt)|(?:payable|due)\s*immediately|"
    r"(?:à|dès)\s*r[ée]ception|direct\s*opeisbaar|per\s*omgaande)",
    re.IGNORECASE,
)
"""Due at once: the issue date is the due date."""
_NOT_TERMS = guarded(
    r"(verzug|mahn|\blate\b|retard|p[ée]nalit|interest|zinsen|intérêts|rücksend|rückgab|widerruf|"
    r"umtausch|return|retour|"
    r"garantie|warranty|lieferzeit|delivery|livraison)",
    re.IGNORECASE,
)
"""Days of other things: late-payment interest, returns, warranties, delivery times."""
_DISCOUNT = guarded(r"(skonto|discount|escompte|korting|sconto|descuento)", re.IGNORECASE)
"""A discount line names two dates: the discount's and the net one, the later."""


@dataclass(frozen=True, slots=True)
class DueDate:
    value: date | None
    source: str | None = None
    """The text the date was read or computed from (its evidence)."""
    doubt: str | None = None
    computed: bool = False
    """Computed from the terms: `low`, though the terms leave no doubt but the start."""


def due_date(lines: list[str], issued: date | None, month_first: bool) -> DueDate:
    """The printed due date: the first labelled on a line without a discount (doubted
    when another such differs), else the latest date of a discount line (`2 % Skonto bis
    ..., netto bis ...`); else the one the terms give from the issue date."""
    plain, discount = _printed(lines, month_first)
    if plain:
        value, source = plain[0]
        others = {day for day, _ in plain} - {value}
        doubt = "two different due dates are printed" if others else None
        return DueDate(value, source, doubt)
    if discount:
        return DueDate(*max(discount, key=lambda found: found[0]))
    return computed_due(lines, issued)


def _printed(
    lines: list[str], month_first: bool
) -> tuple[list[tuple[date, str]], list[tuple[date, str]]]:
    """(date, line) after a due label, apart: on lines without a discount, and the latest
    date of each line with one (the net date, after the discount's)."""
    plain: list[tuple[date, str]] = []
    discount: list[tuple[date, str]] = []
    read: set[int] = set()
    for index, value in labelled(lines, DUE_LABEL):
        line = lines[index]
        if index in read:
            continue  # one date a line: after its label (`Date : ... Échéance : ...`)
        if _DISCOUNT.search(line):
            dates = [d.value for d in find_dates(line, month_first)]
            discount.extend([(max(dates), line)] if dates else [])
            continue
        after = find_dates(value, month_first)
        if after:
            plain.append((after[0].value, line))
            read.add(index)
    return plain, discount


def computed_due(lines: list[str], issued: date | None) -> DueDate:
    """The issue date plus the longest term in days printed (`innerhalb von 8 Tagen 2 %
    Skonto, innerhalb von 30 Tagen netto`: the net term)."""
    if issued is None:
        return DueDate(None)
    terms = [term for line in lines if not _NOT_TERMS.search(line) for term in _terms(line)]
    terms = [(days, text) for days, text in terms if days <= 180]
    if not terms:
        return DueDate(None)
    days, text = max(terms, key=lambda term: term[0])
    doubt = f"computed from the payment terms ({days} days from the issue date), not printed"
    return DueDate(issued + timedelta(days=days), text, doubt, computed=True)


def _terms(line: str) -> list[tuple[int, str]]:
    """(days, the words that say so) of each term on the line."""
    found = [
        (int(next(g for g in match.groups() if g)), match.group(0))
        for match in TERMS_DAYS.finditer(line)
    ]
    if not found and _TERMS_WORD.search(line):
        found = [(int(match.group(1)), match.group(0)) for match in _N_DAYS.finditer(line)]
    if not found and (at_once := _AT_ONCE.search(line)) is not None:
        found = [(0, at_once.group(0))]
    return found

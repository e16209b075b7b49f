"""A hybrid invoice (ZUGFeRD, Factur-X) checked against itself: the values of its
embedded XML looked for in its visible text. docs/einvoice.md, "Hybrid invoices checked
against themselves", has the method and the measured rates.

Five fields: invoice number, issue date, gross total, amount due, the payee's IBAN.
Each XML value is searched in the page text under every format an invoice may print it
in, rather than re-extracting the field from the layout. Per field, in this order:

1. the value right after a strong label of the field ("Rechnungsdatum", "Amount due"):
   the XML value among them agrees; only other values there disagree (the field's label
   is printed with a different value);
2. the XML value printed anywhere agrees;
3. a weak label ("Datum", "Total") with a different value right after it, or a label
   alone heading a column with a different value under it, disagrees: the value is
   absent and the text prints a conflicting one;
4. otherwise the field is not found in the text.

The IBAN is searched anywhere first (an IBAN cannot be printed by chance). Fields the
XML does not carry are not compared. Pure: strings in, a frozen result out
(processors/results/hybrid.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Generic, TypeVar

from processors.einvoice import hybrid_labels as labels
from processors.einvoice.hybrid_labels import BETWEEN, FieldLabels
from processors.invoice_model import Invoice
from processors.results.hybrid import Agreement, FieldComparison, HybridCheck, HybridField
from processors.text_values import (
    IBAN_LENGTHS,
    cell_below,
    cells,
    find_dates,
    find_ibans,
    lines_of,
    parse_number,
)

__all__ = ["Agreement", "FieldComparison", "HybridCheck", "HybridField", "check_hybrid"]


def check_hybrid(invoice: Invoice, plain: Sequence[str], layout: Sequence[str] = ()) -> HybridCheck:
    """Compare `invoice` (read from the embedded XML) with the PDF's page texts: `plain`
    in reading order, `layout` with one line per visual row (processors/pdf_text.py)."""
    page = _Page.of(plain, layout)
    found: list[FieldComparison] = []
    if invoice.number and invoice.number.strip():
        found.append(_compare(HybridField.INVOICE_NUMBER, invoice.number.strip(), _NUMBER, page))
    if invoice.issue_date is not None:
        found.append(_compare(HybridField.ISSUE_DATE, invoice.issue_date, _DATE, page))
    if invoice.totals.gross is not None:
        found.append(_compare(HybridField.GROSS_TOTAL, _cents(invoice.totals.gross), _GROSS, page))
    if invoice.totals.amount_due is not None:
        due = _cents(invoice.totals.amount_due)
        kind = _DUE if invoice.totals.prepaid else _DUE_NOTHING_PAID
        found.append(_compare(HybridField.AMOUNT_DUE, due, kind, page))
    ibans = list(
        dict.fromkeys(_compact(m.payee_iban) for m in invoice.payment_means if m.payee_iban)
    )
    if ibans:
        found.append(_compare_ibans(ibans, page))
    return HybridCheck.of(found)


# --- the page --------------------------------------------------------------------------

_ODD_SPACES = re.compile("[\u00a0\u2007\u2009\u202f]")


@dataclass(frozen=True, slots=True)
class _Page:
    texts: tuple[str, ...]
    lines: tuple[str, ...]
    layout_pages: tuple[tuple[str, ...], ...]
    date_orders: tuple[bool, ...]
    """Month first (True) or day first (False): how the page's 03/04/2025 may be read."""

    @classmethod
    def of(cls, plain: Sequence[str], layout: Sequence[str]) -> _Page:
        texts = tuple(_ODD_SPACES.sub(" ", text) for text in (*plain, *layout))
        layout_pages = tuple(tuple(lines_of(_ODD_SPACES.sub(" ", text))) for text in layout)
        lines = tuple(line for text in texts for line in lines_of(text))
        return cls(texts, lines, layout_pages, _date_orders("\n".join(plain or layout)))


_NUMERIC_DATE = re.compile(r"(?<![\d/.-])(\d{1,2})([/-])(\d{1,2})\2(?:\d{4}|\d{2})(?!\d)")
_ENGLISH_WORDS = re.compile(r"\b(invoice|total|amount|due|date|the|bill)\b", re.IGNORECASE)
_OTHER_WORDS = re.compile(r"\b(rechnung|datum|facture|factuur|betrag|montant)\b", re.IGNORECASE)


def _date_orders(text: str) -> tuple[bool, ...]:
    """Day first, unless the page is English: then what its dates show (a 13th month
    or a 13th day), else either. Only US invoices print month first."""
    if len(_ENGLISH_WORDS.findall(text)) < 3 or _OTHER_WORDS.search(text):
        return (False,)
    first = {int(m.group(1)) > 12 for m in _NUMERIC_DATE.finditer(text)}
    second = {int(m.group(3)) > 12 for m in _NUMERIC_DATE.finditer(text)}
    if True in first and True not in second:
        return (False,)
    if True in second and True not in first:
        return (True,)
    return (False, True)


# --- how each kind of value is read and compared ---------------------------------------

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class _Kind(Generic[T]):
    labels: FieldLabels
    read: Callable[[str, _Page], list[T]]
    """The values printed at the start of the text after a label."""
    same: Callable[[T, T], bool]  # (XML value, printed value)
    anywhere: Callable[[T, _Page], bool]
    show: Callable[[T], str]


def _compare(field: HybridField, xml: T, kind: _Kind[T], page: _Page) -> FieldComparison:
    shown = kind.show(xml)
    strong = list(_after_labels(page, kind.labels.strong, kind))
    if strong:
        if any(kind.same(xml, value) for value in strong):
            return FieldComparison(field, Agreement.AGREES, shown)
        return FieldComparison(field, Agreement.DISAGREES, shown, kind.show(strong[0]))
    if kind.anywhere(xml, page):
        return FieldComparison(field, Agreement.AGREES, shown)
    for value in _conflicting_candidates(page, kind):
        if not kind.same(xml, value):
            return FieldComparison(field, Agreement.DISAGREES, shown, kind.show(value))
    return FieldComparison(field, Agreement.NOT_FOUND, shown)


def _conflicting_candidates(page: _Page, kind: _Kind[T]) -> Iterator[T]:
    if kind.labels.weak is not None:
        yield from _after_labels(page, kind.labels.weak, kind)
    for lines in page.layout_pages:
        yield from _under_labels(lines, kind, page)


def _after_labels(page: _Page, label: re.Pattern[str], kind: _Kind[T]) -> Iterator[T]:
    for line in page.lines:
        for match in label.finditer(line):
            if _vetoed(line, match, kind.labels):
                continue
            rest = line[match.end() :]
            yield from kind.read(rest[_value_start(rest) :], page)


def _value_start(rest: str) -> int:
    """Where the value after a label starts: past separators and qualifying words."""
    match = BETWEEN.match(rest)
    return match.end() if match is not None else 0


def _vetoed(line: str, match: re.Match[str], field_labels: FieldLabels) -> bool:
    """The label's own cell says it is about something else ("Sub Total", "Lieferdatum")."""
    if field_labels.veto is None:
        return False
    cell_start = max(
        (gap.end() for gap in re.finditer(r"\s{2,}", line[: match.start()])), default=0
    )
    prefix = line[max(cell_start, match.start() - PREFIX_CHARS) : match.end()]
    return field_labels.veto.search(prefix) is not None


PREFIX_CHARS = 16
"""How far before a label its cell is read for a veto word: far enough for "Sub" or
"Liefer-", not so far that the previous field's label on the same line counts."""


def _under_labels(lines: Sequence[str], kind: _Kind[T], page: _Page) -> Iterator[T]:
    """Values under a column headed by the field's label alone ("Datum", "Brutto")."""
    headings = [p for p in (kind.labels.strong, kind.labels.weak) if p is not None]
    for index, line in enumerate(lines):
        for cell in cells(line):
            if not any(_heads_column(heading, cell.text) for heading in headings):
                continue
            below = cell_below(list(lines), index, cell)
            if below is not None:
                yield from kind.read(below, page)


def _heads_column(label: re.Pattern[str], cell: str) -> bool:
    match = label.match(cell)
    return match is not None and BETWEEN.fullmatch(cell[match.end() :]) is not None


# --- invoice numbers -------------------------------------------------------------------

_TOKEN_END = ",;:."


def _read_number(rest: str, _page: _Page) -> list[str]:
    cell = re.split(r"\s{2,}", rest.strip(), maxsplit=1)[0]
    return [cell] if re.match(r"\S*\d", cell) else []


def _same_number(xml: str, printed: str) -> bool:
    """The printed text starts with the number, its spaces aside ("RE 2024 01 vom ...")."""
    wanted = _compact(xml).casefold()
    joined = ""
    for token in printed.split()[:6]:
        joined += token.casefold()
        if joined.rstrip(_TOKEN_END) == wanted:
            return True
        if len(joined) >= len(wanted):
            return False
    return False


def _number_anywhere(xml: str, page: _Page) -> bool:
    chars = r"\s?".join(re.escape(char) for char in _compact(xml))
    pattern = re.compile(rf"(?<![A-Za-z0-9]){chars}(?![A-Za-z0-9])", re.IGNORECASE)
    return any(pattern.search(text) for text in page.texts)


def _show_number(value: str) -> str:
    return value.split()[0].rstrip(_TOKEN_END) if value.split() else value


_NUMBER: _Kind[str] = _Kind(
    labels.NUMBER, _read_number, _same_number, _number_anywhere, _show_number
)


# --- dates -----------------------------------------------------------------------------


def _dates_in(text: str, page: _Page) -> list[tuple[int, date]]:
    """Dates in `text` in the orders the page may print them (03/04/2025 is either)."""
    return [(m.start, m.value) for first in page.date_orders for m in find_dates(text, first)]


def _read_date(rest: str, page: _Page) -> list[date]:
    return list(dict.fromkeys(value for start, value in _dates_in(rest, page) if start == 0))


def _date_anywhere(xml: date, page: _Page) -> bool:
    return any(value == xml for text in page.texts for _, value in _dates_in(text, page))


_DATE: _Kind[date] = _Kind(
    labels.ISSUE_DATE, _read_date, date.__eq__, _date_anywhere, date.isoformat
)


# --- amounts ---------------------------------------------------------------------------

_GROUP = "[.,'\u2019 ]"
_AMOUNT_AT_START = re.compile(
    rf"[-+\u2212]?\s?(\d{{1,3}}(?:{_GROUP}\d{{3}})+(?:[.,]\d{{1,2}})?|\d+[.,]\d{{2}})"
    r"(?![\d])(?![.,]\d)"
)


def _cents(value: Decimal) -> Decimal:
    return abs(value).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def _read_amount(rest: str, _page: _Page) -> list[Decimal]:
    match = _AMOUNT_AT_START.match(rest)
    if match is None:
        return []
    value = parse_number(match.group(1).replace(" ", ""))
    return [] if value is None else [_cents(value)]


def _amount_pattern(value: Decimal) -> re.Pattern[str]:
    """Every way `value` may be printed: 1.234,56 / 1,234.56 / 1'234.56 / 1 234,56 /
    1234.56, and 1.234,- for whole amounts."""
    integer, cents = f"{value:.2f}".split(".")
    groups: list[str] = []
    while integer:
        groups.insert(0, integer[-3:])
        integer = integer[:-3]
    whole = f"{_GROUP}?".join(groups)
    decimals = rf"[.,]{cents}" + (r"|[.,][-\u2013]" if cents == "00" else "")
    return re.compile(rf"(?<![\d.,'\u2019]){whole}(?:{decimals})(?!\d)(?![.,]\d)")


def _amount_anywhere(xml: Decimal, page: _Page) -> bool:
    pattern = _amount_pattern(xml)
    return any(pattern.search(text) for text in page.texts)


_GROSS: _Kind[Decimal] = _Kind(labels.GROSS, _read_amount, Decimal.__eq__, _amount_anywhere, str)
_DUE: _Kind[Decimal] = _Kind(labels.AMOUNT_DUE, _read_amount, Decimal.__eq__, _amount_anywhere, str)
_DUE_NOTHING_PAID: _Kind[Decimal] = _Kind(
    labels.AMOUNT_DUE_NOTHING_PAID, _read_amount, Decimal.__eq__, _amount_anywhere, str
)


# --- IBANs -----------------------------------------------------------------------------

_IBAN_AT_START = re.compile(r"[A-Z]{2}\d{2}(?: {0,2}[A-Z0-9]){8,30}")


def _compare_ibans(ibans: list[str], page: _Page) -> FieldComparison:
    """Agrees when the text prints every XML IBAN; disagrees when one is missing and the
    text prints another (labelled, checksum or not, or any valid IBAN)."""
    shown = " ".join(ibans)
    if all(_iban_anywhere(iban, page) for iban in ibans):
        return FieldComparison(HybridField.IBAN, Agreement.AGREES, shown)
    printed = [*_labelled_ibans(page), *(i for text in page.texts for i in find_ibans(text))]
    others = [iban for iban in printed if iban not in ibans]
    if others:
        return FieldComparison(HybridField.IBAN, Agreement.DISAGREES, shown, others[0])
    return FieldComparison(HybridField.IBAN, Agreement.NOT_FOUND, shown)


def _iban_anywhere(iban: str, page: _Page) -> bool:
    chars = r"\s{0,2}".join(re.escape(char) for char in iban)
    pattern = re.compile(rf"(?<![A-Z0-9]){chars}(?![0-9])", re.IGNORECASE)
    return any(pattern.search(text) for text in page.texts)


def _labelled_ibans(page: _Page) -> Iterator[str]:
    for line in page.lines:
        for label in labels.IBAN.strong.finditer(line):
            rest = line[label.end() :]
            match = _IBAN_AT_START.match(rest, _value_start(rest))
            if match is not None:
                compact = _compact(match.group())
                yield compact[: IBAN_LENGTHS.get(compact[:2], len(compact))]


def _compact(value: str) -> str:
    return re.sub(r"\s+", "", value)

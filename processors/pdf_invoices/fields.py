"""The normalized `Invoice` from a PDF invoice's text: number, dates, currency and
payment means here; totals and parties from their modules."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from processors.invoice_model import Invoice, InvoiceType, Party, PaymentMeans, Totals
from processors.pdf_invoices.labels import (
    CURRENCIES,
    DUE_LABEL,
    ENGLISH,
    ISO_CURRENCY,
    ISSUE_LABELS,
    NUMBER_LABEL,
    NUMBER_VALUE,
    OTHER_DATE,
    REFERENCE_LABEL,
    TIME_STAMP,
    TITLE,
    TITLE_DATE,
    TITLE_NUMBER,
)
from processors.pdf_invoices.parties import (
    buyer_name,
    seller_name,
    tax_number,
    vat_id_in_doubt,
    vat_ids,
)
from processors.pdf_invoices.terms import DueDate, due_date
from processors.pdf_invoices.totals import totals, vat_doubt
from processors.pdf_invoices.totals_choice import totals_doubts
from processors.results.evidence import EvidenceField
from processors.text_values import (
    IBAN_LENGTHS,
    cell_below,
    cells,
    find_amounts,
    find_bic,
    find_dates,
    find_ibans,
    is_header_row,
    labelled,
    lines_of,
)


@dataclass(frozen=True, slots=True)
class Reading:
    invoice: Invoice
    checks: dict[str, Any]
    doubts: dict[EvidenceField, str]
    """The fields the reader doubts, with the reason (their evidence is `low`)."""
    sources: dict[EvidenceField, str] = field(default_factory=dict)
    """The text line (or phrase) each field was read from: its evidence is found there."""


def extract_invoice(text: str, credit_note: bool = False) -> tuple[Invoice, dict[str, Any]]:
    reading = read_invoice(text, credit_note)
    return reading.invoice, reading.checks


def read_invoice(text: str, credit_note: bool = False) -> Reading:
    lines = lines_of(text)
    month_first = _is_english(text)
    decided, breakdown, checks = totals(lines, credit_note)
    seller_vat, buyer_vat = vat_ids(lines)
    ibans = find_ibans(text)
    unverified = None if ibans else _unverified_iban(text)
    issued, issue_doubt, issue_source = _issue_date(lines, month_first)
    due = _due_date(lines, issued, month_first)
    invoice = Invoice(
        number=invoice_number(lines),
        invoice_type=InvoiceType.CREDIT_NOTE if credit_note else InvoiceType.INVOICE,
        type_code=None,
        issue_date=issued,
        due_date=due.value,
        currency=_currency(text),
        seller=Party(name=seller_name(lines), vat_id=seller_vat, tax_number=tax_number(text)),
        buyer=Party(name=buyer_name(lines), vat_id=buyer_vat),
        totals=Totals(
            net=decided.net,
            vat=decided.vat,
            gross=decided.gross,
            prepaid=decided.prepaid,
            amount_due=decided.amount_due,
        ),
        vat_breakdown=breakdown,
        payment_means=_payment_means(text, lines, [unverified] if unverified else ibans),
    )
    doubts = {**totals_doubts(decided), **_field_doubts(issue_doubt, vat_doubt(lines, decided.vat))}
    if vat_id_in_doubt(lines, seller_vat, buyer_vat):
        doubts[EvidenceField.SELLER_VAT_ID] = (
            "more than one VAT id is printed, and none is marked as the buyer's"
        )
    if due.doubt and not due.computed:
        doubts[EvidenceField.DUE_DATE] = due.doubt
    if unverified:
        doubts[EvidenceField.PAYEE_IBAN] = "printed after IBAN, but its check digits do not verify"
    if doubts:
        checks = {**checks, "confidence": "low", "needsReview": True}
    if due.doubt and due.computed:  # the terms are printed: `low`, not for review
        doubts[EvidenceField.DUE_DATE] = due.doubt
    sources = dict(decided.sources)
    if due.source is not None:
        sources[EvidenceField.DUE_DATE] = due.source
    if issue_source is not None:
        sources[EvidenceField.ISSUE_DATE] = issue_source
    return Reading(invoice, checks, doubts, sources)


_LABELLED_IBAN = re.compile(r"\bIBAN\b\s*:?\s*([A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30})")


def _unverified_iban(text: str) -> str | None:
    """An IBAN printed after its label, of its country's length, whose checksum fails (a
    typo, or a sample's made-up account): read, and doubted."""
    for match in _LABELLED_IBAN.finditer(text):
        compact = re.sub(r"\s", "", match.group(1))
        length = IBAN_LENGTHS.get(compact[:2])
        if length is not None and len(compact) >= length:
            return compact[:length]
    return None


def _field_doubts(issue_doubt: bool, vat_in_doubt: bool) -> dict[EvidenceField, str]:
    doubts: dict[EvidenceField, str] = {}
    if issue_doubt:
        doubts[EvidenceField.ISSUE_DATE] = (
            "not labelled as the invoice date nor on the title line: a generic date label "
            "or the first date printed"
        )
    if vat_in_doubt:
        doubts[EvidenceField.VAT_TOTAL] = "zero VAT while the page prints a VAT rate above zero"
    return doubts


def _is_english(text: str) -> bool:
    return len(ENGLISH.findall(text)) >= 3 and not re.search(
        r"\b(rechnung|datum|facture|factuur)\b", text, re.IGNORECASE
    )


def invoice_number(lines: list[str]) -> str | None:
    """The number on the title line first (`Gutschrift Nr. 0039326` over the invoice it
    refers to, `zur Rechnung Nr. 2022-656047`), then after a number label."""
    on_title = _number_on_title_line(lines)
    if on_title is not None:
        return on_title
    for _, value in labelled(lines, NUMBER_LABEL):
        match = NUMBER_VALUE.match(value)
        if match and not find_dates(match.group(1)):
            return match.group(1).rstrip(".-")
    return _number_in_column(lines) or _number_after_title(lines)


def _title_numbers(lines: list[str]) -> Iterator[tuple[int, re.Match[str]]]:
    """(line, match) for an invoice title heading its line and followed by its number
    (`Handelsrechnung (380) Nr. 471102 vom 05.03.2020`)."""
    for index, line in enumerate(lines):
        text = line.strip()
        title = TITLE.match(text)
        if title is None:
            continue
        after = text[title.end() :]
        number = TITLE_NUMBER.match(text, len(text) - len(after.lstrip()))
        if number is None or find_dates(number.group(1)):
            continue
        if not _OTHER_NUMBER.search(text[title.end() : number.start(1)]):
            yield index, number


_OTHER_NUMBER = re.compile(
    r"bestell|order|auftrag|liefer|delivery|kunde|customer|client|vertrag|contract|"
    r"commande|bestelling|angebot|quote",
    re.IGNORECASE,
)
"""`Rechnung gemäß Bestellung Nr. 2018-471331`: the number of another document."""


def _number_on_title_line(lines: list[str]) -> str | None:
    return next((m.group(1).rstrip(".-") for _, m in _title_numbers(lines)), None)


def _number_in_column(lines: list[str]) -> str | None:
    """A header row naming the invoice number column ("Klant  Order  Factuur  Datum",
    "Rechnungsnr.  Kunde") with the number right under it."""
    for index, line in enumerate(lines):
        if not is_header_row(line, minimum=2):
            continue
        for cell in cells(line):
            if not (TITLE.fullmatch(cell.text) or NUMBER_LABEL.fullmatch(cell.text)):
                continue
            value = cell_below(lines, index, cell)
            if value and NUMBER_VALUE.fullmatch(value) and not find_dates(value):
                return value.lstrip("#").strip()
    return None


def _number_after_title(lines: list[str]) -> str | None:
    """A title alone on its line ("INVOICE") followed by one token with a digit, or the
    title and that token alone on one line ("Invoice INV/2023/03/0008")."""
    for index, line in enumerate(lines):
        title = TITLE.match(line.strip())
        if title is None:
            continue
        rest = line.strip()[title.end() :].strip()
        if not rest and index + 1 < len(lines):
            rest = lines[index + 1].strip()
        token = rest.lstrip("#").strip()
        if NUMBER_VALUE.fullmatch(token) and not find_dates(token) and not find_amounts(token):
            return token
    return None


def _issue_date(lines: list[str], month_first: bool) -> tuple[date | None, bool, str | None]:
    """The invoice-date label first, then the date right after the number on the title
    line (`Handelsrechnung Nr. 471102 vom 05.03.2020`), then any date label (not a due,
    order, delivery or version date), then the first date printed; whether the date is
    in doubt (neither labelled as the invoice's nor on its title line); and the line it
    was read from."""
    explicit, generic = ISSUE_LABELS
    sure = _labelled_date(lines, explicit, month_first) or _title_date(lines, month_first)
    if sure is not None:
        return sure[0], False, sure[1]
    guessed = _labelled_date(lines, generic, month_first, TIME_STAMP) or next(
        ((d.value, line) for line in lines for d in find_dates(line, month_first)), None
    )
    return (guessed[0], True, guessed[1]) if guessed else (None, False, None)


def _labelled_date(
    lines: list[str], label: re.Pattern[str], month_first: bool, *others: re.Pattern[str]
) -> tuple[date, str | None] | None:
    """The first date after `label` on a line that names no other date (`others` too),
    and the line it is printed on (none for a column's)."""
    not_labels = (DUE_LABEL, OTHER_DATE, *others)
    in_column = _date_in_column(lines, label, month_first, not_labels)
    if in_column is not None:
        return in_column, None
    for index, value in labelled(lines, label):
        if any(other.search(lines[index]) for other in not_labels):
            continue
        dates = find_dates(value, month_first)
        if dates:
            below = value not in lines[index] and index + 1 < len(lines)
            return dates[0].value, lines[index + 1] if below else lines[index]
    return None


def _title_date(lines: list[str], month_first: bool) -> tuple[date, str | None] | None:
    for index, number in _title_numbers(lines):
        rest = lines[index].strip()[number.end() :]
        word = TITLE_DATE.match(rest.strip(" ,"))
        dates = find_dates(rest, month_first)
        if word is not None and dates:
            return dates[0].value, lines[index]
    return None


def _due_date(lines: list[str], issued: date | None, month_first: bool) -> DueDate:
    """Under its column head, else after its label or computed from the terms (`terms`)."""
    in_column = _date_in_column(lines, DUE_LABEL, month_first, ())
    if in_column is not None:
        return DueDate(in_column)
    return due_date(lines, issued, month_first)


def _date_in_column(
    lines: list[str],
    label: re.Pattern[str],
    month_first: bool,
    not_labels: tuple[re.Pattern[str], ...],
) -> date | None:
    """A header row naming the date's column ("Invoice Date:   Due Date:   Reference:")
    with the date right under it. The cell must be the label alone: a cell with its
    value in it ("Date: 09.01.2015") is read on its line."""
    for index, line in enumerate(lines):
        if not is_header_row(line, minimum=2):
            continue
        for cell in cells(line):
            name = _ON.sub("", cell.text.rstrip(":# "))
            if not label.fullmatch(name) or any(n.search(name) for n in not_labels):
                continue
            dates = find_dates(cell_below(lines, index, cell) or "", month_first)
            if dates:
                return dates[0].value
    return None


_ON = re.compile(r"(?<=\w)\s+(?:am|vom|on|le|du|op|il|el)$", re.IGNORECASE)
"""A header cell `Fällig am`, `Datum vom`, `Échéance le`: the label and its preposition."""


def _currency(text: str) -> str | None:
    counts: dict[str, int] = {}
    for code in ISO_CURRENCY.findall(text):
        counts[code] = counts.get(code, 0) + 1
    for symbol, code in CURRENCIES.items():
        counts[code] = counts.get(code, 0) + text.count(symbol)
    best = max(counts.items(), key=lambda item: item[1], default=None)
    return best[0] if best and best[1] > 0 else None


def _payment_means(text: str, lines: list[str], ibans: list[str]) -> tuple[PaymentMeans, ...]:
    reference = next((value for _, value in labelled(lines, REFERENCE_LABEL)), None)
    if not ibans and reference is None:
        return ()
    return (
        PaymentMeans(
            type_code="58" if ibans else None,
            payee_iban=ibans[0] if ibans else None,
            payee_bic=find_bic(text),
            reference=reference,
        ),
    )

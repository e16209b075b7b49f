"""Bank statements printed as PDF: balances and transactions from the text layer.

One general parser over pypdf's layout text (columns kept on one line):
- a transaction starts on a line that begins with a booking date (`07.12.2021`,
  `19.01.`, `2021-12-07`, `07/12/2021`), may carry a value date right after it, and
  ends with its amount (`-205,90`, `- 580,06`, `1.234,56 S`, `+1,234.56`);
- following lines without their own amount belong to it (a leading date on the next
  line is the value date); the purpose is these lines joined;
- a balance or summary line ends the current transaction.
Per-layout hints are data, not code paths: the balance labels, and the `Soll`/`Haben`
(debit/credit) column positions from a table header for amounts printed unsigned.

The plain text order is parsed too; the reading that reconciles (opening + sum of
transactions = closing) wins, else the one with more transactions. A statement whose
balances are printed but do not reconcile is returned with `reconciled: false`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from processors.base import (
    DocumentType,
    FailureCode,
    FileKind,
    Outcome,
    ProcessingContext,
    ProcessingError,
    ResultType,
)
from processors.pdf_text import read_pdf_text
from processors.text_values import (
    AmountMatch,
    find_amounts,
    find_bic,
    find_dates,
    find_ibans,
    forget_lines,
    lines_of,
)

BANK_STATEMENT_SCORE = 60
MAX_PAGES = 50
_I = re.IGNORECASE
_STATEMENT_WORDS = re.compile(
    r"\b(kontoauszug|auszug|kontostand|saldo|buchung|valuta|wertstellung|umsätze|"
    r"bank\s*statement|account\s*statement|statement\s*of\s*account|balance|"
    r"booking\s*date|value\s*date|transactions?)\b",
    _I,
)
_OPENING = re.compile(
    r"(alter\s*(?:konto)?(?:saldo|stand)|anfangssaldo|saldo\s*alt|vortrag|"
    r"opening\s*balance|previous\s*balance|balance\s*brought\s*forward|start\s*balance)",
    _I,
)
_CLOSING = re.compile(
    r"(neuer\s*(?:konto)?(?:saldo|stand)|endsaldo|schlusssaldo|saldo\s*neu|"
    r"closing\s*balance|new\s*balance|balance\s*carried\s*forward|end\s*balance)",
    _I,
)
_SUMMARY = re.compile(r"\b(summe|total|übertrag|zwischensumme|abschluss\s*für)\b", _I)
_LEADING_DATE = re.compile(
    r"^\s*(\d{1,2}\.\d{1,2}\.(?:\d{2,4})?|\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}/\d{2,4})(?=\s|$|\d)"
)
_PERIOD = re.compile(
    r"(?:vom\s*|from\s*)?(\S+\s?\S*?\d{2,4})\s*(?:bis|to|-|\u2013)\s*(\d{1,2}[./]\d{1,2}[./]\d{2,4}"
    r"|\d{4}-\d{2}-\d{2})",
    _I,
)
_CURRENCY_ONLY = re.compile(r"(?:\s|EUR|USD|GBP|CHF|[€$])*")
_GLUED_DATE = re.compile(r"(\d[.,]\d{2})(?=\d{1,2}\.\d{1,2}\.)")
_GLUED_WORD = re.compile(r"(?<![\d.])(\d{1,2}\.\d{1,2}\.)(?=[A-Za-zÄÖÜäöü])")
_STATEMENT_NUMBER = re.compile(r"(auszugsnummer|auszug\s*nr\.?|statement\s*(?:no\.?|number))", _I)
_HEADER_NUMBER = re.compile(r"\bauszug\b", _I)
_ACCOUNT_IBAN = re.compile(r"\bIBAN\b")
_CURRENCY = re.compile(r"\b(EUR|USD|GBP|CHF)\b")
_TYPE_WORDS = re.compile(
    r"^(gutschr\w*\.?(?:\s*sepa)?|lastschr\w*|sdd\s*lastschr\w*|sepa[\s-]*\w+\.?(?:\s*einzel)?|"
    r"überweisung|dauerauftrag|abschluss|entgelt|zinsen|kartenzahlung|bargeld\w*|"
    r"inh\.\s*scheck|scheck\w*|transfer|payment|direct\s*debit|card\s*payment)\s*",
    _I,
)


@dataclass(slots=True)
class _Transaction:
    booking: str
    value: str | None
    amount: Decimal
    first_line: str
    purpose: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _Reading:
    transactions: tuple[_Transaction, ...]
    opening: Decimal | None
    closing: Decimal | None

    @property
    def reconciled(self) -> bool | None:
        if self.opening is None or self.closing is None:
            return None
        total = sum((t.amount for t in self.transactions), Decimal(0))
        return self.opening + total == self.closing


class BankStatementProcessor:
    name = "bank_statement"

    def score(self, kind: FileKind, head: bytes, context: ProcessingContext) -> int:
        if kind is FileKind.PDF and context.document_type is DocumentType.BANK_STATEMENT:
            return BANK_STATEMENT_SCORE
        return 0

    def process(self, data: bytes, context: ProcessingContext) -> Outcome:
        forget_lines()
        pdf_text = read_pdf_text(data, context.ocr_command, MAX_PAGES)
        if pdf_text.empty:
            raise ProcessingError(
                FailureCode.UNREADABLE_DOCUMENT,
                "The PDF has no text and nothing legible drawn on its pages to read the "
                "statement from.",
            )
        layout = "\n".join(pdf_text.layout)
        plain = "\n".join(pdf_text.plain)
        if not looks_like_statement(layout + "\n" + plain):
            raise ProcessingError(
                FailureCode.NOT_A_BANK_STATEMENT,
                "The file does not look like a bank statement (no balances, no bookings).",
            )
        reading = best_reading([parse(layout), parse(plain)])
        if not reading.transactions:
            raise ProcessingError(
                FailureCode.NO_TRANSACTIONS_FOUND, "No transactions were found in the statement."
            )
        result = statement_data(reading, layout + "\n" + plain)
        return Outcome(ResultType.BANK_STATEMENT, {**result, "source": pdf_text.source()})


def looks_like_statement(text: str) -> bool:
    """At least three statement words (distinct), or a printed opening/closing balance."""
    words = {match.lower() for match in _STATEMENT_WORDS.findall(text)}
    return len(words) >= 3 or bool(_OPENING.search(text) or _CLOSING.search(text))


def best_reading(readings: list[_Reading]) -> _Reading:
    return max(readings, key=lambda r: (r.reconciled is True, len(r.transactions)))


# --- parsing ---------------------------------------------------------------------------


def parse(text: str) -> _Reading:
    lines = lines_of(text)
    columns = _debit_credit_columns(lines)
    transactions: list[_Transaction] = []
    current: _Transaction | None = None
    for line in lines:
        if _OPENING.search(line) or _CLOSING.search(line):
            current = None
            continue
        started = _start(line, columns)
        if started is not None:
            current = started
            transactions.append(current)
        elif _SUMMARY.search(line) and find_amounts(line):
            current = None  # a totals row; purpose lines never end with a sum
        elif current is not None:
            _continue(current, line)
    return _Reading(tuple(transactions), _balance(lines, _OPENING), _balance(lines, _CLOSING))


def _start(line: str, columns: tuple[int, int] | None) -> _Transaction | None:
    """A line with a leading booking date and a trailing amount opens a transaction.
    Some layouts draw the amount before the value date and booking text, which the
    text layer then runs together ("+ 2.780,7028.01.Gutschr. SEPA"): an amount followed
    by a date is taken too, and what follows the date is the booking text."""
    line = _unglue(line)
    match = _LEADING_DATE.match(line)
    if not match:
        return None
    rest = line[match.end() :]
    amounts = find_amounts(rest)
    if not amounts:
        return None
    last = amounts[-1]
    tail = rest[last.end :]
    after = _LEADING_DATE.match(tail)
    if _CURRENCY_ONLY.fullmatch(tail):
        value_match = _LEADING_DATE.match(rest)
        value = value_match.group(1) if value_match else None
        body = rest[value_match.end() if value_match else 0 : last.start]
    elif after and not rest[: last.start].strip():
        value, body = after.group(1), tail[after.end() :]
    else:
        return None  # something else follows: not an amount column
    amount = _signed(last, match.end() + last.end, columns)
    return _Transaction(match.group(1), value, amount, " ".join(body.split()))


def _unglue(line: str) -> str:
    """Spaces where the text layer ran an amount, a date and a word together."""
    return _GLUED_WORD.sub(r"\1 ", _GLUED_DATE.sub(r"\1 ", line))


def _signed(amount: AmountMatch, end: int, columns: tuple[int, int] | None) -> Decimal:
    """Unsigned amounts in a Soll/Haben (debit/credit) table take their sign from the
    nearer column."""
    if amount.signed or columns is None:
        return amount.value
    debit, credit = columns
    return -amount.value if abs(end - debit) < abs(end - credit) else amount.value


def _debit_credit_columns(lines: list[str]) -> tuple[int, int] | None:
    for line in lines:
        debit = re.search(r"\b(soll|debit|belastung|ausgang)\b", line, _I)
        credit = re.search(r"\b(haben|credit|gutschrift|eingang)\b", line, _I)
        if debit and credit and _STATEMENT_WORDS.search(line):
            return debit.end(), credit.end()
    return None


def _continue(current: _Transaction, line: str) -> None:
    text = line.strip()
    match = _LEADING_DATE.match(text)
    if match and current.value is None and not current.purpose:
        current.value = match.group(1)
        text = text[match.end() :].strip()
    if text:
        current.purpose.append(" ".join(text.split()))


def _balance(lines: list[str], label: re.Pattern[str]) -> Decimal | None:
    """The amount after the label on its line, else the amount below it in the same
    column (header row above a value row)."""
    for index, line in enumerate(lines):
        match = label.search(line)
        if not match:
            continue
        after = find_amounts(line[match.end() :])
        if after:
            return after[0].value
        if index + 1 < len(lines):
            below = [a for a in find_amounts(lines[index + 1]) if a.end >= match.start()]
            if below:
                return below[0].value
    return None


# --- output ----------------------------------------------------------------------------


def statement_data(reading: _Reading, text: str) -> dict[str, Any]:
    period = _period(text)
    year_hint = period[1] if period else _first_date(text)
    currency = _currency(text)
    transactions = [_transaction_dict(t, year_hint, currency) for t in reading.transactions]
    total = sum((t.amount for t in reading.transactions), Decimal(0))
    return {
        "statement": {
            "accountIban": _account_iban(text),
            "bic": find_bic(text),
            "currency": currency,
            "periodStart": period[0].isoformat() if period else None,
            "periodEnd": period[1].isoformat() if period else None,
            "number": _statement_number(lines_of(text)),
            "openingBalance": _str(reading.opening),
            "closingBalance": _str(reading.closing),
            "transactionTotal": str(total),
        },
        "transactions": transactions,
        "reconciled": reading.reconciled,
    }


def _transaction_dict(
    t: _Transaction, year_hint: date | None, currency: str | None
) -> dict[str, Any]:
    purpose_lines = [t.first_line, *t.purpose] if t.first_line else list(t.purpose)
    purpose = " ".join(line for line in purpose_lines if line)
    ibans = find_ibans(" ".join(t.purpose))
    booking = _date(t.booking, year_hint)
    value = _date(t.value, year_hint) if t.value else None
    return {
        "bookingDate": _iso(booking),
        "valueDate": _iso(value or booking),
        "amount": str(t.amount),
        "currency": currency,
        "counterpartyName": _counterparty(t.first_line),
        "counterpartyIban": ibans[0] if ibans else None,
        "purpose": purpose,
        "confirmed": False,
    }


def _counterparty(first_line: str) -> str | None:
    """The text after the booking type on the first line ("Lastschrift SPARKASSE MAINZ")."""
    match = _TYPE_WORDS.match(first_line)
    if not match:
        return None
    rest = first_line[match.end() :].strip()
    return rest or None


def _date(raw: str, year_hint: date | None) -> date | None:
    """Dates printed without a year ("19.01.") take the statement's year, one year
    earlier when that would put them after the statement's end."""
    if re.fullmatch(r"\d{1,2}\.\d{1,2}\.", raw):
        if year_hint is None:
            return None
        day, month = (int(part) for part in raw.rstrip(".").split("."))
        try:
            candidate = date(year_hint.year, month, day)
        except ValueError:
            return None
        return candidate.replace(year=candidate.year - 1) if candidate > year_hint else candidate
    dates = find_dates(raw)
    return dates[0].value if dates else None


def _period(text: str) -> tuple[date, date] | None:
    for match in _PERIOD.finditer(text):
        start, end = find_dates(match.group(1)), find_dates(match.group(2))
        if start and end and start[-1].value <= end[0].value:
            return start[-1].value, end[0].value
    return None


def _first_date(text: str) -> date | None:
    dates = find_dates(text)
    return max((d.value for d in dates), default=None)


def _account_iban(text: str) -> str | None:
    """The IBAN printed next to an "IBAN" label most often (purposes print others)."""
    counts: dict[str, int] = {}
    for line in lines_of(text):
        if _ACCOUNT_IBAN.search(line):
            for iban in find_ibans(line):
                counts[iban] = counts.get(iban, 0) + 1
    if not counts:
        return None
    return max(counts.items(), key=lambda item: item[1])[0]


def _statement_number(lines: list[str]) -> str | None:
    for index, line in enumerate(lines):
        match = _STATEMENT_NUMBER.search(line)
        if match:
            number = re.match(r"\s*:?\s*(\d{1,4}(?:/\d{2,4})?)\b", line[match.end() :])
            if number:
                return number.group(1)
        header = _HEADER_NUMBER.search(line)
        if header and index + 1 < len(lines) and not match:
            below = re.match(r"\s*(\d{1,4})\b", lines[index + 1][header.start() :])
            if below and lines[index + 1][: header.start()].strip() == "":
                return below.group(1)
    return None


def _currency(text: str) -> str | None:
    found = _CURRENCY.findall(text)
    return max(set(found), key=found.count) if found else ("EUR" if "€" in text else None)


def _iso(value: date | None) -> str | None:
    return None if value is None else value.isoformat()


def _str(value: Decimal | None) -> str | None:
    return None if value is None else str(value)

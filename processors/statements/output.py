"""The statement reading as the typed result: dates resolved, counterparties named."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from datetime import date
from decimal import Decimal

from processors.results.source import Source
from processors.results.statement import BankStatementResult, Statement, StatementTransaction
from processors.statements.reading import Reading, Transaction
from processors.statements.tokens import DateToken, find_dates
from processors.statements.vocabulary import TYPE_PREFIX
from processors.text_values import find_bic, find_ibans, lines_of

_PERIOD_JOIN = re.compile(
    r"^\s*(?:bis|to|-|\u2013|au|al|t/m|tot|through|until|a|hasta|y|~)\s*$", re.IGNORECASE
)
_ACCOUNT_IBAN = re.compile(r"\bIBAN\b")
_CURRENCIES = {"EUR": "EUR", "USD": "USD", "GBP": "GBP", "CHF": "CHF", "SGD": "SGD"}
_SYMBOLS = {"€": "EUR", "$": "USD", "£": "GBP"}
_CURRENCY = re.compile(r"\b(EUR|USD|GBP|CHF|SGD)\b|[€$£]")
_STATEMENT_NUMBER = re.compile(
    r"(auszugsnummer|auszug\s*nr\.?|kontoauszug\s*nr\.?|statement\s*(?:of\s*account\s*)?"
    r"(?:no\.?|number)|afschrift|relev[ée]\s*de\s*compte\s*n[°o]\.?|estratto\s*conto\s*n\.?|"
    r"extracto\s*de\s*cuenta)",
    re.IGNORECASE,
)
_HEADER_NUMBER = re.compile(r"\bauszug\b", re.IGNORECASE)
TYPE_SHARE = 0.25
"""A first line that recurs in this share of the transactions (and at least three) is a
booking type ("SEPA-Lastschrift"), not a name: the name is on the next line."""


def statement_result(
    reading: Reading, text: str, comma: bool, source: Source
) -> BankStatementResult:
    currency = _currency(text)
    month_first = _month_first(reading.transactions, currency)
    period = _period(text, comma, month_first)
    year_hint = period[1] if period else _latest_date(reading.transactions, text, comma)
    recurring = _recurring_first_lines(reading.transactions)
    transactions = tuple(
        _transaction(t, year_hint, month_first, currency, recurring) for t in reading.transactions
    )
    statement = Statement(
        account_iban=_account_iban(text),
        bic=find_bic(text),
        currency=currency,
        period_start=period[0] if period else None,
        period_end=period[1] if period else None,
        number=_statement_number(lines_of(text)),
        opening_balance=reading.opening,
        closing_balance=reading.closing,
        transaction_total=sum((t.amount for t in reading.transactions), Decimal(0)),
    )
    return BankStatementResult(statement, transactions, reading.reconciled, source)


def _transaction(
    t: Transaction,
    year_hint: date | None,
    month_first: bool,
    currency: str | None,
    recurring: set[str],
) -> StatementTransaction:
    lines = [line for line in (t.first_line, *t.purpose) if line]
    booking = _resolve(t.booking_token, month_first, year_hint)
    value = _resolve(t.value_token, month_first, year_hint)
    ibans = find_ibans(" ".join(lines))
    return StatementTransaction(
        booking_date=booking,
        value_date=value or booking,
        amount=t.amount,
        currency=currency,
        counterparty_name=counterparty(t.first_line, t.purpose, recurring),
        counterparty_iban=ibans[0] if ibans else None,
        purpose=" ".join(" ".join(lines).split()),
    )


def counterparty(first_line: str, purpose: list[str], recurring: set[str]) -> str | None:
    """The first line without its booking type ("Lastschrift Stadtwerke"); the next line
    when the first holds only the type, or is an unknown type (printed on many
    transactions). A known type and a name repeated (a security bought monthly) stay."""
    if not first_line:
        return purpose[0] if purpose else None
    match = TYPE_PREFIX.match(first_line)
    rest = first_line[match.end() :].strip() if match else first_line
    if (not rest or (first_line in recurring and not match)) and purpose:
        return purpose[0]
    return rest or first_line


def _recurring_first_lines(transactions: tuple[Transaction, ...]) -> set[str]:
    counts = Counter(t.first_line for t in transactions if t.first_line and t.purpose)
    least = max(3, TYPE_SHARE * len(transactions))
    return {line for line, count in counts.items() if count >= least}


def _resolve(token: DateToken | None, month_first: bool, hint: date | None) -> date | None:
    return None if token is None else token.resolve(month_first, hint)


def _month_first(transactions: tuple[Transaction, ...], currency: str | None) -> bool:
    """Slashed dates are month first when a second number above 12 says so, or in a
    US dollar statement where nothing says otherwise."""
    tokens = [
        token
        for t in transactions
        for token in (t.booking_token, t.value_token)
        if token is not None and token.kind == "ab"
    ]
    if any(token.first > 12 for token in tokens):
        return False
    return any(token.second > 12 for token in tokens) or currency == "USD"


def _period(text: str, comma: bool, month_first: bool) -> tuple[date, date] | None:
    """Two dates with a year on one line, joined by `bis`, `to`, `au`, `-`, ..."""
    for line in lines_of(text):
        dates = [d for d in find_dates(line, comma) if d.year is not None]
        for first, second in itertools.pairwise(dates):
            if not _PERIOD_JOIN.match(line[first.end : second.start]):
                continue
            start, end = first.resolve(month_first, None), second.resolve(month_first, None)
            if start and end and start <= end:
                return start, end
    return None


def _latest_date(transactions: tuple[Transaction, ...], text: str, comma: bool) -> date | None:
    full = [
        token.resolve(False, None)
        for t in transactions
        for token in (t.booking_token, t.value_token)
        if token is not None and token.year is not None
    ]
    if not full:
        full = [d.resolve(False, None) for d in find_dates(text, comma) if d.year is not None]
    return max((d for d in full if d is not None), default=None)


def _account_iban(text: str) -> str | None:
    """The IBAN printed next to an "IBAN" label most often (purposes print others)."""
    counts: Counter[str] = Counter()
    for line in lines_of(text):
        if _ACCOUNT_IBAN.search(line):
            counts.update(find_ibans(line))
    return counts.most_common(1)[0][0] if counts else None


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
    found = [_CURRENCIES.get(m.group(), _SYMBOLS.get(m.group())) for m in _CURRENCY.finditer(text)]
    named = [code for code in found if code]
    return Counter(named).most_common(1)[0][0] if named else None

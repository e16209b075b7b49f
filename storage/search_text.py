"""What the inbox's search finds a result by (issue 43): its parties' names, its number and
its amounts, as one text of lower-case words. Amounts are written one way ("1234.56"), and
a searched amount is read the same way whichever way it is typed ("1.234,56", "1234,56",
"1234.56", "1,234.56"), so both sides meet. Pure: the recorder's booking
(storage/repositories/results.py) and the migration's backfill call the same function,
and storage/repositories/result_search.py turns typed searches into the same words.

The words hold letters and digits only (an amount also its point), which is what both a
Postgres tsquery and a SQLite LIKE pattern take without escaping.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from decimal import Decimal, InvalidOperation
from typing import Any

# The paths of a result's data searched, per result type.
SEARCHED_WORDS: dict[str, tuple[tuple[str, ...], ...]] = {
    "invoice": (
        ("invoice", "seller", "name"),
        ("invoice", "seller", "tradingName"),
        ("invoice", "buyer", "name"),
        ("invoice", "buyer", "tradingName"),
        ("invoice", "number"),
    ),
    "bank_statement": (("statement", "accountIban"), ("statement", "number")),
    "payment_file": (("messageId",),),
}
SEARCHED_AMOUNTS: dict[str, tuple[tuple[str, ...], ...]] = {
    "invoice": (
        ("invoice", "totals", "gross"),
        ("invoice", "totals", "net"),
        ("invoice", "totals", "amountDue"),
    ),
    "bank_statement": (("statement", "closingBalance"),),
    "payment_file": (("controlSum",),),
}
MAX_TERMS = 8  # of a typed search; more words only narrow what is found anyway
MAX_TEXT = 2000

_WORD = re.compile(r"[^\W_]+")
# The ways an amount is typed: German (1.234,56 / 1234,56), English (1,234.56 / 1234.56),
# and whole thousands with points or commas (1.234 / 1,234); a minus sign may lead.
_AMOUNT_FORMS = (
    (re.compile(r"-?\d{1,3}(\.\d{3})+(,\d{1,2})?"), ".", ","),
    (re.compile(r"-?\d{1,3}(,\d{3})+(\.\d{1,2})?"), ",", "."),
    (re.compile(r"-?\d+,\d{1,2}"), "", ","),
    (re.compile(r"-?\d+\.\d{1,2}"), "", "."),
)


def search_text(result_type: str, data: dict[str, Any]) -> str | None:
    """The words a result is found by, or None when it has none."""
    words: list[str] = []
    for path in SEARCHED_WORDS.get(result_type, ()):
        value = _at(data, path)
        if isinstance(value, str):
            words.extend(word.lower() for word in _WORD.findall(value))
    for path in SEARCHED_AMOUNTS.get(result_type, ()):
        amount = _amount(_at(data, path))
        if amount is not None:
            words.append(amount)
    unique = list(dict.fromkeys(words))
    return " ".join(unique)[:MAX_TEXT] or None


# One typed word: its alternatives, each a few words that must all begin words of the
# text ("2024.01" is an amount, or the invoice number's words 2024 and 01).
SearchTerm = tuple[tuple[str, ...], ...]


def search_terms(typed: str) -> list[SearchTerm]:
    """A typed search as the words of `search_text`: every term must be found."""
    terms: list[SearchTerm] = []
    for chunk in typed.split():
        words = tuple(dict.fromkeys(_words(chunk)))
        amount = typed_amount(chunk.strip(".,;:()€$"))
        alternatives = ((amount,), words) if amount is not None else (words,)
        term = tuple(alternative for alternative in alternatives if alternative)
        if term and term not in terms:
            terms.append(term)
    return terms[:MAX_TERMS]


def typed_amount(chunk: str) -> str | None:
    """An amount as typed ("1.234,56"), written as `search_text` writes amounts; whole
    thousands ("1.234") as the digits every such amount begins with."""
    for pattern, thousands, decimal in _AMOUNT_FORMS:
        if pattern.fullmatch(chunk):
            plain = chunk.replace(thousands, "") if thousands else chunk
            if decimal not in plain:
                return plain
            return _amount(plain.replace(decimal, "."))
    return None


def _words(chunk: str) -> Iterator[str]:
    return (word.lower() for word in _WORD.findall(chunk))


def _amount(value: Any) -> str | None:
    """An amount with two decimals and a point ("1234.50"); None when it is none."""
    if value is None or isinstance(value, bool):
        return None
    try:
        return f"{Decimal(str(value)).quantize(Decimal('0.01')):f}"
    except InvalidOperation:
        return None


def _at(data: Any, path: Iterable[str]) -> Any:
    for key in path:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data

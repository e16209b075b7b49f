"""Dates and amounts on a statement line, with their character positions in the layout
text (which stand for x positions on the page: columns line up).

Dates: `07.12.2021`, `07.12.21`, `07.12.` and, in documents whose amounts use a decimal
comma, `07.12` (else it is an amount); `2021-12-07`; `07-12-2021`; `07/12/2021`, `12/7`
(day or month first: decided for the whole document); `7 Dec 2021`, `07 DEC`,
`7. Dezember 2021`, `7 déc. 2021`, `Dec 7, 2021`, in six languages.

Amounts: `1.234,56`, `1,234.56`, `1 234,56`, `1'234.56`, with a sign before (`-`, `+`,
`- 580,06`), after (`12,00-`), or a debit/credit mark after (`S`/`H`, `DR`/`CR`), and a
currency symbol or code before or after (`-€12.00`, `12,00 €`, `EUR 12,00`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from processors.text_values import parse_number

MONTH_NAMES: dict[str, int] = {}
for _number, _names in enumerate(
    (
        "january jan januar jänner janvier janv januari enero ene gennaio gen",
        "february feb februar février fevrier févr fevr februari febrero febbraio",
        "march mar märz mär maerz mrz mars maart mrt marzo",
        "april apr avril avr abril aprile",
        "may mai mei mayo maggio mag",
        "june jun juni juin junio giugno giu",
        "july jul juli juillet juil julio luglio lug",
        "august aug august août aout augustus agosto ago",
        "september sep sept septembre septiembre settembre set",
        "october oct oktober okt octobre oktober octubre ottobre ott",
        "november nov novembre noviembre",
        "december dec déc dezember dez décembre decembre diciembre dic dicembre",
    ),
    start=1,
):
    for _name in _names.split():
        MONTH_NAMES[_name] = _number

_MONTH = r"(?P<name>[A-Za-zÄÖÜäöüéèûôç]{3,10})\.?"
_YEAR = r"(?:\s(?P<y>\d{4}|\d{2}))?(?![\d.,])"
_DATE_PATTERNS = (
    ("ymd", re.compile(r"(?<![\d.])(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})(?!\d)")),
    ("dmy", re.compile(r"(?<![\d.,])(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>\d{4}|\d{2})?(?![\d])")),
    ("dmy", re.compile(r"(?<![\d-])(?P<d>\d{1,2})-(?P<m>\d{1,2})-(?P<y>\d{4})(?!\d)")),
    ("ab", re.compile(r"(?<![\d/])(?P<a>\d{1,2})/(?P<b>\d{1,2})(?:/(?P<y>\d{4}|\d{2}))?(?![\d/])")),
    ("named", re.compile(rf"(?<![\d.,])(?P<d>\d{{1,2}})\.?\s{_MONTH}{_YEAR}")),
    ("named", re.compile(rf"(?<![\w]){_MONTH}\s(?P<d>\d{{1,2}})(?:,?\s(?P<y>\d{{4}}))?(?![\d.,])")),
)  # fmt: skip
_BARE_DAY_MONTH = re.compile(r"(?<![\d.,])(?P<d>\d{1,2})\.(?P<m>\d{2})(?![\d.,])")


@dataclass(frozen=True, slots=True)
class DateToken:
    start: int
    end: int
    text: str
    kind: str
    """`dmy`, `ymd`, `named` (day and month known) or `ab` (slashes: order unknown)."""
    first: int
    second: int
    year: int | None

    def resolve(self, month_first: bool, year_hint: date | None) -> date | None:
        """The date, yearless ones in the statement's year (the year before when that
        would put them after the statement's end)."""
        day, month = self.first, self.second
        if self.kind == "ab" and month_first:
            day, month = month, day
        year = self.year if self.year is None or self.year >= 100 else 2000 + self.year
        if year is None:
            if year_hint is None:
                return None
            try:
                candidate = date(year_hint.year, month, day)
            except ValueError:
                return None
            return (
                candidate.replace(year=candidate.year - 1) if candidate > year_hint else candidate
            )
        try:
            return date(year, month, day)
        except ValueError:
            return None


def find_dates(line: str, decimal_comma: bool) -> list[DateToken]:
    found: dict[int, DateToken] = {}
    for kind, pattern in _DATE_PATTERNS:
        for match in pattern.finditer(line):
            token = _date_token(kind, match)
            if token is not None and not any(_overlap(token, other) for other in found.values()):
                found[token.start] = token
    if decimal_comma:
        for match in _BARE_DAY_MONTH.finditer(line):
            token = _date_token("dmy", match)
            if token is not None and not any(_overlap(token, other) for other in found.values()):
                found[token.start] = token
    return [found[key] for key in sorted(found)]


def _overlap(a: DateToken | Money, b: DateToken | Money) -> bool:
    return a.start < b.end and b.start < a.end


def _date_token(kind: str, match: re.Match[str]) -> DateToken | None:
    groups = match.groupdict()
    year = int(groups["y"]) if groups.get("y") else None
    if kind == "named":
        month = MONTH_NAMES.get(groups["name"].lower().rstrip("."))
        if month is None:
            return None
        first, second = int(groups["d"]), month
    elif kind == "ab":
        first, second = int(groups["a"]), int(groups["b"])
        if first > 31 or second > 31 or (first > 12 and second > 12):
            return None
    else:
        first, second = int(groups["d"]), int(groups["m"])
    if kind != "ab" and not (1 <= first <= 31 and 1 <= second <= 12):
        return None
    return DateToken(match.start(), match.end(), match.group(), kind, first, second, year)


_CURRENCY = r"(?:[€$£]|EUR|USD|GBP|SGD|CHF)"
_AMOUNT = re.compile(
    r"(?<![\w.,/'])"
    r"(?P<lead>[-+\u2212]\s{0,2})?"
    rf"(?:{_CURRENCY}\s?)?"
    r"(?P<lead2>[-+\u2212]\s?)?"
    r"(?P<num>\d{1,3}(?:\.\d{3})+(?:,\d{1,2})?|\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?"
    r"|\d{1,3}(?:[ \u00a0\u202f]\d{3})+,\d{2}|\d{1,3}(?:['\u2019]\d{3})+(?:\.\d{2})?"
    r"|\d{1,3}\.\d{3}\.\d{2}|\d+[.,]\d{2})"
    rf"(?:\s?{_CURRENCY})?"
    r"(?P<trail>[-+](?![\d\w])|\s(?:CR|DR|Cr|Dr|S|H)(?![\w]))?"
    r"(?![\d,.])(?!\s?%)"
)
DEBIT_MARKS = frozenset({"S", "DR", "Dr"})
CREDIT_MARKS = frozenset({"H", "CR", "Cr"})


@dataclass(frozen=True, slots=True)
class Money:
    start: int
    end: int
    magnitude: Decimal
    sign: int
    """-1 or +1 when a sign or debit/credit mark was printed, 0 when none."""
    mark: str | None
    comma: bool | None
    """Decimal comma (True), point (False), or unknown (`1,234` without decimals)."""

    @property
    def value(self) -> Decimal:
        return -self.magnitude if self.sign < 0 else self.magnitude


def find_amounts(line: str, decimal_comma: bool | None) -> list[Money]:
    """Amounts in `line`; in a decimal-comma document `07.12` is a date, not an amount."""
    found: list[Money] = []
    for match in _AMOUNT.finditer(line):
        raw = match["num"]
        if decimal_comma and re.fullmatch(r"\d{1,2}\.\d{2}", raw):
            continue
        value = parse_number(raw.replace("\u00a0", " ").replace("\u202f", " "))
        if value is None:
            continue
        sign_text = ((match["lead"] or "") + (match["lead2"] or "")).strip()
        trail = (match["trail"] or "").strip()
        sign = 0
        if sign_text in ("-", "\u2212") or trail == "-" or trail in DEBIT_MARKS:
            sign = -1
        elif sign_text == "+" or trail == "+" or trail in CREDIT_MARKS:
            sign = 1
        mark = trail if trail in DEBIT_MARKS | CREDIT_MARKS else None
        separator = re.search(r"[.,](\d{1,2})$", raw)
        comma = None if separator is None else separator.group().startswith(",")
        found.append(Money(match.start(), match.end(), value, sign, mark, comma))
    return found


_DAY_MONTH = re.compile(r"(0?[1-9]|[12]\d|3[01])\.(0[1-9]|1[0-2])")


def decimal_comma(text: str) -> bool:
    """Whether the document's amounts use a decimal comma: most amounts decide, leaving
    out those that may be dates (`07.12`)."""
    votes = [
        money.comma
        for money in find_amounts(text, None)
        if money.comma is not None and not _DAY_MONTH.fullmatch(_digits(text, money))
    ]
    return sum(votes) * 2 > len(votes)


def _digits(text: str, money: Money) -> str:
    return re.sub(r"[^\d.,]", "", text[money.start : money.end])

"""How banks print dates and amounts: the formats the generated layouts combine."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from decimal import Decimal

DateFormat = Callable[[date], str]
AmountFormat = Callable[[Decimal], str]

EN_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
DE_MONTHS = (
    "Januar",
    "Februar",
    "März",
    "April",
    "Mai",
    "Juni",
    "Juli",
    "August",
    "September",
    "Oktober",
    "November",
    "Dezember",
)
FR_MONTHS = (
    "janv.",
    "févr.",
    "mars",
    "avr.",
    "mai",
    "juin",
    "juil.",
    "août",
    "sept.",
    "oct.",
    "nov.",
    "déc.",
)


DE_ABBREVIATED = (
    "Jan.", "Feb.", "Mrz.", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.", "Dez."
)  # fmt: skip
DE_SHORT = ("Jan", "Feb", "Mär", "Apr", "Mai", "Jun", "Jul", "Aug", "Sep", "Okt", "Nov", "Dez")
NL_SHORT = ("jan", "feb", "mrt", "apr", "mei", "jun", "jul", "aug", "sep", "okt", "nov", "dec")


def d_mon_y_broken_de(value: date) -> str:
    """`22` / `Sept.` / `2025` on three lines (a neobank's date column)."""
    return f"{value.day}\n{DE_ABBREVIATED[value.month - 1]}\n{value.year}"


def d_mon_y_short_de(value: date) -> str:
    """`1 Mär 2025` on one line."""
    return f"{value.day} {DE_SHORT[value.month - 1]} {value.year}"


def mon_d_broken_y(value: date) -> str:
    """`Jan 1` / `2023` on two lines."""
    return f"{EN_MONTHS[value.month - 1]} {value.day}\n{value.year}"


def d_mon_broken_y_nl(value: date) -> str:
    """`1 okt` / `2025` on two lines."""
    return f"{value.day} {NL_SHORT[value.month - 1]}\n{value.year}"


def dmy_dot(value: date) -> str:
    return f"{value:%d.%m.%Y}"


def dmy_dot_short(value: date) -> str:
    return f"{value:%d.%m.%y}"


def dm_dot(value: date) -> str:
    return f"{value:%d.%m.}"


def dm_dot_bare(value: date) -> str:
    return f"{value:%d.%m}"


def dmy_slash(value: date) -> str:
    return f"{value:%d/%m/%Y}"


def dmy_dash(value: date) -> str:
    return f"{value:%d-%m-%Y}"


def md_slash(value: date) -> str:
    return f"{value.month}/{value.day}"


def iso(value: date) -> str:
    return value.isoformat()


def d_mon_y(value: date) -> str:
    return f"{value.day:02d} {EN_MONTHS[value.month - 1]} {value.year}"


def d_mon_yy(value: date) -> str:
    return f"{value.day:02d} {EN_MONTHS[value.month - 1]} {value:%y}"


def d_mon_upper(value: date) -> str:
    return f"{value.day:02d} {EN_MONTHS[value.month - 1].upper()}"


def month_d_y(value: date) -> str:
    return f"{EN_MONTHS[value.month - 1]} {value.day}, {value.year}"


def d_month_de(value: date) -> str:
    return f"{value.day}. {DE_MONTHS[value.month - 1]} {value.year}"


def d_month_fr(value: date) -> str:
    return f"{value.day} {FR_MONTHS[value.month - 1]} {value.year}"


def number(value: Decimal, group: str, decimal: str) -> str:
    """|value| with thousands groups and two decimals: `1.234,56`, `1,234.56`, `1 234,56`."""
    text = f"{abs(value):,.2f}"
    return text.replace(",", "\0").replace(".", decimal).replace("\0", group)


def de(value: Decimal) -> str:
    return number(value, ".", ",")


def en(value: Decimal) -> str:
    return number(value, ",", ".")


def fr(value: Decimal) -> str:
    return number(value, "\u00a0", ",")


def lead_minus(base: AmountFormat) -> AmountFormat:
    return lambda value: f"-{base(value)}" if value < 0 else base(value)


def plus_minus(base: AmountFormat, space: str = "") -> AmountFormat:
    return lambda value: f"{'-' if value < 0 else '+'}{space}{base(value)}"


def trailing_minus(base: AmountFormat) -> AmountFormat:
    return lambda value: f"{base(value)}-" if value < 0 else f"{base(value)} "


def suffix_marks(base: AmountFormat, debit: str, credit: str) -> AmountFormat:
    """`1.234,56 S` / `1.234,56 H`; `12.00 CR` with an empty debit mark."""
    return lambda value: f"{base(value)} {debit if value < 0 else credit}".rstrip()


def currency_before(base: AmountFormat, symbol: str) -> AmountFormat:
    return lambda value: f"{'-' if value < 0 else ''}{symbol}{base(value)}"


def currency_after(
    base: AmountFormat, symbol: str, space: str = " ", plus: bool = False
) -> AmountFormat:
    def format_(value: Decimal) -> str:
        sign = "-" if value < 0 else ("+" if plus else "")
        return f"{sign}{base(value)}{space}{symbol}"

    return format_

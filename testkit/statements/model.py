"""What a generated statement layout is made of: its columns, its words, its formats."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from testkit.statements.data import DataSpec, Kind
from testkit.statements.formats import AmountFormat, DateFormat


class Col(StrEnum):
    BOOKING = "booking"
    VALUE = "value"
    TYPE = "type"
    TEXT = "text"
    AMOUNT = "amount"
    """One signed amount."""
    DEBIT = "debit"
    CREDIT = "credit"
    BALANCE = "balance"
    """The running balance after the row."""
    MARK = "mark"
    """A debit/credit letter beside an unsigned amount (`S`/`H`)."""


@dataclass(frozen=True)
class Column:
    kind: Col
    header: str
    width: float
    """Millimetres."""
    header2: str = ""
    """A second header line under the first."""

    @property
    def right(self) -> bool:
        return self.kind in (Col.AMOUNT, Col.DEBIT, Col.CREDIT, Col.BALANCE)


@dataclass(frozen=True)
class Labels:
    title: str
    """`{number}` is the statement number."""
    period: str
    """`{start}`, `{end}`."""
    account: str
    """`{iban}`."""
    page: str
    """`{page}`; `{nb}` becomes the page count."""
    opening: str | None
    """`{date}` is the day before the period."""
    closing: str | None
    carried: str | None = None
    """Printed with the balance at the foot of every page but the last."""
    brought: str | None = None
    """Printed with the balance at the head of every page but the first."""
    footer: str = ""


class Balances(StrEnum):
    TOP = "top"
    """Opening and closing balance in the header, above the table."""
    TABLE = "table"
    """As the first and last rows of the table."""
    SUMMARY = "summary"
    """A small table: labels as column heads, values on the row below."""
    NONE = "none"


class Counterparty(StrEnum):
    INLINE = "inline"
    """`Lastschrift Stadtwerke` on the first line."""
    BELOW = "below"
    """The booking type alone on the first line, the name on the second."""
    PLAIN = "plain"
    """The name alone (the type in its own column, or not printed)."""


@dataclass(frozen=True)
class Layout:
    name: str
    bank: str
    data: DataSpec
    columns: tuple[Column, ...]
    dates: DateFormat
    amount: AmountFormat
    """Signed amounts (`AMOUNT` column) and balances."""
    labels: Labels
    types: Mapping[Kind, str]
    iban: Callable[[str], str]
    counterparty: Counterparty = Counterparty.INLINE
    balances: Balances = Balances.TOP
    unsigned: AmountFormat | None = None
    """Amounts in debit/credit columns (default: `amount` of the absolute value)."""
    value_dates: DateFormat | None = None
    period_dates: DateFormat | None = None
    """The statement period in the header (default: `dates`)."""
    value_stacked: bool = False
    """The value date under the booking date, in its column."""
    sparse_balance: bool = False
    """The running balance only on a day's last row."""
    marks: tuple[str, str] = ("S", "H")
    owed: bool = False
    """A card printed from the issuer's side: purchases positive, payments credited."""
    font: str = "helvetica"
    size: float = 8.5
    held_out: bool = False
    """Kept out of the development loop: the honest check of the reader."""
    scan: bool = False
    """Also measured as a scan (OCR)."""

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
    OVERVIEW = "overview"
    """Only in the overview's product table (`Overview`), the cash account's row."""
    NONE = "none"


class Counterparty(StrEnum):
    INLINE = "inline"
    """`Lastschrift Stadtwerke` on the first line."""
    BELOW = "below"
    """The booking type alone on the first line, the name on the second."""
    PLAIN = "plain"
    """The name alone (the type in its own column, or not printed)."""


@dataclass(frozen=True)
class Holding:
    """An asset line beside the cash (`Gold 0.000 gr`, `Aktien 1.234,56 €`)."""

    name: str
    quantity: str = ""
    value: str = ""
    """As printed; empty where none is printed."""
    when: str = ""
    """The date of the price (a holdings table's first column), if printed."""


@dataclass(frozen=True)
class Overview:
    """A broker's or neobank's summary (issue 40, class 2): the products with their
    opening, money in, money out and closing (the cash account among them), and asset
    lines; on a first page of its own, or above the cash table."""

    title: str
    headers: tuple[str, str, str, str, str]
    """Product, opening, money in, money out, closing."""
    cash: str
    """The cash account's product name."""
    others: tuple[tuple[str, str, str], ...] = ()
    """Other products: name, opening and closing as printed (no money moved)."""
    assets_title: str = ""
    assets_header: tuple[str, str, str, str] = ("", "", "", "")
    """Over dated holdings: date, name, quantity, value."""
    assets: tuple[Holding, ...] = ()
    cash_asset: str = ""
    """The cash among the assets, with the closing balance (`Cash`); empty: not listed."""
    own_page: bool = True
    """The cash table starts on the next page."""
    assets_after: bool = False
    """The asset lines follow the cash table (on its last page) instead."""
    side: float = 0
    """When set: the asset lines in a box this far (mm) right of the margin, on the
    product table's lines (beside the cash)."""
    widths: tuple[float, float] = (60, 32)
    """The product table's name column and each amount column (mm)."""


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
    overview: Overview | None = None

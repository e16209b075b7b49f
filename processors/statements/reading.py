"""A statement's transactions and balances from its table (`table.find_table`).

- A transaction is a table row and the lines below it up to the next row, a balance or
  totals line, a repeated table header, the end of the page, or a line that leaves the
  text column (starts in the date column, or reaches into the amount columns): footers
  and letter text are never purpose lines. A date alone at the start of the first line
  below a row is the value date (printed under the booking date).
- The amount's sign: a debit or credit column gives it; in a single amount column the
  printed sign or mark (`-`, `12,00-`, `S`/`H`, `DR`/`CR`); unsigned amounts in a column
  whose other amounts are marked `CR` are debits (card statements), and a running
  balance gives the sign of any amount printed without one, and the amount of a row
  whose amount cell was lost (OCR drops cells) but whose balance was read.
- Balances: the amount after (or below) an opening and a closing label; a neutral label
  (`Kontostand am 28.02.`) is the opening when first and the closing when last. Without
  labels, a running balance column gives both. A card statement prints what is owed:
  when the balances reconcile only negated, they are read negated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal

from processors.statements.lines import Kind, Line, Piece
from processors.statements.table import TOLERANCE, Column, Table, header_roles, is_label
from processors.statements.tokens import DateToken
from processors.statements.vocabulary import CLOSING, NEUTRAL_BALANCE, OPENING, Role


@dataclass(slots=True)
class Transaction:
    booking: str
    value: str | None
    amount: Decimal
    first_line: str
    purpose: list[str] = field(default_factory=list)
    booking_token: DateToken | None = None
    value_token: DateToken | None = None
    balance: Decimal | None = None
    """The running balance printed on the row, if any."""
    printed_sign: int | None = None
    """In a single amount column: -1/+1 as printed (sign or mark), 0 when none; None
    when a debit or credit column gives the sign."""
    missing: bool = False
    """No amount read on the row (OCR lost the cell), only its running balance."""


@dataclass(frozen=True, slots=True)
class Reading:
    transactions: tuple[Transaction, ...]
    opening: Decimal | None
    closing: Decimal | None

    @property
    def reconciled(self) -> bool | None:
        if self.opening is None or self.closing is None:
            return None
        total = sum((t.amount for t in self.transactions), Decimal(0))
        return self.opening + total == self.closing


def transactions(
    lines: list[Line], table: Table, opening: Decimal | None = None
) -> list[Transaction]:
    found: list[Transaction] = []
    current: Transaction | None = None
    page = -1
    for index, line in enumerate(lines):
        if line.page != page:
            current, page = None, line.page
        if index in table.rows:
            current = _start(line, table)
            if current is not None:
                found.append(current)
            continue
        if current is None or not _continues(line, table, index, current):
            current = None
            continue
        _add(current, line, table)
    _resolve_signs(found, opening)
    return [t for t in found if not t.missing]


def _start(line: Line, table: Table) -> Transaction | None:
    dates = line.zone_dates
    booking = _date_at(dates, table.booking) or dates[0]
    value = _date_at(dates, table.value) if table.value else None
    if value is None:
        value = next((d for d in dates if d is not booking), None)
    amount, balance, printed_sign = _row_amount(line, table)
    if amount is None and balance is None:
        return None
    assert booking.date is not None
    return Transaction(
        booking.text,
        value.text if value else None,
        Decimal(0) if amount is None else amount,
        line.description,
        booking_token=booking.date,
        value_token=value.date if value else None,
        balance=balance,
        printed_sign=printed_sign,
        missing=amount is None,
    )


def _date_at(dates: list[Piece], column: Column | None) -> Piece | None:
    if column is None:
        return None
    return next((d for d in dates if abs(d.start - column.left) <= TOLERANCE), None)


def _row_amount(line: Line, table: Table) -> tuple[Decimal | None, Decimal | None, int | None]:
    amount: Decimal | None = None
    balance: Decimal | None = None
    printed_sign: int | None = None
    for piece in line.zone_amounts:
        column = table.column_of(piece)
        if column is None or piece.money is None:
            continue
        money = piece.money
        sign = money.sign or line.mark_after(piece)
        if column.role is Role.BALANCE:
            balance = -money.magnitude if sign < 0 else money.magnitude
        elif amount is None and sign == 0 and column.role is Role.DEBIT:
            amount = -money.magnitude
        elif amount is None and sign == 0 and column.role is Role.CREDIT:
            amount = money.magnitude
        elif amount is None:
            amount = -money.magnitude if sign < 0 else money.magnitude
            printed_sign = sign
    return amount, balance, printed_sign


def _continues(line: Line, table: Table, index: int, current: Transaction) -> bool:
    if index in table.headers or is_label(line) or header_roles(line) or not line.pieces:
        return False
    if any(table.column_of(piece) for piece in line.zone_amounts):
        return False  # a totals row
    first = line.pieces[0]
    in_date_column = _date_at([first], table.booking) or _date_at([first], table.value)
    if first.kind is Kind.DATE and in_date_column and current.value is None:
        return not current.purpose  # the value date under the booking date
    return line.start > table.text_left and line.pieces[-1].end <= table.text_right + TOLERANCE


def _add(current: Transaction, line: Line, table: Table) -> None:
    pieces = list(line.pieces)
    first = pieces[0]
    if first.kind is Kind.DATE and current.value is None and not current.purpose:
        current.value, current.value_token = first.text, first.date
        pieces = pieces[1:]
    text = " ".join(" ".join(p.text.split()) for p in pieces)
    if text:
        current.purpose.append(text)


def _resolve_signs(found: list[Transaction], opening: Decimal | None) -> None:
    """Signs for amounts printed without one: from the running balance (the first from
    the opening balance), else from the column's convention (unsigned beside only
    credit-marked amounts are debits)."""
    previous = opening
    for transaction in found:
        if transaction.missing and transaction.balance is not None and previous is not None:
            transaction.amount, transaction.missing = transaction.balance - previous, False
        unsigned = transaction.printed_sign == 0
        if transaction.balance is not None and previous is not None and unsigned:
            if transaction.balance - previous == -transaction.amount:
                transaction.amount, transaction.printed_sign = -transaction.amount, -1
            elif transaction.balance - previous == transaction.amount:
                transaction.printed_sign = 1
        if transaction.balance is not None:
            previous = transaction.balance
        elif previous is not None:
            previous = None if unsigned else previous + transaction.amount
    _debits_beside_credit_marks(found)


def _debits_beside_credit_marks(found: list[Transaction]) -> None:
    signs = {t.printed_sign for t in found if t.printed_sign}
    if signs == {1}:
        for transaction in found:
            if transaction.printed_sign == 0:
                transaction.amount = -transaction.amount


def opening_balance(lines: list[Line]) -> Decimal | None:
    """The opening balance as printed (before a card's perspective is known)."""
    found = _labelled(lines, OPENING, last=False)
    return found[1] if found else None


def balances(lines: list[Line], found: list[Transaction]) -> tuple[Decimal | None, Decimal | None]:
    opening = _labelled(lines, OPENING, last=False)
    closing = _labelled(lines, CLOSING, last=True)
    neutral = [
        v for v in (_labelled_value(lines, i, NEUTRAL_BALANCE) for i in range(len(lines))) if v
    ]
    if opening is None and neutral and (closing is None or neutral[0][0] < closing[0]):
        opening = neutral[0]
    if closing is None and neutral and (opening is None or neutral[-1][0] > opening[0]):
        closing = neutral[-1]
    if opening is None and closing is None:
        return _from_running_balance(found)
    return _perspective(opening and opening[1], closing and closing[1], found)


def _labelled(lines: list[Line], label: re.Pattern[str], last: bool) -> tuple[int, Decimal] | None:
    order = range(len(lines) - 1, -1, -1) if last else range(len(lines))
    for index in order:
        found = _labelled_value(lines, index, label)
        if found is not None:
            return found
    return None


def _labelled_value(
    lines: list[Line], index: int, label: re.Pattern[str]
) -> tuple[int, Decimal] | None:
    """The amount after the label on its line, else below it in the same column."""
    line = lines[index]
    match = label.search(line.text)
    if match is None:
        return None
    after = [p for p in line.pieces if p.kind is Kind.AMOUNT and p.start >= match.end()]
    if after and after[0].money is not None:
        return index, _balance_value(line, after[0])
    if index + 1 < len(lines) and lines[index + 1].page == line.page:
        below = lines[index + 1]
        aligned = [p for p in below.pieces if p.kind is Kind.AMOUNT and p.end >= match.start()]
        if aligned and not below.zone_dates:
            return index, _balance_value(below, _under(aligned, match.start(), match.end()))
    return None


def _under(amounts: list[Piece], start: int, end: int) -> Piece:
    """The amount in the label's column: of those under the label, the one whose right
    edge is nearest the label's (a product table's headers stand close together, and an
    asset box may follow on the same line); else the first after the label's start."""
    under = [p for p in amounts if p.start < end and start < p.end]
    return min(under, key=lambda p: abs(p.end - end)) if under else amounts[0]


def _balance_value(line: Line, piece: Piece) -> Decimal:
    assert piece.money is not None
    sign = piece.money.sign or line.mark_after(piece)
    return -piece.money.magnitude if sign < 0 else piece.money.magnitude


def _from_running_balance(found: list[Transaction]) -> tuple[Decimal | None, Decimal | None]:
    with_balance = [t for t in found if t.balance is not None]
    if not with_balance or found[0].balance is None:
        return None, None
    first, last = found[0], with_balance[-1]
    assert first.balance is not None
    return first.balance - first.amount, last.balance


def _perspective(
    opening: Decimal | None, closing: Decimal | None, found: list[Transaction]
) -> tuple[Decimal | None, Decimal | None]:
    """Balances as printed, or negated when only that reconciles (what a card owes)."""
    if opening is None or closing is None:
        return opening, closing
    total = sum((t.amount for t in found), Decimal(0))
    if opening + total != closing and -opening + total == -closing:
        return -opening, -closing
    return opening, closing

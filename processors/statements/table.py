"""Finding a statement's transaction table from the evidence on the page, whatever the
bank: a table row is a line whose cells at the start or the end (`lines.Line`) hold a
date and an amount, and whose date lines up with the dates of most other such rows.

Columns are the x positions (character columns of the layout text) where those cells
line up: dates by their left edge, amounts by their right edge. A column's role (booking
or value date; single signed amount, debit, credit, running balance) comes from the
header word above it in six languages; without one, from the numbers themselves: a
column that equals the previous balance plus the row's amount is the running balance,
and two columns of which each row fills exactly one are debit and credit.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from processors.statements.lines import Kind, Line, Piece
from processors.statements.vocabulary import (
    CARRY,
    CLOSING,
    HEADER_TEXT,
    HEADER_WORDS,
    NEUTRAL_BALANCE,
    OPENING,
    PAGE_MARK,
    SUMMARY,
    Role,
)

TOLERANCE = 3
"""Characters a column's cells may stray (OCR layout text strays most)."""
HEADER_REACH = 4
"""Lines above a page's first row searched for the table header."""
HEADER_DISTANCE = 8
RUNNING_SHARE = 0.8
"""Share of consecutive rows whose balances differ by the row's amount."""
AMOUNT_ROLES = (Role.AMOUNT, Role.DEBIT, Role.CREDIT, Role.BALANCE)


@dataclass
class Column:
    left: int
    right: int
    count: int
    role: Role | None = None


@dataclass
class Table:
    rows: set[int]
    booking: Column
    value: Column | None
    amounts: list[Column]
    text_left: int
    """Continuation lines start right of this (-1: anywhere)."""
    text_right: int
    """...and end before this."""
    headers: set[int] = field(default_factory=set)

    def column_of(self, piece: Piece) -> Column | None:
        for column in self.amounts:
            if piece.start < column.right and column.left < piece.end:
                return column
        return None


def is_balance(line: Line) -> bool:
    """A balance or carry-over line: never a transaction, and it ends one."""
    text = line.text
    if OPENING.search(text) or CLOSING.search(text):
        return True
    return bool(line.zone_amounts) and bool(NEUTRAL_BALANCE.search(text) or CARRY.search(text))


def is_label(line: Line) -> bool:
    """A balance, carry-over or totals line, or a page number: it ends a transaction."""
    if is_balance(line) or PAGE_MARK.search(line.text):
        return True
    return bool(SUMMARY.search(line.text) and line.zone_amounts)


def header_roles(line: Line) -> list[tuple[int, int, Role]]:
    """(start, end, role) of the header words on a line that reads as a table header:
    two or more header words, no amounts."""
    if line.zone_amounts or any(p.kind is Kind.AMOUNT for p in line.pieces):
        return []
    found: list[tuple[int, int, Role]] = []
    for role, pattern in HEADER_WORDS.items():
        for match in pattern.finditer(line.text):
            if not any(match.start() < end and start < match.end() for start, end, _ in found):
                found.append((match.start(), match.end(), role))
    texts = len(HEADER_TEXT.findall(line.text))
    return found if len(found) + texts >= 2 else []


def find_table(lines: list[Line], excluded: frozenset[int] = frozenset()) -> Table | None:
    """The transaction table; a block of rows without a running balance where the
    table's other blocks have one is left out (`_blocks_without_balance`)."""
    table = _table(lines, excluded)
    if table is None or excluded:
        return table
    foreign = _blocks_without_balance(lines, table)
    return _table(lines, frozenset(foreign)) if foreign else table


def _table(lines: list[Line], excluded: frozenset[int]) -> Table | None:
    candidates = [
        index
        for index, line in enumerate(lines)
        if line.zone_dates and line.zone_amounts and not is_balance(line) and index not in excluded
    ]
    if not candidates:
        return None
    booking = _best_cluster(lines[i].zone_dates[0].start for i in candidates)
    rows = {i for i in candidates if abs(lines[i].zone_dates[0].start - booking) <= TOLERANCE}
    headers, words = _headers(lines, rows)
    amounts = _amount_columns([lines[i] for i in sorted(rows)], words)
    if not amounts:
        return None
    value = _value_column(lines, rows, booking)
    booking_column = Column(booking, booking, len(rows))
    table = Table(rows, booking_column, value, amounts, -1, _text_right(lines, rows, amounts))
    if all(lines[i].lead and lines[i].lead[0].kind is Kind.DATE for i in rows):
        table.text_left = booking + TOLERANCE
    table.headers = headers
    _apply_roles(table, words)
    if len(amounts) >= 2 and all(column.role is None for column in amounts):
        _roles_from_numbers(lines, table)
    return table


def _blocks_without_balance(lines: list[Line], table: Table) -> set[int]:
    """Rows of blocks none of whose rows prints an amount and the running balance (the
    balance column most rows fill), when another block's rows do: a broker's holdings or asset
    lines (a date, a name, a quantity, a value), not bookings. A block is a run of rows
    on one page that no table header or line starting left of the text column (a
    heading) interrupts."""
    balances = [c for c in table.amounts if c.role is Role.BALANCE]
    if not balances:
        return set()
    balance = max(balances, key=lambda column: column.count)
    blocks = _blocks(lines, table)
    filled = [any(_books(lines[i], table, balance) for i in block) for block in blocks]
    if not any(filled):
        return set()
    return {i for block, ok in zip(blocks, filled, strict=True) if not ok for i in block}


def _books(line: Line, table: Table, balance: Column) -> bool:
    """An amount and the running balance after it on the row."""
    columns = [table.column_of(piece) for piece in line.zone_amounts]
    return any(c is balance for c in columns) and any(c not in (None, balance) for c in columns)


def _blocks(lines: list[Line], table: Table) -> list[list[int]]:
    blocks: list[list[int]] = []
    previous = -1
    for index in sorted(table.rows):
        between = lines[previous + 1 : index] if previous >= 0 else []
        same_page = previous >= 0 and lines[previous].page == lines[index].page
        if same_page and not any(_interrupts(line, table) for line in between):
            blocks[-1].append(index)
        else:
            blocks.append([index])
        previous = index
    return blocks


def _interrupts(line: Line, table: Table) -> bool:
    if header_roles(line):
        return True
    heading = line.pieces and line.pieces[0].kind is Kind.TEXT
    return bool(heading) and table.text_left >= 0 and line.start <= table.text_left


def _clusters(positions: Iterable[int]) -> list[tuple[int, int]]:
    """(position, count) of positions within `TOLERANCE` of each other, most first."""
    counts = Counter(positions)
    clusters: list[tuple[int, int]] = []
    for position, _ in counts.most_common():
        if any(abs(position - other) <= TOLERANCE for other, _ in clusters):
            continue
        near = sum(c for p, c in counts.items() if abs(p - position) <= TOLERANCE)
        clusters.append((position, near))
    return sorted(clusters, key=lambda item: (-item[1], item[0]))


def _best_cluster(positions: Iterable[int]) -> int:
    return _clusters(positions)[0][0]


def _amount_columns(rows: list[Line], words: list[tuple[int, int, Role]]) -> list[Column]:
    """Amounts whose spans overlap form a column (right-aligned amounts of different
    lengths overlap at their right); a column needs two rows, or a header word with an
    amount role above it, or to hold the only amount of a row."""
    spans = sorted((p.start, p.end) for line in rows for p in line.zone_amounts)
    merged: list[Column] = []
    for start, end in spans:
        if merged and start <= merged[-1].right:
            merged[-1].right = max(merged[-1].right, end)
            merged[-1].count += 1
        else:
            merged.append(Column(start, end, 1))
    minimum = 1 if len(rows) <= 3 else 2
    headed = [(s, e) for s, e, role in words if role in AMOUNT_ROLES]
    kept = [
        column
        for column in merged
        if column.count >= minimum or any(_near(column, s, e) for s, e in headed)
    ]
    for line in rows:
        if not any(_overlaps(p, column) for p in line.zone_amounts for column in kept):
            last = line.zone_amounts[-1]
            kept.extend(c for c in merged if _overlaps(last, c) and c not in kept)
    return sorted(kept, key=lambda column: column.right)


def _near(column: Column, start: int, end: int) -> bool:
    return max(0, start - column.right, column.left - end) <= HEADER_DISTANCE


def _overlaps(piece: Piece, column: Column) -> bool:
    return piece.start < column.right and column.left < piece.end


def _value_column(lines: list[Line], rows: set[int], booking: int) -> Column | None:
    others = [
        piece.start
        for i in rows
        for piece in lines[i].zone_dates[1:]
        if abs(piece.start - booking) > TOLERANCE
    ]
    if not others:
        return None
    position, count = _clusters(others)[0]
    return Column(position, position, count)


def _text_right(lines: list[Line], rows: set[int], amounts: list[Column]) -> int:
    """Where the trailing cells begin: text never reaches into them."""
    starts = [lines[i].trail[0].start for i in rows if lines[i].trail]
    leftmost_amount = min(column.left for column in amounts)
    return min([*starts, leftmost_amount])


def _headers(lines: list[Line], rows: set[int]) -> tuple[set[int], list[tuple[int, int, Role]]]:
    """The header lines above each page's first row, and their words with roles."""
    headers: set[int] = set()
    words: list[tuple[int, int, Role]] = []
    for first in _first_rows_of_pages(lines, rows):
        for index in range(max(0, first - HEADER_REACH), first):
            found = header_roles(lines[index])
            if found:
                headers.add(index)
                words.extend(found)
    return headers, words


def _apply_roles(table: Table, words: list[tuple[int, int, Role]]) -> None:
    date_roles = (Role.BOOKING, Role.VALUE)
    for column in table.amounts:
        column.role = _nearest_role(words, column, AMOUNT_ROLES)
    booking_role = _nearest_role(words, table.booking, date_roles)
    value_role = _nearest_role(words, table.value, date_roles) if table.value else None
    if table.value is not None and booking_role is Role.VALUE and value_role is not Role.VALUE:
        table.booking, table.value = table.value, table.booking


def _roles_from_numbers(lines: list[Line], table: Table) -> None:
    """Without header words: the rightmost column is the running balance when each of
    its values differs from the one before by the row's other amount; of two columns
    left beside it, the first is debit and the second credit."""
    *others, last = table.amounts
    pairs: list[tuple[Decimal, Decimal]] = []
    for index in sorted(table.rows):
        cells = {id(table.column_of(p)): p.money for p in lines[index].zone_amounts if p.money}
        balance, amount = (
            cells.get(id(last)),
            next((cells[id(c)] for c in others if id(c) in cells), None),
        )
        if balance is not None and amount is not None:
            pairs.append((balance.value, amount.magnitude))
    steps = [abs(b - a) == m for (a, _), (b, m) in itertools.pairwise(pairs)]
    if not steps or sum(steps) < RUNNING_SHARE * len(steps):
        return
    last.role = Role.BALANCE
    if len(others) == 1:
        others[0].role = Role.AMOUNT
    elif len(others) == 2:
        others[0].role, others[1].role = Role.DEBIT, Role.CREDIT


def _first_rows_of_pages(lines: list[Line], rows: set[int]) -> list[int]:
    firsts: dict[int, int] = {}
    for index in sorted(rows):
        firsts.setdefault(lines[index].page, index)
    return list(firsts.values())


def _nearest_role(
    words: list[tuple[int, int, Role]], column: Column, roles: tuple[Role, ...]
) -> Role | None:
    best: tuple[int, Role] | None = None
    for start, end, role in words:
        if role not in roles:
            continue
        distance = max(0, start - column.right, column.left - end)
        if distance <= HEADER_DISTANCE and (best is None or distance < best[0]):
            best = (distance, role)
    return best[1] if best else None

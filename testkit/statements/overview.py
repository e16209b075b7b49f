"""A broker's or neobank's overview drawn as cells (issue 40, class 2): the product
table whose cash row carries the statement's balances, and the asset lines (`Cash`,
`Gold 0.000 gr`, holdings) that are no bookings."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from testkit.statements.data import Statement
from testkit.statements.model import Overview

Cell = tuple[float, str, bool, float]
"""x from the left margin (mm), text, bold, width of a right-aligned cell (0: left)."""
VALUE_AT = 92.0
VALUE_WIDTH = 32.0
QUANTITY_AT = 60.0
DATED_NAME_AT = 22.0
SIDE = (18.0, 18.0, 30.0)
"""In a side box: the quantity's x, the value's x and width."""


def product_lines(
    overview: Overview, statement: Statement, money: Callable[[Decimal], str]
) -> list[list[Cell]]:
    """The title, the product table's header, the cash row, the other products."""
    moved = [t.amount for t in statement.transactions]
    money_in = sum((a for a in moved if a > 0), Decimal(0))
    money_out = -sum((a for a in moved if a < 0), Decimal(0))
    cash = (statement.opening, money_in, money_out, statement.closing)
    lines: list[list[Cell]] = [[(0, overview.title, True, 0)]]
    lines.append(_row(overview, overview.headers[0], overview.headers[1:], bold=True))
    lines.append(_row(overview, overview.cash, tuple(money(v) for v in cash)))
    zero = money(Decimal(0))
    for name, opening, closing in overview.others:
        lines.append(_row(overview, name, (opening, zero, zero, closing)))
    return lines


def beside(left: list[list[Cell]], right: list[list[Cell]], x: float) -> list[list[Cell]]:
    """The right lines moved `x` to the right, from the left's second line on."""
    moved = [[(x + at, text, bold, width) for at, text, bold, width in r] for r in right]
    merged = [list(line) for line in left]
    merged.extend([] for _ in range(len(moved) + 1 - len(merged)))
    for index, cells in enumerate(moved, start=1):
        merged[index].extend(cells)
    return merged


def asset_lines(
    overview: Overview, statement: Statement, money: Callable[[Decimal], str]
) -> list[list[Cell]]:
    """The assets' title and one line per asset: name, quantity, value (closer together
    in a side box)."""
    quantity_at, value_at, value_width = (
        SIDE if overview.side else (QUANTITY_AT, VALUE_AT, VALUE_WIDTH)
    )
    if not overview.assets and not overview.cash_asset:
        return []
    lines: list[list[Cell]] = [[(0, overview.assets_title, True, 0)]]
    if any(overview.assets_header):
        when, name, quantity, value = overview.assets_header
        header = [(0, when, True, 0.0), (DATED_NAME_AT, name, True, 0.0)]
        lines.append(
            [*header, (QUANTITY_AT, quantity, True, 0), (VALUE_AT, value, True, VALUE_WIDTH)]
        )
    if overview.cash_asset:
        value = money(statement.closing)
        lines.append([(0, overview.cash_asset, False, 0), (value_at, value, False, value_width)])
    for holding in overview.assets:
        cells: list[Cell] = [(0, holding.name, False, 0)]
        if holding.when:
            cells = [(0, holding.when, False, 0), (DATED_NAME_AT, holding.name, False, 0)]
        if holding.quantity:
            cells.append((quantity_at, holding.quantity, False, 0))
        if holding.value:
            cells.append((value_at, holding.value, False, value_width))
        lines.append(cells)
    return lines


def _row(overview: Overview, name: str, values: tuple[str, ...], bold: bool = False) -> list[Cell]:
    name_width, width = overview.widths
    cells: list[Cell] = [(0, name, bold, 0)]
    for index, value in enumerate(values):
        cells.append((name_width + index * width, value, bold, width))
    return cells

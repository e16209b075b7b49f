"""A layout and its data drawn as a PDF (fpdf2 core fonts, Windows-1252 for `€`), with
the truth the reader is measured against: the text each transaction prints."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal

from fpdf import FPDF

from testkit.statements.data import Statement, Transaction, build_statement
from testkit.statements.model import Balances, Col, Counterparty, Layout
from testkit.statements.overview import Cell, asset_lines, beside, product_lines

LEFT = 15.0
TOP = 15.0
BOTTOM = 272.0
Row = dict[Col, str]


@dataclass(frozen=True)
class Rendered:
    layout: Layout
    statement: Statement
    pdf: bytes
    texts: tuple[str, ...]
    """Per transaction: its printed text (type, name, purpose lines, IBAN) joined by spaces."""
    balances_printed: bool


def render(layout: Layout, seed: int = 1) -> Rendered:
    statement = build_statement(layout.data, seed)
    blocks = [_block(layout, statement, index) for index in range(len(statement.transactions))]
    texts = tuple(" ".join(_row_text(row) for row in block if _row_text(row)) for block in blocks)
    pdf = _Drawing(layout, statement).draw(blocks)
    return Rendered(layout, statement, pdf, texts, layout.balances is not Balances.NONE)


def _row_text(row: Row) -> str:
    return " ".join(row[kind] for kind in (Col.TYPE, Col.TEXT) if row.get(kind))


def printed(layout: Layout, value: Decimal) -> Decimal:
    """A value as the layout prints it (a card issuer prints what is owed)."""
    return -value if layout.owed else value


def _block(layout: Layout, statement: Statement, index: int) -> list[Row]:
    transaction = statement.transactions[index]
    kinds = {column.kind for column in layout.columns}
    lines = _text_lines(layout, transaction, Col.TYPE in kinds)
    first: Row = {Col.BOOKING: layout.dates(transaction.booking), Col.TEXT: lines[0]}
    value_format = layout.value_dates or layout.dates
    if Col.VALUE in kinds:
        first[Col.VALUE] = value_format(transaction.value)
    if Col.TYPE in kinds:
        first[Col.TYPE] = layout.types[transaction.kind]
    first.update(_amount_cells(layout, transaction.amount))
    balance = statement.balances()[index]
    if Col.BALANCE in kinds and not (layout.sparse_balance and _same_day_follows(statement, index)):
        first[Col.BALANCE] = layout.amount(printed(layout, balance))
    rows = [first, *({Col.TEXT: line} for line in lines[1:])]
    _broken_date(rows)
    if layout.value_stacked:
        if len(rows) == 1:
            rows.append({Col.TEXT: ""})
        rows[1][Col.BOOKING] = value_format(transaction.value)
    return rows


def _broken_date(rows: list[Row]) -> None:
    """A booking date printed over lines (`22` / `Sept.` / `2025`): its parts go down the
    date column, on the block's next lines (empty ones added when it has too few)."""
    parts = rows[0][Col.BOOKING].split("\n")
    rows.extend({Col.TEXT: ""} for _ in range(len(parts) - len(rows)))
    for row, part in zip(rows, parts, strict=False):
        row[Col.BOOKING] = part


def _same_day_follows(statement: Statement, index: int) -> bool:
    following = statement.transactions[index + 1 : index + 2]
    return bool(following) and following[0].booking == statement.transactions[index].booking


def _text_lines(layout: Layout, transaction: Transaction, type_column: bool) -> list[str]:
    kind_word = layout.types[transaction.kind]
    name = transaction.counterparty
    if type_column or layout.counterparty is Counterparty.PLAIN:
        head = [name]
    elif layout.counterparty is Counterparty.BELOW:
        head = [kind_word, name]
    else:
        head = [f"{kind_word} {name}"]
    tail = [layout.iban(transaction.iban)] if transaction.iban else []
    return [*head, *transaction.purpose, *tail]


def _amount_cells(layout: Layout, amount: Decimal) -> Row:
    value = printed(layout, amount)
    kinds = {column.kind for column in layout.columns}
    cells: Row = {}
    if Col.AMOUNT in kinds:
        marked = Col.MARK in kinds and layout.unsigned is not None
        if marked and layout.unsigned is not None:
            cells[Col.AMOUNT] = layout.unsigned(abs(value))
        else:
            cells[Col.AMOUNT] = layout.amount(value)
    else:
        unsigned = layout.unsigned or (lambda v: layout.amount(abs(v)))
        cells[Col.DEBIT if amount < 0 else Col.CREDIT] = unsigned(value)
    if Col.MARK in kinds:
        cells[Col.MARK] = layout.marks[0] if amount < 0 else layout.marks[1]
    return cells


class _Drawing:
    def __init__(self, layout: Layout, statement: Statement) -> None:
        self.layout, self.statement = layout, statement
        self.pdf = FPDF(format="A4")
        self.pdf.core_fonts_encoding = "windows-1252"
        self.pdf.set_auto_page_break(auto=False)
        self.pdf.alias_nb_pages()
        self.line = layout.size * 0.45
        self.y = TOP
        self.page = 0
        self.running = statement.opening

    def draw(self, blocks: list[list[Row]]) -> bytes:
        self._new_page()
        self._balance_row(self.layout.labels.opening, self.statement.opening, closing=False)
        for index, block in enumerate(blocks):
            reserve = 2 if self.layout.labels.carried else 0
            if self.y + (len(block) + reserve) * self.line > BOTTOM - 8:
                self._carry(self.layout.labels.carried)
                self._footer()
                self._new_page()
                self._carry(self.layout.labels.brought)
            for row in block:
                self._row(row)
            self.running += self.statement.transactions[index].amount
        self._balance_row(self.layout.labels.closing, self.statement.closing, closing=True)
        overview = self.layout.overview
        if overview is not None and overview.assets_after:
            self._assets_after()
        self._footer()
        return bytes(self.pdf.output())

    def _cells(self, lines: list[list[Cell]]) -> None:
        if not lines:
            return
        for cells in lines:
            for x, text, bold, width in cells:
                self._text(LEFT + x, text, bold=bold, width=width)
            self._next()
        self._next()

    def _overview_page(self) -> bool:
        """The overview on the first page; True when the table starts on the next."""
        overview = self.layout.overview
        if overview is None:
            return False
        products = product_lines(overview, self.statement, self._money)
        assets = [] if overview.assets_after else asset_lines(overview, self.statement, self._money)
        if overview.side:
            self._cells(beside(products, assets, overview.side))
        else:
            self._cells(products)
            self._cells(assets)
        if not overview.own_page:
            return False
        self._footer()
        self._new_page()
        return True

    def _assets_after(self) -> None:
        assert self.layout.overview is not None
        lines = asset_lines(self.layout.overview, self.statement, self._money)
        if self.y + (len(lines) + 2) * self.line > BOTTOM - 8:
            self._footer()
            self._new_page()
        self._next()
        self._cells(lines)

    def _text(self, x: float, text: str, bold: bool = False, width: float = 0) -> None:
        self.pdf.set_font(self.layout.font, style="B" if bold else "", size=self.layout.size)
        self.pdf.set_xy(x, self.y)
        align = "R" if width else "L"
        self.pdf.cell(width or self.pdf.get_string_width(text) + 1, self.line, text, align=align)

    def _next(self, lines: float = 1) -> None:
        self.y += self.line * lines

    def _new_page(self) -> None:
        self.pdf.add_page()
        self.page += 1
        self.y = TOP
        layout, labels, statement = self.layout, self.layout.labels, self.statement
        self._text(LEFT, layout.bank, bold=True)
        self._next(1.5)
        title = labels.title.format(number=statement.number)
        if self.page == 1:
            for text in (statement.holder, "Lindenallee 12", "10115 Berlin"):
                self._text(LEFT, text)
                self._next()
            self._next()
            self._text(LEFT, title, bold=True)
            self._next()
            dates = layout.period_dates or layout.dates
            start, end = dates(statement.start), dates(statement.end)
            self._text(LEFT, labels.period.format(start=start, end=end))
            self._next()
            self._text(LEFT, labels.account.format(iban=_grouped(statement.account_iban)))
            self._next(1.5)
            self._top_balances()
            if self._overview_page():
                return
        else:
            self._text(LEFT, title)
            self._next(1.5)
        self._table_header()

    def _top_balances(self) -> None:
        labels, statement = self.layout.labels, self.statement
        if self.layout.balances is Balances.TOP:
            pairs = ((labels.opening, statement.opening), (labels.closing, statement.closing))
            for index, (label, value) in enumerate(pairs):
                assert label is not None
                self._text(LEFT, self._label(label, closing=index == 1))
                self._text(LEFT + 70, self._money(value), width=40)
                self._next()
            self._next()
        elif self.layout.balances is Balances.SUMMARY:
            assert labels.opening is not None and labels.closing is not None
            for index, label in enumerate((labels.opening, labels.closing)):
                self._text(LEFT + 50 * index, self._label(label, closing=index == 1))
            self._next()
            for index, value in enumerate((statement.opening, statement.closing)):
                self._text(LEFT + 50 * index, self._money(value))
            self._next(2)

    def _label(self, label: str, closing: bool) -> str:
        """`{date}`: the period's last day in the closing label, else the day before it."""
        day = self.statement.end if closing else self.statement.start - timedelta(days=1)
        return label.format(date=self.layout.dates(day))

    def _money(self, value: Decimal) -> str:
        text = self.layout.amount(printed(self.layout, value))
        return text if any(s in text for s in "€$£") else f"{text} {self.layout.data.currency}"

    def _table_header(self) -> None:
        for attribute in ("header", "header2"):
            texts = [getattr(column, attribute) for column in self.layout.columns]
            if not any(texts):
                continue
            x = LEFT
            for column, text in zip(self.layout.columns, texts, strict=True):
                self._text(x, text, bold=True, width=column.width if column.right else 0)
                x += column.width
            self._next()
        self._next(0.3)

    def _row(self, row: Row) -> None:
        x = LEFT
        for column in self.layout.columns:
            text = row.get(column.kind, "")
            if text:
                self._text(x, text, width=column.width if column.right else 0)
            x += column.width
        self._next()

    def _rightmost_amount_x(self) -> tuple[float, float]:
        x = LEFT
        found = (LEFT + 140, 40.0)
        for column in self.layout.columns:
            if column.right:
                found = (x, column.width)
            x += column.width
        return found

    def _balance_row(self, label: str | None, value: Decimal, closing: bool) -> None:
        if label is None or self.layout.balances is not Balances.TABLE:
            return
        self._next(0.3)
        text_x = LEFT + sum(
            c.width
            for c in self.layout.columns[: [c.kind for c in self.layout.columns].index(Col.TEXT)]
        )
        self._text(text_x, self._label(label, closing))
        x, width = self._rightmost_amount_x()
        self._text(x, self.layout.amount(printed(self.layout, value)), width=width)
        self._next(1.3)

    def _carry(self, label: str | None) -> None:
        if label is None:
            return
        self._balance_row_at(label, self.running)

    def _balance_row_at(self, label: str, value: Decimal) -> None:
        x, width = self._rightmost_amount_x()
        self._text(LEFT, label)
        self._text(x, self.layout.amount(printed(self.layout, value)), width=width)
        self._next(1.3)

    def _footer(self) -> None:
        self.y = BOTTOM + 2
        labels = self.layout.labels
        self._text(LEFT + 150, labels.page.format(page=self.page, nb="{nb}"))
        self.y = BOTTOM + 7
        self._text(
            LEFT, labels.footer or f"{self.layout.bank} - Register HRB 12345 - VAT DE123456789"
        )


def _grouped(iban: str) -> str:
    return " ".join(iban[i : i + 4] for i in range(0, len(iban), 4))

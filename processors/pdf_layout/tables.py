"""Tables read as tables: runs of rows whose cells (lines) fall into shared columns.

A run starts at a row of two cells or more and goes on while the next row is closer
than `ROW_GAP` line heights; a row of one cell inside a run (a description wrapped onto
a second line) belongs to it when that cell lies in one column. The columns are the
spans the run's cells cover, merged where they overlap (left-aligned text and
right-aligned amounts both overlap the cells above them). A run is a table when it has
two columns or more and at least two rows in which two columns or more are filled. Its
header is its first row when that row has no digit in it ("Pos. Beschreibung Menge
Betrag").
"""

from __future__ import annotations

from dataclasses import dataclass

from processors.pdf_layout.lines import Line, PageLayout
from processors.results.evidence import Box

ROW_GAP = 2.5
MIN_FILLED_ROWS = 2


@dataclass(frozen=True, slots=True)
class Table:
    columns: tuple[tuple[float, float], ...]
    """Each column's left and right edge, in points."""
    rows: tuple[tuple[Line | None, ...], ...]
    """Per row, the cell of each column (None where empty); cells of a column that fall
    into one row are joined into one line."""
    header: tuple[str, ...] | None
    box: Box

    @property
    def body(self) -> tuple[tuple[Line | None, ...], ...]:
        return self.rows[1:] if self.header is not None else self.rows


def tables(page: PageLayout) -> list[Table]:
    found: list[Table] = []
    for run in _runs(page.rows):
        table = _table(run)
        if table is not None:
            found.append(table)
    return found


def _runs(rows: tuple[tuple[Line, ...], ...]) -> list[list[tuple[Line, ...]]]:
    runs: list[list[tuple[Line, ...]]] = []
    run: list[tuple[Line, ...]] = []
    for row in rows:
        if run and _follows(run[-1], row) and (len(row) > 1 or _in_one_column(run, row[0])):
            run.append(row)
            continue
        if len(run) > 1:
            runs.append(run)
        run = [row] if len(row) > 1 else []
    if len(run) > 1:
        runs.append(run)
    return runs


def _follows(above: tuple[Line, ...], row: tuple[Line, ...]) -> bool:
    height = max(line.height for line in row)
    return min(line.box.y0 for line in row) - max(line.box.y1 for line in above) < ROW_GAP * height


def _in_one_column(run: list[tuple[Line, ...]], cell: Line) -> bool:
    spans = _columns([line for row in run for line in row])
    return sum(left < cell.box.x1 and cell.box.x0 < right for left, right in spans) == 1


def _columns(cells: list[Line]) -> list[tuple[float, float]]:
    spans: list[tuple[float, float]] = []
    for left, right in sorted((cell.box.x0, cell.box.x1) for cell in cells):
        if spans and left < spans[-1][1]:
            spans[-1] = (spans[-1][0], max(spans[-1][1], right))
        else:
            spans.append((left, right))
    return spans


def _table(run: list[tuple[Line, ...]]) -> Table | None:
    columns = _columns([line for row in run for line in row])
    if len(columns) < 2:
        return None
    rows = tuple(_placed(row, columns) for row in run)
    if sum(sum(cell is not None for cell in row) > 1 for row in rows) < MIN_FILLED_ROWS:
        return None
    first = rows[0]
    header = None
    if not any(ch.isdigit() for cell in first if cell for ch in cell.text):
        header = tuple(cell.text if cell else "" for cell in first)
    box = Box.around(line.box for row in run for line in row)
    return Table(tuple(columns), rows, header, box)


def _placed(row: tuple[Line, ...], columns: list[tuple[float, float]]) -> tuple[Line | None, ...]:
    cells: list[list[Line]] = [[] for _ in columns]
    for line in row:
        index = next(i for i, (left, right) in enumerate(columns) if left <= line.box.x0 <= right)
        cells[index].append(line)
    return tuple(
        Line.of([w for line in cell for w in line.words]) if cell else None for cell in cells
    )

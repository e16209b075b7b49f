"""Dates a statement prints over two or three lines in its date column, as neobank and
broker statements do: `22` / `Sept.` / `2025`, `Jan 1` / `2023`, `1 okt` / `2025`.

Before lines are cut into pieces, a row whose first cell is an incomplete date (a day,
a day and a month name, a month name and a day) takes the month and year from the first
cells of the lines below that start in the same column; it is written as `dd.mm.yyyy`
in its place, and the parts are blanked on their lines (a line left empty is dropped), so
the purpose lines beside them stay with the transaction. Nothing changes unless the
parts make exactly one date."""

from __future__ import annotations

import re

from processors.statements.tokens import MONTH_NAMES, find_dates

_FIRST_CELL = re.compile(r"(?P<indent> *)(?P<cell>\S+(?: \S+)*)(?P<gap> *)")
_INCOMPLETE = re.compile(
    r"\d{1,2}\.?|\d{1,2}\.? [^\W\d_]{3,10}\.?|[^\W\d_]{3,10}\.? \d{1,2}", re.IGNORECASE
)
_YEAR = re.compile(r"(?:19|20)\d\d")
_PARTS_BELOW = 2
_COLUMN_TOLERANCE = 2
_CELL_GAP = 2


def join_broken_dates(lines: list[str], comma: bool) -> list[str]:
    """The page's lines with dates broken over lines put together on their row."""
    out = list(lines)
    emptied: set[int] = set()
    for index, line in enumerate(out):
        head = _FIRST_CELL.match(line)
        if head is None or not _INCOMPLETE.fullmatch(head.group("cell")):
            continue
        parts = _parts_below(out, index + 1, head.start("cell"))
        joined = _joined(head.group("cell"), [part for _, part in parts], comma)
        if (
            joined is None
            or len(joined) > len(head.group("cell")) + len(head.group("gap")) - _CELL_GAP
        ):
            continue
        out[index] = (
            line[: head.start("cell")]
            + joined.ljust(head.end("gap") - head.start("cell"))
            + line[head.end("gap") :]
        )
        for below, part in parts:
            start = out[below].index(part)
            out[below] = out[below][:start] + " " * len(part) + out[below][start + len(part) :]
            emptied.add(below)
    return [line for index, line in enumerate(out) if index not in emptied or line.strip()]


def _parts_below(lines: list[str], start: int, column: int) -> list[tuple[int, str]]:
    """The month and year cells that start the next lines in the date's column."""
    parts: list[tuple[int, str]] = []
    for index in range(start, min(start + _PARTS_BELOW, len(lines))):
        cell = _FIRST_CELL.match(lines[index])
        if cell is None or abs(cell.start("cell") - column) > _COLUMN_TOLERANCE:
            break
        first = cell.group("cell").split("  ")[0]
        if not all(_is_part(word) for word in first.split()):
            break
        parts.append((index, first))
        if _YEAR.fullmatch(first.split()[-1]):
            break
    return parts


def _is_part(word: str) -> bool:
    return word.lower().rstrip(".") in MONTH_NAMES or _YEAR.fullmatch(word) is not None


def _joined(head: str, parts: list[str], comma: bool) -> str | None:
    if not parts:
        return None
    text = " ".join([head, *parts])
    found = find_dates(text, comma)
    if len(found) != 1 or (found[0].start, found[0].end) != (0, len(text)):
        return None
    token = found[0]
    if token.kind != "named" or token.year is None:
        return None
    return f"{token.first:02d}.{token.second:02d}.{token.year}"

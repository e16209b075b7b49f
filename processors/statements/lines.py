"""A statement line cut into pieces: dates, amounts, debit/credit marks, currency codes
and text, each at its position. The numeric pieces at the start (`lead`) and at the end
(`trail`) of a line are its table cells; what lies between is its text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from processors.statements.tokens import (
    CREDIT_MARKS,
    DEBIT_MARKS,
    DateToken,
    Money,
    find_amounts,
    find_dates,
)

_GLUED_AMOUNT = re.compile(r"(\d[.,]\d{2})(?=\d{1,2}\.\d{1,2}\.)")
_GLUED_WORD = re.compile(r"(?<![\d.])(\d{1,2}\.\d{1,2}\.)(?=[A-Za-zÄÖÜäöü])")
_CELL = re.compile(r"\S+(?: \S+)*")
_CURRENCY_CELL = re.compile(r"(?:[€$£]|EUR|USD|GBP|SGD|CHF|Euro)", re.IGNORECASE)


class Kind(StrEnum):
    DATE = "date"
    AMOUNT = "amount"
    MARK = "mark"
    CURRENCY = "currency"
    TEXT = "text"


NUMERIC = frozenset({Kind.DATE, Kind.AMOUNT, Kind.MARK, Kind.CURRENCY})


@dataclass(frozen=True, slots=True)
class Piece:
    kind: Kind
    start: int
    end: int
    text: str
    date: DateToken | None = None
    money: Money | None = None


@dataclass(frozen=True, slots=True)
class Line:
    page: int
    text: str
    pieces: tuple[Piece, ...]
    lead: tuple[Piece, ...]
    middle: tuple[Piece, ...]
    trail: tuple[Piece, ...]

    @property
    def zone_dates(self) -> list[Piece]:
        return [p for p in (*self.lead, *self.trail) if p.kind is Kind.DATE]

    @property
    def zone_amounts(self) -> list[Piece]:
        return [p for p in (*self.lead, *self.trail) if p.kind is Kind.AMOUNT]

    @property
    def description(self) -> str:
        return " ".join(" ".join(piece.text.split()) for piece in self.middle)

    @property
    def start(self) -> int:
        return self.pieces[0].start if self.pieces else 0

    def mark_after(self, piece: Piece) -> int:
        """-1/+1 for a debit/credit mark printed as its own cell after `piece`."""
        after = [p for p in self.trail if p.start >= piece.end]
        if after and after[0].kind is Kind.MARK:
            return -1 if after[0].text in DEBIT_MARKS else 1
        return 0


def unglue(text: str) -> str:
    """Spaces where a text layer ran an amount, a date and a word together
    (`+ 2.780,7028.01.Gutschr. SEPA`)."""
    return _GLUED_WORD.sub(r"\1 ", _GLUED_AMOUNT.sub(r"\1 ", text))


def split_line(text: str, page: int, comma: bool) -> Line:
    text = unglue(text)
    dates = find_dates(text, comma)
    tokens: list[Piece] = [Piece(Kind.DATE, d.start, d.end, d.text, date=d) for d in dates]
    for money in find_amounts(text, comma):
        if not any(money.start < d.end and d.start < money.end for d in dates):
            tokens.append(
                Piece(
                    Kind.AMOUNT, money.start, money.end, text[money.start : money.end], money=money
                )
            )
    tokens.sort(key=lambda piece: piece.start)
    pieces: list[Piece] = []
    position = 0
    for token in tokens:
        pieces.extend(_gap(text, position, token.start))
        pieces.append(token)
        position = token.end
    pieces.extend(_gap(text, position, len(text)))
    lead = _zone(pieces)
    trail = _zone(pieces[len(lead) :][::-1])[::-1]
    middle = pieces[len(lead) : len(pieces) - len(trail)]
    return Line(page, text, tuple(pieces), tuple(lead), tuple(middle), tuple(trail))


def _gap(text: str, start: int, end: int) -> list[Piece]:
    pieces = []
    for match in _CELL.finditer(text, start, end):
        cell = match.group()
        if cell in DEBIT_MARKS | CREDIT_MARKS:
            kind = Kind.MARK
        elif _CURRENCY_CELL.fullmatch(cell):
            kind = Kind.CURRENCY
        else:
            kind = Kind.TEXT
        pieces.append(Piece(kind, match.start(), match.end(), cell))
    return pieces


def _zone(pieces: list[Piece]) -> list[Piece]:
    zone: list[Piece] = []
    for piece in pieces:
        if piece.kind not in NUMERIC:
            break
        zone.append(piece)
    return zone

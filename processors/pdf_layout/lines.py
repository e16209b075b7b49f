"""Words into lines, rows and blocks, the way a person's eye groups them.

- A **row** is every word whose vertical centre lies within half a glyph height of the
  row's first word: one visual line across the page.
- A **line** is a run of a row's words no further apart than `LINE_GAP` glyph heights
  (a space is 0.25 of one; a column gap or a tab several): a table cell, a label with
  its value ("Rechnungsnummer: 2024-17"), a line of an address.
- A **block** is lines stacked one under another, overlapping horizontally, with less
  than `BLOCK_GAP` of a line's height between them and glyphs of a like size: an
  address, a paragraph, a column of a table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from processors.pdf_layout.words import PageWords, Word
from processors.results.evidence import Box

LINE_GAP = 0.45
"""Glyph heights: the gap that separates cells (as in processors/text_layer.py)."""
ROW_SHARE = 0.5
BLOCK_GAP = 0.8
"""Line heights of white space between two lines of one block (a blank line breaks)."""
SIZE_RATIO = 1.4
"""A heading more than 1.4 times the size of the text under it starts a block of its own."""


@dataclass(frozen=True, slots=True)
class Line:
    words: tuple[Word, ...]
    box: Box

    @property
    def text(self) -> str:
        return " ".join(word.text for word in self.words)

    @property
    def middle(self) -> float:
        return (self.box.y0 + self.box.y1) / 2

    @property
    def height(self) -> float:
        return self.box.height

    @property
    def word_starts(self) -> tuple[int, ...]:
        """Where each word starts in `text` (the words joined by one space)."""
        starts, offset = [], 0
        for word in self.words:
            starts.append(offset)
            offset += len(word.text) + 1
        return tuple(starts)

    def words_in(self, start: int, end: int) -> tuple[Word, ...]:
        """The words the characters `start` to `end` of `text` fall on."""
        return tuple(
            word
            for word, first in zip(self.words, self.word_starts, strict=True)
            if first < end and start < first + len(word.text)
        )

    @staticmethod
    def of(words: Sequence[Word]) -> Line:
        return Line(tuple(words), Box.around(word.box for word in words))


@dataclass(frozen=True, slots=True)
class Block:
    lines: tuple[Line, ...]
    box: Box

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)


@dataclass(frozen=True, slots=True)
class PageLayout:
    number: int  # 1 for the first page
    width: float
    height: float
    rows: tuple[tuple[Line, ...], ...]
    """Top to bottom; each row's lines left to right."""
    blocks: tuple[Block, ...]

    @property
    def lines(self) -> tuple[Line, ...]:
        return tuple(line for row in self.rows for line in row)

    def lines_in(self, box: Box) -> tuple[Line, ...]:
        """The lines whose centre lies in `box`."""
        return tuple(line for line in self.lines if _centre_in(line.box, box))

    @staticmethod
    def of(page: PageWords) -> PageLayout:
        rows = tuple(tuple(_lines(row)) for row in _rows(page.words))
        return PageLayout(page.number, page.width, page.height, rows, _blocks(rows))


def _centre_in(inner: Box, outer: Box) -> bool:
    x, y = (inner.x0 + inner.x1) / 2, (inner.y0 + inner.y1) / 2
    return outer.x0 <= x <= outer.x1 and outer.y0 <= y <= outer.y1


def _rows(words: Iterable[Word]) -> list[list[Word]]:
    rows: list[list[Word]] = []
    middle = height = 0.0
    for word in sorted(words, key=lambda w: w.middle):
        if rows and word.middle - middle < ROW_SHARE * min(height, word.box.height):
            rows[-1].append(word)
            continue
        rows.append([word])
        middle, height = word.middle, word.box.height
    return [sorted(row, key=lambda w: w.box.x0) for row in rows]


def _lines(row: list[Word]) -> list[Line]:
    lines: list[Line] = []
    run: list[Word] = []
    for word in row:
        if run and word.box.x0 - run[-1].box.x1 > LINE_GAP * min(
            word.box.height, run[-1].box.height
        ):
            lines.append(Line.of(run))
            run = []
        run.append(word)
    if run:
        lines.append(Line.of(run))
    return lines


def _blocks(rows: tuple[tuple[Line, ...], ...]) -> tuple[Block, ...]:
    """Each line joins the block whose last line lies closest above it and fits. Blocks
    whose last line lies too far above to take any line are closed (a dense page has
    hundreds of lines)."""
    stacks: list[list[Line]] = []
    open_stacks: list[int] = []
    for row in rows:
        top = min(line.box.y0 for line in row)
        open_stacks = [i for i in open_stacks if not _closed(stacks[i][-1], top)]
        taken: set[int] = set()
        for line in row:
            fits = [
                (line.box.y0 - stacks[index][-1].box.y1, index)
                for index in open_stacks
                if index not in taken and _continues(stacks[index][-1], line)
            ]
            if fits:
                index = min(fits)[1]
                stacks[index].append(line)
            else:
                index = len(stacks)
                stacks.append([line])
                open_stacks.append(index)
            taken.add(index)
    return tuple(Block(tuple(stack), Box.around(line.box for line in stack)) for stack in stacks)


def _closed(last: Line, top: float) -> bool:
    return top - last.box.y1 > BLOCK_GAP * SIZE_RATIO * last.height


def _continues(above: Line, line: Line) -> bool:
    gap = line.box.y0 - above.box.y1
    if not -0.3 * line.height < gap < BLOCK_GAP * line.height:
        return False
    if max(above.height, line.height) > SIZE_RATIO * min(above.height, line.height):
        return False
    return above.box.x0 < line.box.x1 and line.box.x0 < above.box.x1

"""The words of a page read by Tesseract (processors/ocr.py) as layout words: its pixel
boxes scaled to points by the resolution the page was rendered at, so that a scan's
words have the geometry of a text layer's, and its evidence boxes the same unit."""

from __future__ import annotations

from collections.abc import Iterable

from processors.ocr import OcrWord
from processors.pdf_layout.words import PageWords, Word
from processors.results.evidence import Box


def ocr_page_words(
    words: Iterable[OcrWord], number: int, dpi: float, size: tuple[float, float]
) -> PageWords:
    """Page `number` (1 for the first) of `size` points (as displayed), rendered at
    `dpi` and read into `words`."""
    scale = 72 / dpi
    found = tuple(
        Word(
            word.text,
            Box(
                word.left * scale,
                word.top * scale,
                (word.left + word.width) * scale,
                (word.top + word.height) * scale,
            ),
        )
        for word in words
    )
    return PageWords(number, size[0], size[1], found)

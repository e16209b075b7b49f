"""The quality gate of scanned pages (docs/ocr.md): mean word confidence at least
`MIN_MEAN_CONFIDENCE` and recognised words at least `MIN_RECOGNISED_RATE`, else fields
read from the page could not be trusted and the document fails `unreadable_document`.

A reader may keep a page below the gate when the page still gives it what it needs
(a receipt's total and date, issue 40 class 4): the result is then marked for review."""

from __future__ import annotations

from dataclasses import dataclass

from processors.base import FailureCode, ProcessingError
from processors.ocr import OcrWord, mean_confidence, recognised_rate
from processors.results.source import OcrSummary, UndecodablePage

MIN_MEAN_CONFIDENCE = 70.0
MIN_RECOGNISED_RATE = 0.7
"""Below 70, at most 40 % of the fields of the calibration scans were read right and
none of 106 documents exactly; from 70 up 64 %, from 80 up 81 %, from 90 up 92 %."""

TRUSTED_CONFIDENCE = 90.0
"""From here up the calibration scans had about 90 % of their fields right; below it,
results read by OCR are marked for review."""


def legible(words: tuple[OcrWord, ...]) -> bool:
    return (
        mean_confidence(words) >= MIN_MEAN_CONFIDENCE
        and recognised_rate(words) >= MIN_RECOGNISED_RATE
    )


def gate(page: int, words: tuple[OcrWord, ...]) -> None:
    """Every scanned page must be legible: fields read from an illegible one (or
    transactions missing from it) cannot be trusted."""
    if legible(words):
        return
    confidence, rate = mean_confidence(words), recognised_rate(words)
    raise ProcessingError(
        FailureCode.UNREADABLE_DOCUMENT,
        f"The scan is not legible: on page {page} OCR read {len(words)} words with a mean "
        f"confidence of {confidence:.0f}/100 and recognised {rate:.0%} of them (at least "
        f"{MIN_MEAN_CONFIDENCE:.0f} and {MIN_RECOGNISED_RATE:.0%} are needed). "
        "Upload a better scan (300 dpi, straight, without speckles).",
        {
            "ocr": {
                "page": page,
                "words": len(words),
                "meanConfidence": round(confidence, 1),
                "recognisedRate": round(rate, 3),
                "minimumConfidence": MIN_MEAN_CONFIDENCE,
                "minimumRecognisedRate": MIN_RECOGNISED_RATE,
            }
        },
    )


@dataclass(frozen=True, slots=True)
class OcrStats:
    pages: int
    words: int
    mean_confidence: float
    recognised_rate: float
    seconds: float
    undecodable: tuple[UndecodablePage, ...] = ()
    """Pages read as without text because PDFium could not decode their images."""

    @property
    def trusted(self) -> bool:
        return self.mean_confidence >= TRUSTED_CONFIDENCE

    def summary(self, pages_not_read: int) -> OcrSummary:
        return OcrSummary(
            pages=self.pages,
            words=self.words,
            mean_confidence=round(self.mean_confidence, 1),
            recognised_rate=round(self.recognised_rate, 3),
            seconds=round(self.seconds, 2),
            review_advised=not self.trusted,
            pages_not_read=pages_not_read,
            undecodable_pages=self.undecodable or None,
        )

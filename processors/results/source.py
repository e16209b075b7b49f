"""Where a result's data was read from, as every result kind records it."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from processors.base import FileKind
from processors.json_fields import OMITTED_WHEN_NONE, omitted_with


class ReadMethod(StrEnum):
    """How a PDF's words were got: its text layer, OCR of its pages, or both."""

    TEXT = "text"
    OCR = "ocr"
    TEXT_AND_OCR = "text+ocr"


@dataclass(frozen=True, slots=True)
class UndecodablePage:
    """A page to be read by OCR whose images PDFium could not decode (a broken stream,
    a codec it lacks): read as a page without text."""

    page: int
    filters: tuple[str, ...]
    """The filters of the images that could not be decoded, e.g. `JBIG2Decode`."""


@dataclass(frozen=True, slots=True)
class OcrSummary:
    pages: int
    words: int
    mean_confidence: float
    recognised_rate: float
    seconds: float
    # None in results stored before OCR summaries carried it.
    review_advised: bool | None = field(default=None, metadata=OMITTED_WHEN_NONE)
    pages_not_read: int = 0
    undecodable_pages: tuple[UndecodablePage, ...] | None = field(
        default=None, metadata=OMITTED_WHEN_NONE
    )


@dataclass(frozen=True, slots=True)
class Source:
    """A PDF read as text: container and method (and OCR when used). An e-invoice: its
    container, and for one embedded in a PDF the attachment's name and relationship."""

    container: FileKind  # PDF or XML
    method: ReadMethod | None = field(default=None, metadata=OMITTED_WHEN_NONE)
    ocr: OcrSummary | None = field(default=None, metadata=OMITTED_WHEN_NONE)
    attachment: str | None = field(default=None, metadata=OMITTED_WHEN_NONE)
    relationship: str | None = field(default=None, metadata=omitted_with("attachment"))

"""The text of a PDF for the invoice and statement readers: the text layer first, OCR for
pages without a usable one. docs/ocr.md has the thresholds and how they were calibrated.

Per page, up to the reader's page limit:
1. the text layer (PDFium, `processors/text_layer.py`) is used when it reads as text
   (`processors/text_quality.py`: half of its tokens word-like, no substitution cipher,
   and in the doubtful band its words are what OCR reads on the page:
   `processors/layer_check.py`; docs/pdf_text.md, "Scrambled text layers") and, if it is
   short, the page draws no image beside it (a scan with a stamped page number);
2. otherwise the page is rendered (pypdfium2, greyscale, `OCR_DPI`); a page on which
   nothing is drawn is skipped;
3. otherwise it is turned straight (`deskew`) and Tesseract reads it
   (`processors/ocr.py`), for at most `MAX_OCR_PAGES` pages. A page read with middling
   confidence is read again after a median filter (speckle noise), and the better
   reading is kept. The first page found German decides the document's language: its
   following pages are read with the German model alone, once each, unless a page's
   reading contradicts it (docs/ocr.md).

Every scanned page with text on it must pass the quality gate (`processors/ocr_gate.py`),
else the document fails `unreadable_document` at that page. Without an installed OCR
engine a page that needs it fails `processing_failed`, naming the missing engine.
"""

from __future__ import annotations

import dataclasses
import io
import itertools
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pypdfium2.raw as pdfium_raw  # type: ignore[import-untyped]
from PIL import Image, ImageFilter

from processors.base import FailureCode, FileKind, ProcessingError
from processors.deskew import deskew
from processors.json_fields import to_json
from processors.layer_check import misread_pages
from processors.ocr import (
    LANGUAGES,
    PAGE_SEGMENTATION,
    SPARSE_TEXT,
    OcrFailed,
    OcrPage,
    OcrUnavailable,
    OcrWord,
    contradicts,
    installed_models,
    mean_confidence,
    ocr_available,
    page_of,
    reading_languages,
    recognise,
    recognised_rate,
    repaired,
)
from processors.ocr_gate import OcrStats, gate, legible
from processors.ocr_marks import bullets, second_look, unread_ink
from processors.ocr_preprocess import another_look, improve, score
from processors.pdf import open_pdf
from processors.pdf_images import undecodable_page
from processors.pdf_layout.lines import PageLayout
from processors.pdf_layout.ocr_words import ocr_page_words, rows_text
from processors.pdf_layout.words import PageWords
from processors.results.source import ReadMethod, Source, UndecodablePage
from processors.text_layer import read_pages, read_pages_and_words
from processors.text_quality import reads_as_language, reads_as_text
from processors.text_values import page_texts

logger = logging.getLogger(__name__)

OCR_DPI = 300
MAX_OCR_PAGES = 8
"""OCR takes 1.4 s a clean page here, up to 6 s with the despeckle retry: 8 pages stay
inside the 60 s document limit (docs/ocr.md, Speed)."""
MAX_RENDER_PIXELS = 12_000_000
"""A4 at 300 dpi is 8.7 million pixels; larger pages are rendered at a lower resolution."""
MIN_TEXT_SHARE = 0.5
SHORT_TEXT_LETTERS = 40
_LETTER = re.compile(r"[^\W\d_]")
MIN_OCR_WORDS = 5
"""Fewer words than this on a scanned page: no text (a drawing, a photo, a blank scan)."""
RETRY_CONFIDENCE = (40.0, 92.0)
"""A page read with a mean confidence in this range (clean scans read 93-96) is read
again after a 5x5 median filter, which removes speckle noise (84.6 -> 95.4 on a 200 dpi
scan with 0.05 % speckles); the better reading is kept. Below it nothing helped."""
DESPECKLE_SIZE = 5
BLANK_LEVEL = 200
"""A rendered page with no pixel darker than this draws nothing readable."""


@dataclass(frozen=True, slots=True)
class _Ocr:
    command: str
    quality_gate: bool
    max_pages: int
    keep_below_gate: Callable[[str], bool] | None


@dataclass(frozen=True, slots=True)
class PdfText:
    plain: tuple[str, ...]
    """Per page: content-stream order (text layer), or its rows for a scanned page (OCR;
    `pdf_layout.ocr_words.rows_text`)."""
    layout: tuple[str, ...]
    """Per page: one line per visual row, columns kept apart by spaces."""
    ocr: OcrStats | None
    skipped_ocr_pages: int = 0
    words: tuple[PageWords, ...] | None = None
    """Per page: its words with their boxes (processors/pdf_layout/), from the text layer
    or from OCR; None when not asked for, or when pypdf read the text (PDFium could not
    open the file)."""

    @property
    def method(self) -> ReadMethod:
        if self.ocr is None:
            return ReadMethod.TEXT
        return ReadMethod.OCR if self.ocr.pages == len(self.plain) else ReadMethod.TEXT_AND_OCR

    @property
    def empty(self) -> bool:
        return not any(page.strip() for page in (*self.plain, *self.layout))

    def nothing_to_read(self, what: str) -> ProcessingError:
        """`unreadable_document` for a PDF with nothing to read `what` from, naming the
        pages whose images could not be decoded."""
        undecodable = self.ocr.undecodable if self.ocr is not None else ()
        reason = "".join(
            f" Page {page.page} draws an image that cannot be decoded ({', '.join(page.filters)})."
            for page in undecodable
        )
        details = {"undecodablePages": [to_json(page) for page in undecodable]}
        return ProcessingError(
            FailureCode.UNREADABLE_DOCUMENT,
            f"The PDF has no text and nothing legible drawn on its pages to read {what} from."
            + reason,
            details if undecodable else None,
        )

    def source(self) -> Source:
        """What the result records about where its text came from."""
        ocr = self.ocr.summary(self.skipped_ocr_pages) if self.ocr is not None else None
        return Source(FileKind.PDF, method=self.method, ocr=ocr)


def read_pdf_text(
    data: bytes,
    ocr_command: str,
    max_pages: int,
    quality_gate: bool = True,
    max_ocr_pages: int = MAX_OCR_PAGES,
    with_words: bool = False,
    keep_below_gate: Callable[[str], bool] | None = None,
) -> PdfText:
    """Text of the first `max_pages` pages, and with `with_words` each page's words and
    boxes (about 3 ms a document more, docs/pdf_invoices.md). Raises `ProcessingError`:
    from `open_pdf`, `unreadable_document` for a scan below the quality gate,
    `processing_failed` when OCR is needed and not installed; a page below the gate
    whose text `keep_below_gate` accepts is kept (a receipt's total and date).
    `quality_gate=False` is for calibration only."""
    reader = open_pdf(data)
    document = _open_pdfium(data)
    if document is None:
        plain = page_texts(reader, max_pages, layout=False)
        layout = page_texts(reader, max_pages, layout=True)
        return PdfText(tuple(plain), tuple(layout), None)
    try:
        if with_words:
            plain, layout, words = read_pages_and_words(document, max_pages)
        else:
            (plain, layout), words = read_pages(document, max_pages), None
        doubtful = [n for n, text in enumerate(plain) if not _usable(text) or _short(text)]
        misread = misread_pages(document, plain, ocr_command, skip=doubtful)
        if not doubtful and not misread:
            return PdfText(tuple(plain), tuple(layout), None, words=_tupled(words))
        pending = [n for n in doubtful if not _usable(plain[n]) or _draws_image(document[n])]
        pending = sorted(pending + misread)
        return _with_ocr(
            _Pages(plain, layout, words),
            pending,
            document,
            _Ocr(ocr_command, quality_gate, max_ocr_pages, keep_below_gate),
        )
    finally:
        document.close()


def _open_pdfium(data: bytes) -> pdfium.PdfDocument | None:
    """PDFium's view of a PDF pypdf opened; None when PDFium cannot open it (an owner
    password pypdf accepts as empty, a structure only pypdf repairs)."""
    try:
        return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as error:
        logger.info("PDFium cannot open the PDF, pypdf reads its text: %s", error)
        return None


def _usable(text: str) -> bool:
    return reads_as_text(text, MIN_TEXT_SHARE) and reads_as_language(text)


def _short(text: str) -> bool:
    letters = _LETTER.finditer(text)
    return next(itertools.islice(letters, SHORT_TEXT_LETTERS - 1, None), None) is None


def _draws_image(page: pdfium.PdfPage) -> bool:
    """With little text: a scan with a few words stamped on it (a page number)."""
    return any(True for _ in page.get_objects(filter=[pdfium_raw.FPDF_PAGEOBJ_IMAGE]))


@dataclass(frozen=True, slots=True)
class _Pages:
    """Per page, what the text layer read: replaced page by page by what OCR reads."""

    plain: list[str]
    layout: list[str]
    words: list[PageWords] | None  # None: not asked for


def _with_ocr(
    pages: _Pages, pending: list[int], document: pdfium.PdfDocument, settings: _Ocr
) -> PdfText:
    plain, layout = pages.plain, pages.layout
    started = time.perf_counter()
    words: list[OcrWord] = []
    undecodable: list[UndecodablePage] = []
    read = skipped = 0
    languages: tuple[str, ...] = LANGUAGES  # the first German page decides for the next
    for number in pending:
        plain[number] = layout[number] = ""
        if pages.words is not None:
            pages.words[number] = dataclasses.replace(pages.words[number], words=())
        image, scale = _render(document[number])
        if image is not None and read >= settings.max_pages:
            skipped += 1
            continue
        page = None
        if image is not None:
            page, languages = _recognise(
                image, 72 * scale, settings.command, languages, settings.keep_below_gate
            )
            read += 1
        if image is None or page is None or len(page.words) < MIN_OCR_WORDS:
            # a drawing, a photo or a blank scan, or images PDFium cannot decode
            found = undecodable_page(document[number], number + 1)
            undecodable.extend(found)
            read += bool(found and page is None)  # a page OCR read as without text
            continue
        keep = settings.keep_below_gate
        if settings.quality_gate and not (keep and keep(f"{page.plain}\n{page.layout}")):
            gate(number + 1, page.words)
        words.extend(page.words)
        size = (image.width / scale, image.height / scale)
        page_words = ocr_page_words(page.words, number + 1, 72 * scale, size)
        plain[number] = repaired(rows_text(PageLayout.of(page_words)))
        layout[number] = page.layout
        if pages.words is not None:
            pages.words[number] = page_words
    if read == 0:
        return PdfText(tuple(plain), tuple(layout), None, words=_tupled(pages.words))
    seconds = time.perf_counter() - started
    confidence, rate = mean_confidence(words), recognised_rate(words)
    stats = OcrStats(read, len(words), confidence, rate, seconds, tuple(undecodable))
    return PdfText(tuple(plain), tuple(layout), stats, skipped, _tupled(pages.words))


def _tupled(words: list[PageWords] | None) -> tuple[PageWords, ...] | None:
    return tuple(words) if words is not None else None


def _render(page: pdfium.PdfPage) -> tuple[Image.Image | None, float]:
    """The page in greyscale at OCR resolution (None when nothing is drawn on it), and
    its pixels per point."""
    width, height = page.get_size()
    scale = min(OCR_DPI / 72, (MAX_RENDER_PIXELS / max(width * height, 1)) ** 0.5)
    image = page.render(scale=scale, grayscale=True).to_pil().convert("L")
    darkest, _ = image.getextrema()
    return (None if darkest > BLANK_LEVEL else image), scale


def _recognise(
    image: Image.Image,
    dpi: float,
    command: str,
    decided: tuple[str, ...],
    wanted: Callable[[str], bool] | None = None,
) -> tuple[OcrPage, tuple[str, ...]]:
    """The page's reading and the models it decided for the document's next pages.

    Undecided (`LANGUAGES`): read with German and English models; a page found German,
    French, Dutch, Spanish or Italian again with that model alone. Found in one language:
    read with its model alone, once, unless that reading contradicts it; then as
    undecided. A middling reading is read again after the median filter, and the better
    one kept (docs/ocr.md). A page read badly is read again as a photo or a till roll,
    and a better reading kept as it is; otherwise ink left unread is looked at again,
    and bullets read as letters are put right (processors/ocr_marks.py). Of the second
    readings, one whose text is `wanted` (what the reader needs) is preferred."""
    image = deskew(image)
    page, languages = _read(image, command, decided)
    if another_look(image, page, MIN_OCR_WORDS):
        # a photo or a till roll read again (processors/ocr_preprocess.py); a better
        # reading of a cut-out or single column is kept as it is, without a second look
        read_again = partial(_reread, command=command, languages=languages)
        better = improve(image, page, read_again, MIN_OCR_WORDS, wanted)
        if better is not page:
            return better, languages
    words = page.words
    # a page the quality gate refuses is not looked at again: on noise the sparse-text
    # mode reads for minutes
    unread = unread_ink(image, words, dpi) if legible(words) else None
    if unread is not None:
        words = second_look(words, _run(unread, command, languages, SPARSE_TEXT).words)
    words = bullets(words, image)
    return (page if words == page.words else page_of(words)), languages


def _read(
    image: Image.Image, command: str, decided: tuple[str, ...]
) -> tuple[OcrPage, tuple[str, ...]]:
    if len(decided) == 1:
        single = _run(image, command, decided)
        if not contradicts(single.words, decided[0]):
            return _despeckled(image, command, single, decided), decided
    first = _run(image, command, LANGUAGES)
    languages = reading_languages(first.words, installed_models(command))
    if languages == LANGUAGES or _middling(first):
        return _despeckled(image, command, first, languages), languages
    return _run(image, command, languages), languages


def _middling(page: OcrPage) -> bool:
    return RETRY_CONFIDENCE[0] <= mean_confidence(page.words) < RETRY_CONFIDENCE[1]


def _despeckled(
    image: Image.Image, command: str, page: OcrPage, languages: tuple[str, ...]
) -> OcrPage:
    """A middling reading or the page read again after the median filter, whichever
    reads better; any other reading as it is."""
    if not _middling(page):
        return page
    filtered = _run(image.filter(ImageFilter.MedianFilter(DESPECKLE_SIZE)), command, languages)
    return max(page, filtered, key=score)


def _run(
    image: Image.Image,
    command: str,
    languages: tuple[str, ...],
    segmentation: int = PAGE_SEGMENTATION,
) -> OcrPage:
    missing = ocr_available(command)
    if missing is not None:
        raise _not_installed(command, missing)
    buffer = io.BytesIO()
    image.save(buffer, format="PPM")
    try:
        return recognise(buffer.getvalue(), command, OCR_DPI, languages, segmentation)
    except OcrUnavailable as error:
        raise _not_installed(command, str(error)) from error
    except OcrFailed as error:
        logger.warning("OCR failed: %s", error)
        raise ProcessingError(
            FailureCode.UNREADABLE_DOCUMENT, f"The scanned page could not be read: {error}"
        ) from error


def _reread(
    image: Image.Image, segmentation: int, command: str, languages: tuple[str, ...]
) -> OcrPage:
    return _run(image, command, languages, segmentation)


def _not_installed(command: str, reason: str) -> ProcessingError:
    return ProcessingError(
        FailureCode.PROCESSING_FAILED,
        "This PDF has pages without a text layer, which need OCR, and OCR is not "
        f"available on the server. {reason} Retry in the web application once it is installed.",
        {"ocr": {"engine": "missing", "command": command}},
    )

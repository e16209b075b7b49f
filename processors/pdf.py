"""PDF helpers on pypdf: open from bytes, tell password protection, cheap text.

Failure codes raised here:
- `password_protected`: encrypted and the empty password is not its user password (an
  empty owner password beside a real user password does not count: pypdf decrypts with
  it, but PDFium, our renderer and Chrome's, asks for the user password), or encrypted
  with a security handler that needs a key we cannot have (certificate encryption).
- `unreadable_document`: pypdf cannot parse the file at all (truncated, corrupt, no
  pages). Sending the same bytes again cannot help, so this is a document failure and
  not `processing_failed`, which the spec reserves for retryable service trouble.

pypdf reports repairs it made on broken files through `logging`; anything it emits
through `warnings` is logged here too, so callers never see warnings (the test suite
turns warnings into errors).
"""

from __future__ import annotations

import io
import logging
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pypdfium2.raw as pdfium_raw  # type: ignore[import-untyped]
from pypdf import PasswordType, PdfReader
from pypdf.errors import LimitReachedError

from processors.base import FailureCode, ProcessingError
from processors.pdf_limits import (
    MALFORMED_PDF_ERRORS,
    OverLimit,
    apply_pdf_limits,
    check_cross_references,
    check_decoded_size,
    check_pages,
)

logger = logging.getLogger(__name__)

TEXT_PAGES = 3
"""Enough for classifiers (invoice or not, which bank) without reading whole reports."""
TEXT_CHARS = 20_000

_MALFORMED_PDF_ERRORS = MALFORMED_PDF_ERRORS

_NOT_OPENABLE = "The PDF cannot be read: it is damaged, truncated or not a valid PDF file."
_PASSWORD_NEEDED = "The PDF is password-protected. Remove the password and upload it again."
_CERTIFICATE_NEEDED = (
    "The PDF is encrypted for specific recipients (certificate security). "
    "Remove the protection and upload it again."
)


@dataclass(frozen=True, slots=True)
class PdfSummary:
    page_count: int
    title: str | None
    encrypted: bool
    """True for encrypted files that open without a password (owner password only)."""


def open_pdf(data: bytes) -> PdfReader:
    """A reader whose pages can be read. Raises `ProcessingError` with
    `password_protected` or `unreadable_document` (`OverLimit` for a document over the
    limits of `processors/pdf_limits.py`)."""
    apply_pdf_limits()
    with _contained_warnings():
        reader = _parse(data)
        unlock_without_password(reader, data)
        check_cross_references(reader, data)
        check_pages(reader)
        if _page_count(reader) == 0:
            raise ProcessingError(FailureCode.UNREADABLE_DOCUMENT, "The PDF has no pages.")
        check_decoded_size(reader)
    return reader


def parsed_pdf(data: bytes) -> PdfReader:
    """pypdf's reader of `data` (raises what pypdf raises), parsed once per document: the
    e-invoice check and the text reader both open every PDF, and parsing (non-strict
    pypdf reads the header of every object) was 7 % of a median text-layer PDF's time
    (docs/pdf_text.md, Speed). Each thread keeps its last reader, with the bytes it was
    read from, until it opens another document."""
    held: tuple[bytes, PdfReader] | None = getattr(_LAST_PARSED, "pdf", None)
    if held is not None and held[0] is data:
        return held[1]
    _LAST_PARSED.pdf = None  # the last document is let go before the next is parsed
    reader = PdfReader(io.BytesIO(data), strict=False)
    _LAST_PARSED.pdf = (data, reader)
    return reader


_LAST_PARSED = threading.local()


def is_password_protected(data: bytes) -> bool:
    """Encrypted and not openable with the empty password. Raises
    `unreadable_document` when the file cannot be parsed at all."""
    try:
        open_pdf(data)
    except ProcessingError as error:
        if error.code is FailureCode.PASSWORD_PROTECTED:
            return True
        raise
    return False


def summarize(reader: PdfReader) -> PdfSummary:
    with _contained_warnings():
        return PdfSummary(
            page_count=_page_count(reader),
            title=_title(reader),
            encrypted=reader.is_encrypted,
        )


def first_pages_text(
    reader: PdfReader, max_pages: int = TEXT_PAGES, max_chars: int = TEXT_CHARS
) -> str:
    """Text of the first pages, best effort: a page whose text cannot be extracted is
    skipped (logged), because text only feeds classifiers."""
    parts: list[str] = []
    with _contained_warnings():
        for number in range(min(max_pages, _page_count(reader))):
            parts.append(_page_text(reader, number))
            if sum(len(part) for part in parts) >= max_chars:
                break
    return "\n".join(parts)[:max_chars]


def _parse(data: bytes) -> PdfReader:
    try:
        return parsed_pdf(data)
    except NotImplementedError as error:
        # pypdf raises this only for security handlers it does not implement, and the
        # /Encrypt key sits in an uncompressed trailer or xref-stream dictionary.
        if b"/Encrypt" in data:
            raise ProcessingError(FailureCode.PASSWORD_PROTECTED, _CERTIFICATE_NEEDED) from error
        raise ProcessingError(FailureCode.UNREADABLE_DOCUMENT, _NOT_OPENABLE) from error
    except LimitReachedError as error:
        raise OverLimit(f"its structure is too large ({error})") from error
    except _MALFORMED_PDF_ERRORS as error:
        if isinstance(error.__cause__, LimitReachedError):  # pypdf wraps it for trailers
            raise OverLimit(f"its structure is too large ({error.__cause__})") from error
        logger.info("PDF not parseable: %s: %s", type(error).__name__, error)
        raise ProcessingError(FailureCode.UNREADABLE_DOCUMENT, _NOT_OPENABLE) from error


def unlock_without_password(reader: PdfReader, data: bytes) -> None:
    """Decrypt an encrypted file with the empty password, or raise `password_protected`.

    pypdf tries the empty password as owner password first, so its answer alone cannot
    tell an empty user password (opens everywhere) from an empty owner password beside
    a real user password (qpdf and mupdf open it, PDFium asks for the password). PDFium
    renders and reads our pages and tries the empty password as user password only:
    its answer decides.
    """
    if not reader.is_encrypted:
        return
    try:
        unlocked = reader.decrypt("") != PasswordType.NOT_DECRYPTED
    except _MALFORMED_PDF_ERRORS as error:
        raise ProcessingError(FailureCode.UNREADABLE_DOCUMENT, _NOT_OPENABLE) from error
    if not unlocked:
        raise ProcessingError(FailureCode.PASSWORD_PROTECTED, _PASSWORD_NEEDED)
    check_cross_references(reader, data)  # what PDFium decodes when it opens the file
    if _pdfium_asks_for_password(data):
        raise ProcessingError(FailureCode.PASSWORD_PROTECTED, _PASSWORD_NEEDED)


def _pdfium_asks_for_password(data: bytes) -> bool:
    try:
        pdfium.PdfDocument(data).close()
    except pdfium.PdfiumError as error:
        if error.err_code == pdfium_raw.FPDF_ERR_PASSWORD:
            return True
        # Not a password matter: the text falls back to pypdf (processors/pdf_text.py).
        logger.info("PDFium cannot open an encrypted PDF pypdf decrypted: %s", error)
    return False


def _page_count(reader: PdfReader) -> int:
    try:
        return len(reader.pages)
    except LimitReachedError as error:
        raise OverLimit(f"its page tree is too large ({error})") from error
    except _MALFORMED_PDF_ERRORS as error:
        logger.info("PDF page tree not readable: %s: %s", type(error).__name__, error)
        raise ProcessingError(FailureCode.UNREADABLE_DOCUMENT, _NOT_OPENABLE) from error


def _title(reader: PdfReader) -> str | None:
    try:
        metadata = reader.metadata
        title = metadata.title if metadata is not None else None
    except _MALFORMED_PDF_ERRORS as error:
        logger.info("PDF metadata not readable: %s", error)
        return None
    if not isinstance(title, str):
        return None
    return title.strip() or None


def _page_text(reader: PdfReader, number: int) -> str:
    try:
        text = reader.pages[number].extract_text()
    except _MALFORMED_PDF_ERRORS as error:
        logger.info("No text from PDF page %d: %s: %s", number + 1, type(error).__name__, error)
        return ""
    return text if isinstance(text, str) else ""


@contextmanager
def _contained_warnings() -> Iterator[None]:
    """Log warnings raised inside pypdf instead of letting them reach the caller.

    `catch_warnings` swaps interpreter-wide state and is not thread-safe; pypdf 5+ only
    warns about deprecated arguments, so a lost warning in a threaded worker costs little.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            yield
        finally:
            for warning in caught:
                logger.info("pypdf warning: %s: %s", warning.category.__name__, warning.message)

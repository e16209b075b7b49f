"""Find the e-invoice XML embedded in a PDF/A-3 (Factur-X, ZUGFeRD, XRechnung in PDF).

Candidates come from the document's associated files (the catalog's /AF array, PDF/A-3)
and from the embedded-files name tree. Well-known attachment names win, in the order of
`KNOWN_NAMES`; otherwise the first associated XML file whose root is an invoice.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from pypdf import PdfReader
from pypdf.errors import LimitReachedError, PdfReadError
from pypdf.generic import DictionaryObject, EmbeddedFile, StreamObject

from processors.einvoice.profiles import ROOTS
from processors.pdf import parsed_pdf, unlock_without_password
from processors.pdf_limits import MAX_ATTACHMENT_BYTES, OverLimit, apply_pdf_limits, decoded_data
from processors.xmlsafe import MAX_XML_BYTES, peek_root

# Current name first: a PDF carrying both a ZUGFeRD 1.0 and a Factur-X attachment is read
# from the Factur-X one.
KNOWN_NAMES = ("factur-x.xml", "xrechnung.xml", "zugferd-invoice.xml")

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class EmbeddedXml:
    name: str
    data: bytes
    relationship: str | None  # /AFRelationship when the file is an associated file


@dataclass(frozen=True, slots=True)
class _Candidate:
    """An embedded file not decoded yet: attachments are decoded one at a time, and only
    the chosen one is kept (`MAX_ATTACHMENT_BYTES` decoded per document in all)."""

    name: str
    stream: Callable[[], StreamObject]
    relationship: str | None


class UnreadablePdfError(Exception):
    """The PDF cannot be opened (corrupt)."""


def find_embedded_invoice(pdf: bytes) -> EmbeddedXml | None:
    """The e-invoice attachment, or None. Raises `UnreadablePdfError`, `OverLimit`
    (`unreadable_document`) when the attachments decode to more than the limits allow,
    and `password_protected` (`processors/pdf.py` decides what needs a password)."""
    candidates = list(_embedded_files(_open(pdf)))
    budget = _Budget()
    for known in KNOWN_NAMES:
        for candidate in candidates:
            if candidate.name.lower() == known:
                found = _invoice(candidate, budget)
                if found is not None:
                    return found
    for candidate in candidates:
        if candidate.relationship is not None:
            found = _invoice(candidate, budget)
            if found is not None:
                return found
    return None


def _open(pdf: bytes) -> PdfReader:
    apply_pdf_limits()
    try:
        reader = parsed_pdf(pdf)  # the text reader reuses it when this PDF has no e-invoice
        unlock_without_password(reader, pdf)
        return reader
    except LimitReachedError as exc:
        raise OverLimit(f"its structure is too large ({exc})") from exc
    except (PdfReadError, ValueError, KeyError, OSError) as exc:
        if isinstance(exc.__cause__, LimitReachedError):  # pypdf wraps it for trailers
            raise OverLimit(f"its structure is too large ({exc.__cause__})") from exc
        raise UnreadablePdfError(f"the PDF cannot be read: {exc}") from exc


class _Budget:
    """Decoded attachment bytes, over the whole document."""

    def __init__(self) -> None:
        self.used = 0

    def spend(self, size: int) -> None:
        self.used += size
        if self.used > MAX_ATTACHMENT_BYTES:
            raise OverLimit(
                "its embedded files decode to too much data", self.used, MAX_ATTACHMENT_BYTES
            )


def _invoice(candidate: _Candidate, budget: _Budget) -> EmbeddedXml | None:
    """The candidate when it is an e-invoice. One over `MAX_XML_BYTES` is not: decoding
    stops there, and what was decoded counts against the document's budget."""
    try:
        data = _decode(candidate)
    except OverLimit:
        budget.spend(MAX_XML_BYTES)
        return None
    if data is None:
        return None
    budget.spend(len(data))
    if not _is_invoice(data):
        return None
    return EmbeddedXml(candidate.name, data, candidate.relationship)


def _decode(candidate: _Candidate) -> bytes | None:
    """The file's bytes, not cached in the reader; None when pypdf cannot decode them."""
    try:
        return decoded_data(candidate.stream(), "an embedded file", MAX_XML_BYTES)
    except OverLimit:
        raise
    except Exception as exc:
        log.debug("embedded file %r unreadable: %s", candidate.name, exc)
        return None


def _is_invoice(data: bytes) -> bool:
    root = peek_root(data[:8192])
    return root is not None and (root.namespace, root.local_name) in ROOTS


def _embedded_files(reader: PdfReader) -> Iterator[_Candidate]:
    yield from _associated_files(reader)
    try:
        by_name: dict[str, list[EmbeddedFile]] = {}
        for entry in reader.attachment_list:
            for name in entry._names:
                by_name.setdefault(name, []).append(entry)
        for name, entries in by_name.items():
            for entry in entries:
                yield _Candidate(str(name), _stream_of(entry), None)
    except Exception as exc:
        log.debug("embedded-files name tree unreadable: %s", exc)


def _stream_of(entry: EmbeddedFile) -> Callable[[], StreamObject]:
    # `EmbeddedFile.content` would decode through get_data(), which keeps the decoded
    # bytes in the reader; the stream itself is decoded here instead.
    return lambda: entry._embedded_file


def _associated_files(reader: PdfReader) -> Iterator[_Candidate]:
    try:
        catalog = reader.trailer["/Root"].get_object()
        associated = catalog.get("/AF") if isinstance(catalog, DictionaryObject) else None
        specs = list(associated.get_object()) if associated is not None else []
    except Exception as exc:
        log.debug("/AF unreadable: %s", exc)
        return
    for spec_ref in specs:
        candidate = _read_file_spec(spec_ref)
        if candidate is not None:
            yield candidate


def _read_file_spec(spec_ref: object) -> _Candidate | None:
    try:
        spec = spec_ref.get_object()  # type: ignore[attr-defined]
        name = str(spec.get("/UF") or spec.get("/F") or "")
        stream = (spec["/EF"].get("/F") or spec["/EF"].get("/UF")).get_object()
    except Exception as exc:
        log.debug("file spec unreadable: %s", exc)
        return None
    if not isinstance(stream, StreamObject):
        return None
    relationship = spec.get("/AFRelationship")
    return _Candidate(name, lambda: stream, str(relationship) if relationship is not None else "")

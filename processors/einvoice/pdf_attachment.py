"""Find the e-invoice XML embedded in a PDF/A-3 (Factur-X, ZUGFeRD, XRechnung in PDF).

Candidates come from the document's associated files (the catalog's /AF array, PDF/A-3)
and from the embedded-files name tree. Well-known attachment names win, in the order of
`KNOWN_NAMES`; otherwise the first associated XML file whose root is an invoice.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from dataclasses import dataclass

from pypdf import PdfReader
from pypdf.errors import PdfReadError
from pypdf.generic import DictionaryObject

from processors.einvoice.profiles import ROOTS
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


class UnreadablePdfError(Exception):
    """The PDF cannot be opened (corrupt or encrypted with a user password)."""


def find_embedded_invoice(pdf: bytes) -> EmbeddedXml | None:
    candidates = list(_embedded_files(_open(pdf)))
    for known in KNOWN_NAMES:
        for candidate in candidates:
            if candidate.name.lower() == known and _is_invoice(candidate.data):
                return candidate
    for candidate in candidates:
        if candidate.relationship is not None and _is_invoice(candidate.data):
            return candidate
    return None


def _open(pdf: bytes) -> PdfReader:
    try:
        reader = PdfReader(io.BytesIO(pdf), strict=False)
        if reader.is_encrypted and not reader.decrypt(""):
            raise UnreadablePdfError("the PDF is encrypted with a password")
        return reader
    except (PdfReadError, ValueError, KeyError, OSError) as exc:
        raise UnreadablePdfError(f"the PDF cannot be read: {exc}") from exc


def _is_invoice(data: bytes) -> bool:
    root = peek_root(data[:8192])
    return root is not None and (root.namespace, root.local_name) in ROOTS


def _embedded_files(reader: PdfReader) -> Iterator[EmbeddedXml]:
    yield from _associated_files(reader)
    try:
        attachments = reader.attachments
        for name in attachments:
            for data in attachments[name]:
                if len(data) <= MAX_XML_BYTES:
                    yield EmbeddedXml(str(name), data, None)
    except Exception as exc:
        log.debug("embedded-files name tree unreadable: %s", exc)


def _associated_files(reader: PdfReader) -> Iterator[EmbeddedXml]:
    try:
        catalog = reader.trailer["/Root"].get_object()
        associated = catalog.get("/AF") if isinstance(catalog, DictionaryObject) else None
        specs = list(associated.get_object()) if associated is not None else []
    except Exception as exc:
        log.debug("/AF unreadable: %s", exc)
        return
    for spec_ref in specs:
        embedded = _read_file_spec(spec_ref)
        if embedded is not None:
            yield embedded


def _read_file_spec(spec_ref: object) -> EmbeddedXml | None:
    try:
        spec = spec_ref.get_object()  # type: ignore[attr-defined]
        name = str(spec.get("/UF") or spec.get("/F") or "")
        stream = spec["/EF"].get("/F") or spec["/EF"].get("/UF")
        data = stream.get_object().get_data()
    except Exception as exc:
        log.debug("file spec unreadable: %s", exc)
        return None
    if not isinstance(data, bytes) or len(data) > MAX_XML_BYTES:
        return None
    relationship = spec.get("/AFRelationship")
    return EmbeddedXml(name, data, str(relationship) if relationship is not None else "")

"""The one pure entry point: bytes and context in, an `Outcome` out.

Steps (docs/processors.md):
1. intake: refuse what no processor may read (empty files, kinds the documentType does
   not accept) with `IntakeRejected`, the "failed before reading started" of the spec;
2. choose: the registry picks the processor with the highest score;
3. process: that processor reads the file and returns an `Outcome` or raises
   `ProcessingError`.
Every processor gets a PDF from its `%PDF-` header on (junk before it is dropped).
Size limits and time limits belong to the caller (API and orchestrator).
"""

from __future__ import annotations

from collections.abc import Mapping

from processors.base import (
    DocumentType,
    FailureCode,
    FileKind,
    Outcome,
    ProcessingContext,
    ProcessingError,
)
from processors.registry import NoProcessorFound, Registry, default_registry
from processors.sniff import (
    XML_ROOT_WINDOW,
    Identified,
    from_pdf_header,
    identify,
    open_zip_document,
    xml_root,
)
from processors.zipsafe import read_head

HEAD_SIZE = 8192
"""What `Processor.score` sees: enough for magic bytes, a prolog and a root start tag."""

_INVOICE_KINDS = frozenset({FileKind.PDF, FileKind.XML})
ACCEPTED_KINDS: Mapping[DocumentType, frozenset[FileKind]] = {
    DocumentType.AUTO: _INVOICE_KINDS,
    DocumentType.SUPPLIER_INVOICE: _INVOICE_KINDS,
    DocumentType.CUSTOMER_INVOICE: _INVOICE_KINDS,
    DocumentType.OTHER_DOCUMENT: _INVOICE_KINDS,
    DocumentType.BANK_STATEMENT: frozenset({FileKind.PDF}),
}

# A DATEV document archive ("Belegtransfer") is a ZIP with a document.xml at its root.
_DATEV_NAMESPACE_PREFIX = "http://xml.datev.de/"
_DATEV_ARCHIVE_INDEX = "document.xml"


class IntakeRejected(ProcessingError):
    """The file failed the intake checks; no processor has read it. The spec's
    "failed before reading started": a repeated upload request retries it."""


def read_document(
    data: bytes, context: ProcessingContext, registry: Registry | None = None
) -> Outcome:
    kind = check_intake(data, context)
    if kind is FileKind.PDF:
        data = from_pdf_header(data)
    chosen = registry or default_registry()
    try:
        return chosen.process(data, kind, data[:HEAD_SIZE], context)
    except NoProcessorFound as error:
        raise IntakeRejected(error.code, error.message) from error


def check_intake(data: bytes, context: ProcessingContext) -> FileKind:
    """The sniffed kind, when the documentType accepts it; else `IntakeRejected`."""
    identified = identify(data)
    if identified.kind is FileKind.EMPTY:
        raise IntakeRejected(FailureCode.UNSUPPORTED_FILE_TYPE, "The file is empty.")
    if identified.kind not in ACCEPTED_KINDS[context.document_type]:
        raise IntakeRejected(
            FailureCode.UNSUPPORTED_FILE_TYPE, _refusal_message(data, identified, context)
        )
    return identified.kind


def _refusal_message(data: bytes, identified: Identified, context: ProcessingContext) -> str:
    if identified.kind is FileKind.ZIP and _is_datev_archive(data):
        return "The file is a DATEV document archive; DATEV files are not accepted."
    accepted = " or ".join(
        sorted(kind.value.upper() for kind in ACCEPTED_KINDS[context.document_type])
    )
    what = f"The file is {identified.label}"
    if identified.kind is FileKind.ZIP:
        what += "; archives are unpacked only when sent as a batch, never inside one"
    return f"{what}. documentType {context.document_type.value!r} accepts {accepted} files."


def _is_datev_archive(data: bytes) -> bool:
    archive = open_zip_document(data)
    if archive is None:
        return False
    with archive:
        head = read_head(archive, _DATEV_ARCHIVE_INDEX, XML_ROOT_WINDOW)
    if head is None:
        return False
    root = xml_root(head)
    return root is not None and root.namespace.startswith(_DATEV_NAMESPACE_PREFIX)

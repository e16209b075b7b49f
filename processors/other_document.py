"""The fallback processor: files any PDF or XML that no specific processor takes.

It scores lowest, so every specific processor (e-invoices, SEPA, bank statements) wins
when it can take the file. Sent as `bank_statement`, a file never ends up in other
documents: the client told us what it is, so a file we cannot read as a statement
fails with `not_a_bank_statement` (see docs/processors.md, "bank statements for now").
"""

from __future__ import annotations

from typing import Any

from processors.base import (
    DocumentType,
    FailureCode,
    FileKind,
    Outcome,
    ProcessingContext,
    ProcessingError,
    ResultType,
)
from processors.pdf import open_pdf, summarize
from processors.sniff import XML_ROOT_WINDOW, sniff, xml_root

FALLBACK_SCORE = 1
NO_BANK_STATEMENT_READER = "no bank statement reader is installed"


class OtherDocumentProcessor:
    name = "other_document"

    def score(self, kind: FileKind, head: bytes, context: ProcessingContext) -> int:
        return FALLBACK_SCORE if kind in (FileKind.PDF, FileKind.XML) else 0

    def process(self, data: bytes, context: ProcessingContext) -> Outcome:
        kind = sniff(data)
        if kind is FileKind.PDF:
            metadata = _pdf_metadata(data)
        elif kind is FileKind.XML:
            metadata = _xml_metadata(data)
        else:
            raise ProcessingError(
                FailureCode.UNSUPPORTED_FILE_TYPE, "Only PDF and XML files are filed as documents."
            )
        if context.document_type is DocumentType.BANK_STATEMENT:
            raise ProcessingError(
                FailureCode.NOT_A_BANK_STATEMENT,
                f"The file could not be read as a bank statement: {NO_BANK_STATEMENT_READER}.",
            )
        return Outcome(
            ResultType.OTHER_DOCUMENT, {"kind": kind.value, "size": len(data), **metadata}
        )


def _pdf_metadata(data: bytes) -> dict[str, Any]:
    """Opening the PDF is also the password check."""
    summary = summarize(open_pdf(data))
    return {"page_count": summary.page_count, "title": summary.title}


def _xml_metadata(data: bytes) -> dict[str, Any]:
    root = xml_root(data[:XML_ROOT_WINDOW])
    return {
        "page_count": None,
        "title": None,
        "root_namespace": root.namespace if root else None,
        "root_element": root.local_name if root else None,
    }

"""The fallback processor: files any PDF or XML that no specific processor takes.

It scores lowest, so every specific processor (e-invoices, SEPA, bank statements, PDF
text invoices) wins when it can take the file, and takes what they decline. PDFs sent
as `bank_statement` never get here: the bank statement processor takes them all.
"""

from __future__ import annotations

from typing import Any

from processors.base import (
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

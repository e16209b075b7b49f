"""The fallback processor: files any PDF or XML that no specific processor takes.

It scores lowest, so every specific processor (e-invoices, SEPA, bank statements, PDF
text invoices) wins when it can take the file, and takes what they decline. PDFs sent
as `bank_statement` never get here: the bank statement processor takes them all.
"""

from __future__ import annotations

from processors.base import (
    FailureCode,
    FileKind,
    Outcome,
    ProcessingContext,
    ProcessingError,
)
from processors.pdf import open_pdf, summarize
from processors.results.other_document import FiledPdf, FiledXml
from processors.sniff import XML_ROOT_WINDOW, sniff, xml_root

FALLBACK_SCORE = 1


class OtherDocumentProcessor:
    name = "other_document"

    def score(self, kind: FileKind, head: bytes, context: ProcessingContext) -> int:
        return FALLBACK_SCORE if kind in (FileKind.PDF, FileKind.XML) else 0

    def process(self, data: bytes, context: ProcessingContext) -> Outcome:
        kind = sniff(data)
        if kind is FileKind.PDF:
            return Outcome(_filed_pdf(data))
        if kind is FileKind.XML:
            return Outcome(_filed_xml(data))
        raise ProcessingError(
            FailureCode.UNSUPPORTED_FILE_TYPE, "Only PDF and XML files are filed as documents."
        )


def _filed_pdf(data: bytes) -> FiledPdf:
    """Opening the PDF is also the password check."""
    summary = summarize(open_pdf(data))
    return FiledPdf(size=len(data), page_count=summary.page_count, title=summary.title)


def _filed_xml(data: bytes) -> FiledXml:
    root = xml_root(data[:XML_ROOT_WINDOW])
    return FiledXml(
        size=len(data),
        root_namespace=root.namespace if root else None,
        root_element=root.local_name if root else None,
    )

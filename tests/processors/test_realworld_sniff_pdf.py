"""Issue 15, class 2: bytes before the `%PDF-` header (docs/realworld.md).

Readers accept up to 1,024 bytes of junk before the header (PDFium looks at offsets 0 to
1,024); such a PDF is sniffed as a PDF and every reader gets it from its header on. The
junk is what mail gateways and download scripts prepend (HTTP and MIME headers, NUL
padding, stray binary), with the PDF's offsets counted from its header (junk prepended
later) or from the start of the file (written with the junk).
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from processors.base import DocumentType, FailureCode, FileKind, Outcome
from processors.pipeline import IntakeRejected, read_document
from processors.sniff import MAX_PDF_HEADER_OFFSET, identify, pdf_header_offset
from testkit.generated_docs import (
    SAMPLE_INVOICE,
    SAMPLE_STATEMENT,
    german_invoice,
    german_statement,
)
from tests.processors.conftest import context
from tests.processors.scans import GRADE, scan

_XREF_ENTRY = re.compile(rb"^(\d{10}) (\d{5}) n", re.MULTILINE)
_STARTXREF = re.compile(rb"startxref\s+(\d+)")


def junk(kind: str, size: int) -> bytes:
    """`size` bytes of one kind of junk, never containing `%PDF`."""
    if kind == "nul":
        return b"\x00" * size
    if kind == "binary":
        noise = random.Random(size).randbytes(size).replace(b"%", b"#")
        return (b"\x01" + noise)[:size]
    header = {
        "http": b"HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\n",
        "mime": b"Content-Type: application/pdf; name=rechnung.pdf\r\n",
    }[kind]
    padded = header + b"X-Padding: " + b"x" * size
    return (padded[: max(size - 2, 0)] + b"\r\n")[-size:] if size else b""


def with_junk(pdf: bytes, prefix: bytes, *, offsets_from_file_start: bool = False) -> bytes:
    """The PDF after `prefix`; its cross-reference offsets count from the header, or from
    the start of the file when the junk was written with it."""
    if offsets_from_file_start:
        shift = len(prefix)
        pdf = _XREF_ENTRY.sub(lambda m: b"%010d %s n" % (int(m[1]) + shift, m[2]), pdf)
        pdf = _STARTXREF.sub(lambda m: b"startxref\n%d" % (int(m[1]) + shift), pdf)
    return prefix + pdf


KINDS = ("http", "mime", "nul", "binary")
SIZES = (1, 100, 517, MAX_PDF_HEADER_OFFSET)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("kind", KINDS)
def test_a_header_after_up_to_1024_junk_bytes_is_a_pdf(kind: str, size: int) -> None:
    data = with_junk(german_invoice(SAMPLE_INVOICE), junk(kind, size))
    assert len(data) - len(german_invoice(SAMPLE_INVOICE)) == size
    assert identify(data).kind is FileKind.PDF
    assert pdf_header_offset(data) == size


@pytest.mark.parametrize("kind", KINDS)
def test_a_header_after_1025_junk_bytes_is_not_a_pdf(kind: str) -> None:
    data = with_junk(german_invoice(SAMPLE_INVOICE), junk(kind, MAX_PDF_HEADER_OFFSET + 1))
    assert pdf_header_offset(data) is None
    assert identify(data).kind is FileKind.UNKNOWN
    with pytest.raises(IntakeRejected) as raised:
        read_document(data, context())
    assert raised.value.code is FailureCode.UNSUPPORTED_FILE_TYPE


def _read(data: bytes, document_type: DocumentType = DocumentType.AUTO) -> Outcome:
    return read_document(data, context(document_type))


@pytest.mark.parametrize("offsets_from_file_start", [False, True], ids=["header", "file-start"])
@pytest.mark.parametrize("size", SIZES)
def test_a_text_invoice_after_junk_reads_as_without(
    size: int, offsets_from_file_start: bool
) -> None:
    pdf = german_invoice(SAMPLE_INVOICE)
    data = with_junk(pdf, junk("mime", size), offsets_from_file_start=offsets_from_file_start)
    outcome = _read(data)
    assert outcome == _read(pdf)
    assert outcome.data["invoice"]["number"] == SAMPLE_INVOICE.number


@pytest.mark.parametrize("offsets_from_file_start", [False, True], ids=["header", "file-start"])
def test_a_bank_statement_after_junk_reads_as_without(offsets_from_file_start: bool) -> None:
    pdf = german_statement(SAMPLE_STATEMENT)
    data = with_junk(pdf, junk("http", 300), offsets_from_file_start=offsets_from_file_start)
    outcome = _read(data, DocumentType.BANK_STATEMENT)
    assert outcome == _read(pdf, DocumentType.BANK_STATEMENT)
    assert len(outcome.data["transactions"]) == len(SAMPLE_STATEMENT.bookings)


def test_an_other_document_after_junk_counts_the_pdf_from_its_header() -> None:
    pdf = german_invoice(SAMPLE_INVOICE)
    outcome = _read(with_junk(pdf, junk("nul", 64)), DocumentType.OTHER_DOCUMENT)
    assert outcome == _read(pdf, DocumentType.OTHER_DOCUMENT)
    assert outcome.data["size"] == len(pdf)


def test_a_scan_after_junk_is_read_by_ocr() -> None:
    pdf = scan(german_invoice(SAMPLE_INVOICE), GRADE["g0-clean"])
    outcome = _read(with_junk(pdf, junk("binary", MAX_PDF_HEADER_OFFSET)))
    assert outcome.data["invoice"] == _read(pdf).data["invoice"]  # OCR's seconds differ
    assert outcome.data["invoice"]["number"] == SAMPLE_INVOICE.number


def test_a_factur_x_pdf_after_junk_is_read_as_an_e_invoice(
    corpus: Path, requires_rules: None
) -> None:
    pdf = (corpus / "akretion+factur-x/tests/fixtures/pdf/invoice_EN16931.pdf").read_bytes()
    outcome = _read(with_junk(pdf, junk("mime", 200)))
    assert outcome == _read(pdf)
    assert outcome.data["source"]["container"] == "pdf"
    assert outcome.data["validation"]["valid"] is True

"""read_document end to end: the shared corpus (../shared/corpus) and generated files."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfWriter

from processors.base import (
    CompanyProfile,
    DocumentType,
    FailureCode,
    FileKind,
    Outcome,
    ProcessingContext,
    ProcessingError,
    ResultType,
)
from processors.other_document import OtherDocumentProcessor
from processors.pipeline import IntakeRejected, read_document
from processors.registry import Registry, default_registry
from processors.sniff import sniff

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
MANIFEST = CORPUS / "manifest.jsonl"
COMPANY = CompanyProfile(name="Muster GmbH", vat_ids=("DE123456789",))


def corpus_rows(*expected: str, kind: FileKind | None = None) -> list[Any]:
    """Manifest rows with one of the `expected` labels (and of `kind`, sniffed)."""
    if not MANIFEST.is_file():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"no corpus at {CORPUS}"))]
    rows = [json.loads(line) for line in MANIFEST.read_text().splitlines() if line.strip()]
    return [
        pytest.param(row, id=row["file"])
        for row in rows
        if row["expected"] in expected
        and (kind is None or sniff((CORPUS / row["file"]).read_bytes()) is kind)
    ]


def context(
    document_type: DocumentType = DocumentType.AUTO, name: str = "upload"
) -> ProcessingContext:
    return ProcessingContext(document_type=document_type, file_name=name, company=COMPANY)


def read(data: bytes, document_type: DocumentType = DocumentType.AUTO) -> Outcome:
    # The fallback alone: these tests pin the pipeline, not processors added later.
    return read_document(data, context(document_type), Registry([OtherDocumentProcessor()]))


def failure(data: bytes, document_type: DocumentType = DocumentType.AUTO) -> ProcessingError:
    with pytest.raises(ProcessingError) as raised:
        read(data, document_type)
    return raised.value


def corpus_bytes(row: dict[str, str]) -> bytes:
    return (CORPUS / row["file"]).read_bytes()


# --- the corpus ---------------------------------------------------------------------


@pytest.mark.parametrize("row", corpus_rows("password_protected"))
@pytest.mark.parametrize("document_type", [DocumentType.AUTO, DocumentType.BANK_STATEMENT])
def test_corpus_password_protected(row: dict[str, str], document_type: DocumentType) -> None:
    error = failure(corpus_bytes(row), document_type)
    assert error.code is FailureCode.PASSWORD_PROTECTED
    assert not isinstance(error, IntakeRejected)


@pytest.mark.parametrize("row", corpus_rows("opens_without_password"))
def test_corpus_opens_without_password(row: dict[str, str]) -> None:
    try:
        read_document(corpus_bytes(row), context())
    except ProcessingError as error:
        assert error.code is not FailureCode.PASSWORD_PROTECTED, error.message


@pytest.mark.parametrize("row", corpus_rows("unsupported_file_type"))
@pytest.mark.parametrize("document_type", list(DocumentType))
def test_corpus_unsupported_file_type_fails_at_intake(
    row: dict[str, str], document_type: DocumentType
) -> None:
    error = failure(corpus_bytes(row), document_type)
    assert isinstance(error, IntakeRejected)
    assert error.code is FailureCode.UNSUPPORTED_FILE_TYPE


@pytest.mark.parametrize("row", corpus_rows("plain_pdf"))
@pytest.mark.parametrize("document_type", [DocumentType.AUTO, DocumentType.OTHER_DOCUMENT])
def test_corpus_plain_pdf_is_an_other_document(
    row: dict[str, str], document_type: DocumentType
) -> None:
    outcome = read_document(corpus_bytes(row), context(document_type))
    assert outcome.result_type is ResultType.OTHER_DOCUMENT
    assert outcome.data["kind"] == "pdf"
    assert outcome.data["page_count"] >= 1


# DATEV XML files are refused by the DATEV processor; DATEV archives (ZIP) at intake.
@pytest.mark.parametrize("row", corpus_rows("refuse_datev", kind=FileKind.ZIP))
def test_corpus_datev_archive_is_refused_at_intake(row: dict[str, str]) -> None:
    error = failure(corpus_bytes(row))
    assert isinstance(error, IntakeRejected)
    assert error.code is FailureCode.UNSUPPORTED_FILE_TYPE
    assert "DATEV" in error.message


# --- generated files ----------------------------------------------------------------


def blank_pdf(
    *, user: str | None = None, owner: str = "owner", algorithm: str = "AES-256"
) -> bytes:
    writer = PdfWriter()
    writer.add_blank_page(width=200, height=200)
    writer.add_metadata({"/Title": "Protokoll"})
    if user is not None:
        writer.encrypt(user_password=user, owner_password=owner, algorithm=algorithm)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def make_zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return buffer.getvalue()


DOCX = make_zip({"[Content_Types].xml": b"<Types/>", "word/document.xml": b"<w:document/>"})
XLSX = make_zip({"[Content_Types].xml": b"<Types/>", "xl/workbook.xml": b"<workbook/>"})
XML_DOCUMENT = b'<?xml version="1.0"?><Report xmlns="urn:example:report"><Line/></Report>'


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(b"", id="empty"),
        pytest.param(b" \n\t\r\n", id="whitespace"),
        pytest.param(b"\x89PNG\r\n\x1a\n" + b"\x00" * 32, id="png"),
        pytest.param(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01", id="jpeg"),
        pytest.param(DOCX, id="docx"),
        pytest.param(XLSX, id="xlsx"),
        pytest.param(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 504, id="ole2"),
        pytest.param(make_zip({"inner.zip": make_zip({"a.pdf": blank_pdf()})}), id="nested-zip"),
        pytest.param(make_zip({"a.pdf": blank_pdf()}), id="zip"),
        pytest.param(b"Datum;Betrag\n01.01.2024;12,00\n", id="csv"),
    ],
)
@pytest.mark.parametrize("document_type", list(DocumentType))
def test_unsupported_files_fail_at_intake(data: bytes, document_type: DocumentType) -> None:
    error = failure(data, document_type)
    assert isinstance(error, IntakeRejected)
    assert error.code is FailureCode.UNSUPPORTED_FILE_TYPE
    assert error.message


def test_intake_message_names_the_format_and_what_is_accepted() -> None:
    message = failure(DOCX, DocumentType.BANK_STATEMENT).message
    assert "Office" in message
    assert "accepts PDF" in message


def test_bank_statement_as_xml_fails_at_intake() -> None:
    error = failure(XML_DOCUMENT, DocumentType.BANK_STATEMENT)
    assert isinstance(error, IntakeRejected)
    assert error.code is FailureCode.UNSUPPORTED_FILE_TYPE


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(blank_pdf()[:70], id="truncated"),
        pytest.param(b"%PDF-1.7\n" + bytes(range(256)) * 8, id="corrupt"),
    ],
)
def test_unparseable_pdf_is_unreadable_after_intake(data: bytes) -> None:
    error = failure(data)
    assert error.code is FailureCode.UNREADABLE_DOCUMENT
    assert not isinstance(error, IntakeRejected)


@pytest.mark.parametrize("algorithm", ["AES-256", "RC4-128"])
@pytest.mark.parametrize("document_type", list(DocumentType))
def test_user_password_pdf_is_password_protected(
    algorithm: str, document_type: DocumentType
) -> None:
    error = failure(blank_pdf(user="secret", algorithm=algorithm), document_type)
    assert error.code is FailureCode.PASSWORD_PROTECTED
    assert not isinstance(error, IntakeRejected)


def test_owner_password_only_pdf_is_filed() -> None:
    outcome = read(blank_pdf(user="", owner="owner"))
    assert outcome.result_type is ResultType.OTHER_DOCUMENT
    assert outcome.data["title"] == "Protokoll"


@pytest.mark.parametrize("document_type", [DocumentType.AUTO, DocumentType.OTHER_DOCUMENT])
def test_pdf_no_processor_takes_is_an_other_document(document_type: DocumentType) -> None:
    data = blank_pdf()
    outcome = read(data, document_type)
    assert outcome.result_type is ResultType.OTHER_DOCUMENT
    assert dict(outcome.data) == {
        "kind": "pdf",
        "size": len(data),
        "page_count": 1,
        "title": "Protokoll",
    }
    json.dumps(dict(outcome.data))


def test_xml_no_processor_takes_is_an_other_document() -> None:
    outcome = read(XML_DOCUMENT)
    assert outcome.result_type is ResultType.OTHER_DOCUMENT
    assert outcome.data["root_namespace"] == "urn:example:report"
    assert outcome.data["root_element"] == "Report"


def test_pdf_without_text_is_never_filed_as_other_document_when_typed() -> None:
    """The client said what the file is; a blank page cannot be read as that."""
    for document_type in (
        DocumentType.BANK_STATEMENT,
        DocumentType.SUPPLIER_INVOICE,
        DocumentType.CUSTOMER_INVOICE,
    ):
        with pytest.raises(ProcessingError) as raised:
            read_document(blank_pdf(), context(document_type), default_registry())
        assert raised.value.code is FailureCode.UNREADABLE_DOCUMENT
        assert not isinstance(raised.value, IntakeRejected)


def test_kind_no_registered_processor_takes_fails_at_intake() -> None:
    with pytest.raises(IntakeRejected) as raised:
        read_document(blank_pdf(), context(), Registry([]))
    assert raised.value.code is FailureCode.UNSUPPORTED_FILE_TYPE

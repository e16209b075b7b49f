"""Issue 15, class 7: password-protected PDFs (docs/realworld.md).

A PDF is `password_protected` unless the empty password is its user password. An empty
owner password beside a real user password does not count: pypdf decrypts with it, but
PDFium (our renderer, and Chrome's) asks for the user password. Every path that opens a
PDF applies the rule: the text layer, OCR (PDFium renders), an embedded e-invoice.
PDFs are encrypted with pypdf in every algorithm it writes.
"""

from __future__ import annotations

import io
from pathlib import Path

import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pytest
from pypdf import PasswordType, PdfReader, PdfWriter
from pypdf._encryption import AlgV5
from pypdf.generic import ByteStringObject, NameObject

from processors.base import DocumentType, FailureCode, ProcessingError, ResultType
from processors.einvoice import EInvoiceProcessor
from processors.pipeline import read_document
from testkit.generated_docs import SAMPLE_INVOICE, german_invoice
from tests.processors.conftest import context
from tests.processors.scans import GRADE, scan

ALGORITHMS = ("RC4-40", "RC4-128", "AES-128", "AES-256-R5", "AES-256")
PROTECTED = (("secret", "owner"), ("secret", ""), ("secret", "secret"))
OPEN = (("", "owner"), ("", ""))
DOCUMENT_TYPES = tuple(DocumentType)
FACTUR_X = "akretion+factur-x/tests/fixtures/pdf/invoice_EN16931.pdf"


def encrypt(pdf: bytes, *, user: str, owner: str, algorithm: str) -> bytes:
    """pypdf writes an empty owner password as "the user password"; here an empty one is
    written as such, by computing /O and /U again for it."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    writer.encrypt(user_password=user, owner_password=owner or "placeholder", algorithm=algorithm)
    if not owner:
        _empty_owner_password(writer, user)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _empty_owner_password(writer: PdfWriter, user: str) -> None:
    encryption, entry = writer._encryption, writer._encrypt_entry
    assert encryption is not None and entry is not None
    if encryption.V <= 4:
        encryption.compute_values_v4(user.encode(), b"")  # the key follows /O here
        values = {"/O": encryption.values.O, "/U": encryption.values.U}
    else:
        values = AlgV5.generate_values(
            encryption.R, user.encode(), b"", encryption._key, encryption.P, True
        )
        for name, value in values.items():
            setattr(encryption.values, name[1:], value)
    for name, value in values.items():
        entry[NameObject(name)] = ByteStringObject(value)


def _failure(data: bytes, document_type: DocumentType = DocumentType.AUTO) -> FailureCode:
    with pytest.raises(ProcessingError) as raised:
        read_document(data, context(document_type))
    return raised.value.code


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_the_empty_owner_password_case_is_what_it_claims(algorithm: str) -> None:
    """pypdf opens it with the empty password (as owner), PDFium asks for a password."""
    data = encrypt(german_invoice(SAMPLE_INVOICE), user="secret", owner="", algorithm=algorithm)
    assert PdfReader(io.BytesIO(data)).decrypt("") is PasswordType.OWNER_PASSWORD
    assert PdfReader(io.BytesIO(data)).decrypt("secret") is not PasswordType.NOT_DECRYPTED
    with pytest.raises(pdfium.PdfiumError) as raised:
        pdfium.PdfDocument(data)
    assert raised.value.err_code == pdfium.raw.FPDF_ERR_PASSWORD


@pytest.mark.parametrize("document_type", DOCUMENT_TYPES)
@pytest.mark.parametrize(("user", "owner"), PROTECTED)
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_a_user_password_is_password_protected(
    algorithm: str, user: str, owner: str, document_type: DocumentType
) -> None:
    data = encrypt(german_invoice(SAMPLE_INVOICE), user=user, owner=owner, algorithm=algorithm)
    assert _failure(data, document_type) is FailureCode.PASSWORD_PROTECTED


@pytest.mark.parametrize(("user", "owner"), OPEN)
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_an_empty_user_password_opens(algorithm: str, user: str, owner: str) -> None:
    data = encrypt(german_invoice(SAMPLE_INVOICE), user=user, owner=owner, algorithm=algorithm)
    invoice = read_document(data, context())
    assert invoice.data["invoice"]["number"] == SAMPLE_INVOICE.number
    other = read_document(data, context(DocumentType.OTHER_DOCUMENT))
    assert (other.result_type, other.data["page_count"]) == (ResultType.OTHER_DOCUMENT, 1)


@pytest.mark.parametrize("document_type", [DocumentType.AUTO, DocumentType.BANK_STATEMENT])
def test_a_scan_with_a_user_password_is_password_protected(document_type: DocumentType) -> None:
    pdf = scan(german_invoice(SAMPLE_INVOICE), GRADE["g0-clean"])
    data = encrypt(pdf, user="secret", owner="", algorithm="AES-256")
    assert _failure(data, document_type) is FailureCode.PASSWORD_PROTECTED


def test_a_scan_with_an_owner_password_only_is_read_by_ocr() -> None:
    pdf = scan(german_invoice(SAMPLE_INVOICE), GRADE["g0-clean"])
    data = encrypt(pdf, user="", owner="owner", algorithm="AES-128")
    outcome = read_document(data, context())
    assert outcome.data["invoice"]["number"] == SAMPLE_INVOICE.number
    assert outcome.data["source"]["method"] == "ocr"


@pytest.mark.parametrize("algorithm", ["RC4-128", "AES-256"])
def test_an_e_invoice_pdf_with_a_user_password_is_password_protected(
    corpus: Path, algorithm: str
) -> None:
    pdf = (corpus / FACTUR_X).read_bytes()
    data = encrypt(pdf, user="secret", owner="", algorithm=algorithm)
    with pytest.raises(ProcessingError) as raised:
        EInvoiceProcessor().process(data, context())
    assert raised.value.code is FailureCode.PASSWORD_PROTECTED
    assert _failure(data) is FailureCode.PASSWORD_PROTECTED


def test_an_e_invoice_pdf_with_an_owner_password_only_is_read(
    corpus: Path, requires_rules: None
) -> None:
    pdf = (corpus / FACTUR_X).read_bytes()
    data = encrypt(pdf, user="", owner="owner", algorithm="AES-256")
    outcome = read_document(data, context())
    assert outcome.result_type is ResultType.INVOICE
    assert outcome.data["source"]["attachment"] == "factur-x.xml"


@pytest.mark.parametrize("name", ["r5-user-password.pdf", "r6-user-password.pdf"])
@pytest.mark.parametrize("document_type", DOCUMENT_TYPES)
def test_corpus_user_password_with_empty_owner_password(
    corpus: Path, name: str, document_type: DocumentType
) -> None:
    """Labelled "ambiguous" in the corpus (pypdf opens them as owner); decided here."""
    data = (corpus / "pypdf-enc" / name).read_bytes()
    assert _failure(data, document_type) is FailureCode.PASSWORD_PROTECTED

"""pypdf helpers: password protection, damaged files, cheap text, contained warnings."""

from __future__ import annotations

import io
import warnings
from typing import Any

import pytest
from pypdf import PdfReader, PdfWriter

from processors import pdf
from processors.base import FailureCode, ProcessingError
from processors.pdf import first_pages_text, is_password_protected, open_pdf, summarize

TEXT = b"Hello invoice"


def build_pdf(*, extra_objects: tuple[bytes, ...] = (), trailer_extra: bytes = b"") -> bytes:
    """A one-page PDF with real text, written by hand so the bytes are fully known."""
    content = b"BT /F1 12 Tf 20 100 Td (" + TEXT + b") Tj ET"
    objects = (
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] "
        b"/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        *extra_objects,
    )
    out = io.BytesIO()
    out.write(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n%s\nendobj\n" % (number, body))
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(
        b"trailer\n<< /Size %d /Root 1 0 R /ID [<00112233445566778899aabbccddeeff> "
        b"<00112233445566778899aabbccddeeff>] %s>>\nstartxref\n%d\n%%%%EOF\n"
        % (len(objects) + 1, trailer_extra, xref)
    )
    return out.getvalue()


def encrypt(data: bytes, *, user: str, owner: str, algorithm: str) -> bytes:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.encrypt(user_password=user, owner_password=owner, algorithm=algorithm)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def blank_pdf(pages: int = 1, title: str | None = None) -> bytes:
    writer = PdfWriter()
    for _ in range(pages):
        writer.add_blank_page(width=200, height=200)
    if title is not None:
        writer.add_metadata({"/Title": title})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_plain_pdf_opens_with_summary_and_text() -> None:
    reader = open_pdf(build_pdf())
    assert summarize(reader) == pdf.PdfSummary(page_count=1, title=None, encrypted=False)
    assert TEXT.decode() in first_pages_text(reader)
    assert not is_password_protected(build_pdf())


def test_title_and_page_count_from_metadata() -> None:
    summary = summarize(open_pdf(blank_pdf(pages=3, title="  Lieferschein 42 ")))
    assert (summary.page_count, summary.title) == (3, "Lieferschein 42")


def test_text_is_cut_to_the_first_pages_and_a_character_budget() -> None:
    reader = open_pdf(build_pdf())
    assert first_pages_text(reader, max_chars=5) == TEXT.decode()[:5]
    assert first_pages_text(reader, max_pages=0) == ""


@pytest.mark.parametrize("algorithm", ["AES-256", "AES-256-R5", "AES-128", "RC4-128", "RC4-40"])
def test_user_password_is_protected(algorithm: str) -> None:
    data = encrypt(build_pdf(), user="secret", owner="owner", algorithm=algorithm)
    assert is_password_protected(data)
    with pytest.raises(ProcessingError) as raised:
        open_pdf(data)
    assert raised.value.code is FailureCode.PASSWORD_PROTECTED


@pytest.mark.parametrize("algorithm", ["AES-256", "RC4-128"])
def test_owner_password_only_is_not_protected(algorithm: str) -> None:
    data = encrypt(build_pdf(), user="", owner="owner", algorithm=algorithm)
    assert not is_password_protected(data)
    reader = open_pdf(data)
    assert summarize(reader).encrypted
    assert TEXT.decode() in first_pages_text(reader)


def test_certificate_encryption_is_protected() -> None:
    pubsec = b"<< /Filter /Adobe.PubSec /V 4 /SubFilter /adbe.pkcs7.s5 /Recipients [] >>"
    data = build_pdf(extra_objects=(pubsec,), trailer_extra=b"/Encrypt 6 0 R ")
    assert is_password_protected(data)


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(build_pdf()[:60], id="truncated-early"),
        pytest.param(build_pdf()[: len(build_pdf()) // 2], id="truncated-half"),
        pytest.param(b"%PDF-1.7\n" + bytes(range(256)) * 20, id="garbage-after-header"),
        pytest.param(b"%PDF-1.4\n%%EOF\n", id="header-only"),
        pytest.param(b"not a pdf at all", id="not-a-pdf"),
    ],
)
def test_unparseable_pdf_is_unreadable(data: bytes) -> None:
    with pytest.raises(ProcessingError) as raised:
        open_pdf(data)
    assert raised.value.code is FailureCode.UNREADABLE_DOCUMENT
    with pytest.raises(ProcessingError):
        is_password_protected(data)


def test_pdf_without_pages_is_unreadable() -> None:
    with pytest.raises(ProcessingError) as raised:
        open_pdf(blank_pdf(pages=0))
    assert raised.value.code is FailureCode.UNREADABLE_DOCUMENT


def test_damaged_page_content_gives_no_text_but_no_failure() -> None:
    damaged = build_pdf().replace(b"/Contents 5 0 R", b"/Contents 99 0 R")
    assert first_pages_text(open_pdf(damaged)) == ""


def test_warnings_from_pypdf_are_logged_not_raised(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def warning_reader(*args: Any, **kwargs: Any) -> PdfReader:
        warnings.warn("something odd in this PDF", UserWarning, stacklevel=1)
        return PdfReader(*args, **kwargs)

    monkeypatch.setattr(pdf, "PdfReader", warning_reader)
    with caplog.at_level("INFO", logger="processors.pdf"):
        open_pdf(build_pdf())
    assert "something odd in this PDF" in caplog.text

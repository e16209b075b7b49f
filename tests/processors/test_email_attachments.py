"""What becomes an upload of a message (processors/email_message.py, docs/email.md):
winmail.dat opened into its files (tnefparse), inline images taken as documents from
INLINE_IMAGE_MIN_BYTES on, logos and bodies skipped."""

from __future__ import annotations

import io
import zipfile
from email.message import EmailMessage

import pytest

from processors.email_message import INLINE_IMAGE_MIN_BYTES, read_message
from processors.tnef import MAX_OBJECTS, read_tnef
from tests.processors.tnef_docs import many_tiny_objects, winmail_dat

PDF = b"%PDF-1.4\n" + bytes(200) + b"\n%%EOF\n"
XML = (
    b'<?xml version="1.0"?>'
    b'<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>'
)


def _message() -> EmailMessage:
    message = EmailMessage()
    message["From"], message["Subject"] = "a@lieferant.example", "Rechnung"
    message.set_content("Anbei.")
    return message


def _with_winmail(data: bytes, content_type: str = "application/ms-tnef") -> bytes:
    message = _message()
    maintype, subtype = content_type.split("/")
    message.add_attachment(data, maintype=maintype, subtype=subtype, filename="winmail.dat")
    return message.as_bytes()


def _zip(name: str, data: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(name, data)
    return buffer.getvalue()


def test_winmail_dat_becomes_the_files_it_carries() -> None:
    tnef = winmail_dat(
        [("Rechnung 42.pdf", PDF), ("xrechnung.xml", XML), ("more.zip", _zip("a.pdf", PDF))]
    )

    found = read_message(_with_winmail(tnef), max_attachments=100).attachments

    assert [(a.name, a.payload, a.is_archive, a.problem) for a in found[:2]] == [
        ("Rechnung 42.pdf", PDF, False, None),
        ("xrechnung.xml", XML, False, None),
    ]
    assert found[2].name == "more.zip" and found[2].is_archive


def test_winmail_dat_is_found_by_its_name_too() -> None:
    tnef = winmail_dat([("r.pdf", PDF)])

    found = read_message(_with_winmail(tnef, "application/octet-stream"), 100).attachments

    assert [(a.name, a.payload) for a in found] == [("r.pdf", PDF)]


def test_a_winmail_dat_path_in_a_name_is_cut() -> None:
    found = read_message(_with_winmail(winmail_dat([("..\\..\\evil.pdf", PDF)])), 100)
    assert [a.name for a in found.attachments] == ["evil.pdf"]


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (b"not tnef at all", "is not TNEF"),
        (winmail_dat([("r.pdf", PDF)])[:60], None),  # cut short: what is whole is kept
        (many_tiny_objects(MAX_OBJECTS + 1), f"more than {MAX_OBJECTS} parts"),
        (winmail_dat([("r.pdf", PDF)])[:6] + b"\x02\x10\x80\x01\x00" + b"\xff" * 8, None),
    ],
)
def test_a_damaged_winmail_dat_fails_alone(data: bytes, problem: str | None) -> None:
    message = _message()
    message.add_attachment(data, maintype="application", subtype="ms-tnef", filename="winmail.dat")
    message.add_attachment(PDF, maintype="application", subtype="pdf", filename="ok.pdf")

    found = read_message(message.as_bytes(), 100).attachments

    assert found[-1].name == "ok.pdf" and found[-1].problem is None
    if problem is not None:
        assert found[0].name == "winmail.dat" and problem in (found[0].problem or "")
    for attachment in found[:-1]:
        assert attachment.problem is None or "winmail.dat" in attachment.problem


def test_the_tnef_reader_refuses_many_objects_without_parsing() -> None:
    assert read_tnef(many_tiny_objects(MAX_OBJECTS + 1)).problem is not None
    assert read_tnef(many_tiny_objects(10)).problem is None


def _html_with_inline_image(size: int) -> bytes:
    message = _message()
    message.add_alternative('<p>Anbei.</p><img src="cid:img1">', subtype="html")
    html = message.get_payload()[1]  # type: ignore[index]
    assert isinstance(html, EmailMessage)
    html.add_related(b"\xff\xd8\xff\xe0" + bytes(size - 4), "image", "jpeg", cid="<img1>")
    return message.as_bytes()


def test_a_small_inline_image_is_a_logo_and_skipped() -> None:
    found = read_message(_html_with_inline_image(INLINE_IMAGE_MIN_BYTES - 1), 100)
    assert found.attachments == ()


def test_a_large_inline_image_is_a_document() -> None:
    found = read_message(_html_with_inline_image(INLINE_IMAGE_MIN_BYTES), 100).attachments

    assert len(found) == 1
    assert found[0].name == "attachment-1" or found[0].name.startswith("attachment-")
    assert len(found[0].payload) == INLINE_IMAGE_MIN_BYTES and found[0].problem is None

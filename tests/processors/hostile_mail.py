"""The hostile corpus, e-mail part (tests/processors/test_hostile_mail.py)."""

from __future__ import annotations

import base64
import io
import zipfile

MiB = 1024 * 1024
_HEAD = b"From: Mallory <m@example.com>\r\nSubject: hostile\r\nMIME-Version: 1.0\r\n"
PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def _part(headers: str, body: bytes) -> bytes:
    return headers.replace("\n", "\r\n").encode() + b"\r\n" + body + b"\r\n"


def mixed(*parts: bytes, head: bytes = _HEAD, boundary: str = "b0") -> bytes:
    content_type = f'Content-Type: multipart/mixed; boundary="{boundary}"\r\n\r\n'.encode()
    delimiter = f"--{boundary}\r\n".encode()
    body = b"".join(delimiter + part for part in parts)
    return head + content_type + body + f"--{boundary}--\r\n".encode()


def attachment(name: str, data: bytes, content_type: str = "application/pdf") -> bytes:
    encoded = base64.encodebytes(data)
    return _part(
        f"Content-Type: {content_type}\nContent-Transfer-Encoding: base64\n"
        f'Content-Disposition: attachment; filename="{name}"\n',
        encoded,
    )


def deep_multipart(depth: int = 1000) -> bytes:
    opening = b"".join(
        b'Content-Type: multipart/mixed; boundary="d%d"\r\n\r\n--d%d\r\n' % (level, level)
        for level in range(depth)
    )
    closing = b"".join(b"\r\n--d%d--\r\n" % level for level in reversed(range(depth)))
    return _HEAD + opening + b"Content-Type: text/plain\r\n\r\nhello\r\n" + closing


def huge_header(size: int = 10 * MiB) -> bytes:
    line = b"X-Filler: " + b"a" * 68 + b"\r\n"
    return _HEAD + line * (size // len(line)) + b"\r\nbody\r\n"


def base64_garbage() -> bytes:
    encoded = base64.encodebytes(PDF * 50).decode()
    garbled = "".join(char + ("!*" if index % 7 == 0 else "") for index, char in enumerate(encoded))
    part = _part(
        "Content-Type: application/pdf\nContent-Transfer-Encoding: base64\n"
        'Content-Disposition: attachment; filename="garbled.pdf"\n',
        garbled.encode(),
    )
    return mixed(part, attachment("fine.pdf", PDF))


def quoted_printable_bomb(lines: int = 15_000_000) -> bytes:
    """45 MiB of soft line breaks: 15 million lines for the parser, nothing decoded."""
    part = _part(
        "Content-Type: application/xml\nContent-Transfer-Encoding: quoted-printable\n"
        'Content-Disposition: attachment; filename="bomb.xml"\n',
        b"=\r\n" * lines,
    )
    return mixed(part)


def hostile_file_names() -> bytes:
    return mixed(
        attachment("../../../etc/passwd.pdf", PDF),
        attachment("..\\\\..\\\\windows\\\\evil.xml", b"<x/>", "application/xml"),
        _part(
            "Content-Type: application/pdf\nContent-Transfer-Encoding: base64\n"
            "Content-Disposition: attachment; filename*=UTF-8''..%2F..%2Fm%C3%A4rz.pdf\n",
            base64.encodebytes(PDF),
        ),
        _part(
            "Content-Type: application/pdf\nContent-Transfer-Encoding: base64\n"
            "Content-Disposition: attachment; filename*0*=UTF-8''Rech%20;"
            " filename*1*=nung%0A.pdf\n",
            base64.encodebytes(PDF),
        ),
        _part(
            "Content-Type: application/pdf\nContent-Transfer-Encoding: base64\n"
            "Content-Disposition: attachment; filename*=x-no-such-charset''na%FCme.pdf\n",
            base64.encodebytes(PDF),
        ),
    )


def zip_bomb_attachment(members: int = 5, size: int = 64 * MiB) -> bytes:
    """Five members of 64 MiB of zeros, 320 KiB deflated: past the 200 MiB budget."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for index in range(members):
            with archive.open(f"zeros-{index}.pdf", "w") as member:
                for _ in range(size // (16 * MiB)):
                    member.write(bytes(16 * MiB))
    return mixed(attachment("invoices.zip", buffer.getvalue(), "application/zip"))


def unknown_charset() -> bytes:
    head = (
        b"From: =?x-no-such-charset?q?M=FCller?= <m@example.com>\r\n"
        b"Subject: =?x-no-such-charset?b?UmVjaG51bmc=?=\r\nMIME-Version: 1.0\r\n"
    )
    body = _part('Content-Type: text/plain; charset="x-no-such-charset"\n', b"Gr\xfc\xdfe")
    return mixed(body, attachment("invoice.pdf", PDF), head=head)


def too_many_attachments(count: int = 101) -> bytes:
    return mixed(*(attachment(f"invoice-{index}.pdf", PDF) for index in range(count)))


def largest_message(size: int = 36 * MiB) -> bytes:
    """A PDF of 36 MiB, base64: a message just under the 50 MiB the SMTP server takes."""
    return mixed(attachment("large.pdf", PDF + bytes(range(256)) * (size // 256)))

"""E-mail messages, pure: a raw message in, its head and its attachments out
(docs/email.md). Runs in the reading processes only (flows/unpack_mail.py): the SMTP
server never parses a message.

Before the stdlib parser sees a byte, the message's shape is checked: a header section
over 1 MiB, more than 1,000,000 lines (below), or more than 100 multipart or
message/rfc822 sections (each nests the parser one level deeper: 1,000 of them cost it
1.5 s and end in RecursionError) refuse the whole message. Attachments:
- a part with a file name or `attachment` disposition is an attachment; text parts
  without either are the body (skipped); inline images without a name are logos
  (skipped) below INLINE_IMAGE_MIN_BYTES, documents from it on;
- winmail.dat (TNEF) is opened into the files it carries (processors/tnef.py);
- ZIP attachments are flagged for unpacking with the archive limits (processors/archive.py);
- an attached message (message/rfc822) is opened one level deep; one inside it is a
  failed attachment; so is damaged base64;
- names are labels: a path in them is cut to its last part, RFC 2231 and encoded words
  are decoded, an unknown charset falls back to replacement characters.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from email import errors
from email.header import decode_header
from email.message import Message
from email.parser import BytesParser
from email.policy import compat32

from processors.archive import ArchiveProblem, ArchiveRejected, safe_label
from processors.tnef import read_tnef

MAX_HEADER_BYTES = 1024 * 1024
MAX_SECTIONS = 100
# The stdlib parser keeps an object per line: 15 million short lines (a 45 MiB
# quoted-printable part of soft line breaks) took it 49 s and 1.4 GiB. A 48.6 MiB message
# of base64 (76-character lines) has 660,000 lines; 1,000,000 lines parse in 2.4 s.
MAX_LINES = 1_000_000
MAX_HEADER_TEXT = 1024
# An inline image (no name, no attachment disposition) this large is taken as a document
# (a photographed or scanned invoice pasted into the mail); smaller ones are logos and
# signature pictures, skipped. Logos and signature images measure 2-60 KB; a phone photo
# or a scanned A4 page as JPEG starts around 150 KB (docs/email.md).
INLINE_IMAGE_MIN_BYTES = 100 * 1024
_HEADER_END = re.compile(rb"\r?\n\r?\n")
_SECTION = re.compile(rb"content-type:\s*(?:multipart|message)/", re.IGNORECASE)
_ZIP_TYPES = frozenset({"application/zip", "application/x-zip-compressed", "application/x-zip"})
_TNEF_TYPES = frozenset({"application/ms-tnef", "application/vnd.ms-tnef"})
_BASE64_DEFECTS = (
    errors.InvalidBase64CharactersDefect,
    errors.InvalidBase64PaddingDefect,
    errors.InvalidBase64LengthDefect,
)
NESTED_MESSAGE = "an attached message inside an attached message is not read (one level only)"
DAMAGED_BASE64 = "the attachment's base64 encoding is damaged"


@dataclass(frozen=True, slots=True)
class MessageHead:
    sender: str | None
    subject: str | None
    message_id: str | None
    authentication_results: str | None


@dataclass(frozen=True, slots=True)
class Attachment:
    name: str
    payload: bytes
    is_archive: bool = False
    problem: str | None = None  # why nothing of it is read (a failed upload)


@dataclass(frozen=True, slots=True)
class ReadMessage:
    head: MessageHead
    attachments: tuple[Attachment, ...]


def _refuse(problem: ArchiveProblem, message: str) -> ArchiveRejected:
    return ArchiveRejected(problem, message)


def check_shape(raw: bytes) -> None:
    """Refuse what would make the parser itself costly, before it runs."""
    if _HEADER_END.search(raw, 0, MAX_HEADER_BYTES) is None and len(raw) > MAX_HEADER_BYTES:
        raise _refuse(ArchiveProblem.INVALID, "the message's header section is over 1 MiB")
    lines = raw.count(b"\n") + raw.count(b"\r") - raw.count(b"\r\n")
    if lines > MAX_LINES:
        raise _refuse(ArchiveProblem.INVALID, f"the message has more than {MAX_LINES} lines")
    sections = sum(1 for _ in itertools.islice(_SECTION.finditer(raw), MAX_SECTIONS + 1))
    if sections > MAX_SECTIONS:
        raise _refuse(
            ArchiveProblem.INVALID,
            f"the message has more than {MAX_SECTIONS} multipart or attached-message sections",
        )


# Fields the MTAs on the way add, different on each delivery of the same message.
TRACE_FIELDS = frozenset(
    {
        b"received",
        b"return-path",
        b"delivered-to",
        b"x-original-to",
        b"authentication-results",
        b"received-spf",
        b"arc-seal",
        b"arc-message-signature",
        b"arc-authentication-results",
    }
)
_FIELD_NAME = re.compile(rb"([!-9;-~]+)[ \t]*:")


def delivery_digest(raw: bytes) -> str:
    """SHA-256 of the message without its trace fields: the same message delivered twice
    (an MTA that retried after a lost answer adds another Received) hashes alike. A line
    scan of the header section (at most 1 MiB), not a parse; the SMTP server runs it."""
    end = _HEADER_END.search(raw, 0, MAX_HEADER_BYTES)
    if end is None:
        return hashlib.sha256(raw).hexdigest()
    digest, keep = hashlib.sha256(), True
    for line in raw[: end.start()].splitlines(keepends=True):
        if line[:1] not in (b" ", b"\t"):
            name = _FIELD_NAME.match(line)
            keep = name is None or name.group(1).lower() not in TRACE_FIELDS
        if keep:
            digest.update(line.rstrip(b"\r\n") + b"\n")
    digest.update(raw[end.start() :])
    return digest.hexdigest()


_DMARC_FAIL = re.compile(r"(?:^|[\s;])dmarc\s*=\s*fail\b", re.IGNORECASE)


def dmarc_failed(authentication_results: str | None) -> bool:
    """Whether an Authentication-Results value (RFC 8601) gives the verdict dmarc=fail."""
    return authentication_results is not None and bool(_DMARC_FAIL.search(authentication_results))


def first_field(raw: bytes, name: bytes) -> str | None:
    """The first header field of that name, unfolded, as text; a line scan of the header
    section (at most 1 MiB), not a parse: the SMTP server runs it. The first
    Authentication-Results is the one the nearest MTA (ours, in front) added."""
    end = _HEADER_END.search(raw, 0, MAX_HEADER_BYTES)
    if end is None:
        return None
    value: list[bytes] | None = None
    for line in raw[: end.start()].splitlines():
        if line[:1] in (b" ", b"\t"):
            if value is not None:
                value.append(line.strip())
            continue
        if value is not None:
            break
        field = _FIELD_NAME.match(line)
        if field is not None and field.group(1).lower() == name:
            value = [line[field.end() :].strip()]
    if value is None:
        return None
    return header_text(b" ".join(value).decode("utf-8", "replace"))


def header_text(value: object) -> str | None:
    """A header as clean text: encoded words decoded, unknown charsets and stray 8-bit
    bytes replaced, control characters dropped, at most MAX_HEADER_TEXT characters."""
    if value is None:
        return None
    text = str(value).encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    try:
        pieces = [
            piece if isinstance(piece, str) else _decode(piece, charset)
            for piece, charset in decode_header(text)
        ]
        text = "".join(pieces)
    except (errors.HeaderParseError, ValueError):
        pass
    cleaned = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    return cleaned[:MAX_HEADER_TEXT] or None


def _decode(piece: bytes, charset: str | None) -> str:
    try:
        return piece.decode(charset or "ascii", "replace")
    except LookupError:  # a charset that does not exist
        return piece.decode("utf-8", "replace")


def _label(raw_name: str | None, position: int) -> str:
    name = (header_text(raw_name) or "").replace("\\", "/").split("/")[-1].strip().lstrip(".")
    return safe_label(name or f"attachment-{position + 1}")


def attachment_name(part: Message, position: int) -> str:
    try:
        raw_name = part.get_filename()
    except (LookupError, ValueError, errors.HeaderParseError):
        raw_name = None
    return _label(raw_name, position)


def _is_body(part: Message, has_name: bool) -> bool:
    if has_name or part.get_content_disposition() == "attachment":
        return False
    return part.get_content_maintype() == "text"


def _is_inline_image(part: Message, has_name: bool) -> bool:
    if has_name or part.get_content_disposition() == "attachment":
        return False
    return part.get_content_maintype() == "image"


def _payload(part: Message) -> bytes:
    payload = part.get_payload(decode=True)
    return payload if isinstance(payload, bytes) else b""


def _unpacked_tnef(name: str, payload: bytes, seen: itertools.count[int]) -> Iterator[Attachment]:
    """The files of a winmail.dat; one failed attachment if it cannot be read."""
    found = read_tnef(payload)
    if found.problem is not None:
        yield Attachment(name, b"", problem=found.problem)
        return
    for inner_name, data in found.files:
        label = _label(inner_name, next(seen))
        yield Attachment(label, data, is_archive=label.lower().endswith(".zip"))


def _leaves(part: Message, position: int, seen: itertools.count[int]) -> Iterator[Attachment]:
    has_name = part.get_filename() is not None
    if _is_body(part, has_name):
        return
    payload = _payload(part)
    if _is_inline_image(part, has_name) and len(payload) < INLINE_IMAGE_MIN_BYTES:
        return  # a logo or a signature's picture
    name, content_type = attachment_name(part, position), part.get_content_type()
    if any(isinstance(defect, _BASE64_DEFECTS) for defect in part.defects):
        yield Attachment(name, b"", problem=DAMAGED_BASE64)
    elif content_type in _TNEF_TYPES or name.lower() == "winmail.dat":
        yield from _unpacked_tnef(name, payload, seen)
    else:
        is_archive = content_type in _ZIP_TYPES or name.lower().endswith(".zip")
        yield Attachment(name, payload, is_archive=is_archive)


def _attachments(part: Message, nested: bool, seen: itertools.count[int]) -> Iterator[Attachment]:
    if part.is_multipart() and part.get_content_type() == "message/rfc822":
        inner = part.get_payload()
        if nested:
            yield Attachment(attachment_name(part, next(seen)), b"", problem=NESTED_MESSAGE)
        elif isinstance(inner, list) and inner and isinstance(inner[0], Message):
            yield from _attachments(inner[0], True, seen)
        return
    if part.is_multipart():
        for child in part.get_payload():
            if isinstance(child, Message):
                yield from _attachments(child, nested, seen)
        return
    yield from _leaves(part, next(seen), seen)


def read_message(raw: bytes, max_attachments: int) -> ReadMessage:
    """The message's head and attachments; ArchiveRejected refuses the whole message."""
    check_shape(raw)
    try:
        message = BytesParser(policy=compat32).parsebytes(raw)
        found = list(
            itertools.islice(_attachments(message, False, itertools.count()), max_attachments + 1)
        )
    except RecursionError as exc:
        raise _refuse(ArchiveProblem.INVALID, "the message nests its parts too deeply") from exc
    if len(found) > max_attachments:
        raise _refuse(
            ArchiveProblem.TOO_MANY_FILES,
            f"the message has more than {max_attachments} attachments",
        )
    head = MessageHead(
        sender=header_text(message.get("From")),
        subject=header_text(message.get("Subject")),
        message_id=header_text(message.get("Message-ID")),
        authentication_results=header_text(message.get("Authentication-Results")),
    )
    return ReadMessage(head, tuple(found))

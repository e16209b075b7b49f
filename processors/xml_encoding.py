"""Does an XML document's declared encoding match its bytes? (XML 1.0, 4.3.3, appendix F)

libxml2 reads a document by its byte order mark and ignores a declaration that says
otherwise, and reads a UTF-8 document declared ISO-8859-1 as Latin-1 ("MÃ¼ller"): both
are read silently in another encoding than the one the sender declared. `encoding_problem`
names what does not fit, so the document can be refused instead:

- a byte order mark, or 16- or 32-bit units, and a declaration of another encoding;
- a declaration of a 16- or 32-bit encoding in a document written in 8-bit units;
- an encoding name that is not a valid name (XML's EncName), or one no codec knows;
- bytes that are not valid in the declared encoding (in UTF-8 without a declaration);
- a single-byte encoding declared (ISO-8859-1, windows-1252) over bytes that are UTF-8
  with non-ASCII characters: Latin-1 text is valid UTF-8 only by accident (a letter
  from "Â" to "ô" followed by a symbol from "\x80" to "¿", each time).
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

_ENCODING_NAME = re.compile(r"[A-Za-z][A-Za-z0-9._-]*")
_DECLARATION = re.compile(
    r"""<\?xml\s[^?>]*?\bencoding\s*=\s*(?:"(?P<double>[^"]*)"|'(?P<single>[^']*)')"""
)
_PROLOG_BYTES = 512
_HIGH_BYTES = bytes(range(0x80, 0x100))
_ASCII_BYTES = bytes(range(0x80))


@dataclass(frozen=True, slots=True)
class _Layout:
    """How the first bytes are laid out: a byte order mark, or the units of "<"."""

    codec: str  # the codec the first bytes are in; "latin-1" stands for any 8-bit encoding
    family: str  # "utf-8", "utf-16", "utf-32" or "8-bit"
    mark_length: int = 0

    @property
    def shown(self) -> str:
        """How the document shows its encoding family before any declaration."""
        if self.mark_length:
            return f"starts with a {self.family.upper()} byte order mark"
        if self.family != "8-bit":
            return f"is written in {self.family.upper()} without a byte order mark"
        return ""


_MARKS = (  # UTF-32 LE first: its mark starts with UTF-16 LE's
    (codecs.BOM_UTF32_LE, _Layout("utf-32-le", "utf-32", 4)),
    (codecs.BOM_UTF32_BE, _Layout("utf-32-be", "utf-32", 4)),
    (codecs.BOM_UTF8, _Layout("utf-8", "utf-8", 3)),
    (codecs.BOM_UTF16_LE, _Layout("utf-16-le", "utf-16", 2)),
    (codecs.BOM_UTF16_BE, _Layout("utf-16-be", "utf-16", 2)),
)
_UNMARKED = (  # XML 1.0 appendix F: how "<" starts a document without a mark
    (b"<\x00\x00\x00", _Layout("utf-32-le", "utf-32")),
    (b"\x00\x00\x00<", _Layout("utf-32-be", "utf-32")),
    (b"<\x00", _Layout("utf-16-le", "utf-16")),
    (b"\x00<", _Layout("utf-16-be", "utf-16")),
)
_EIGHT_BIT = _Layout("latin-1", "8-bit")


def encoding_problem(data: bytes) -> str | None:
    """What is wrong with the document's encoding, in a sentence; None when its bytes are
    what it declares (UTF-8 or UTF-16 by its mark when it declares nothing)."""
    layout = _layout(data)
    declared = _declared(data, layout)
    if declared is None:
        return _undeclared_problem(data, layout)
    if not _ENCODING_NAME.fullmatch(declared):
        return f"The XML declaration names the encoding {declared!r}, which is not a valid name."
    try:
        codec = codecs.lookup(declared)
    except LookupError:
        return f"The XML declaration names the encoding {declared!r}, which is unknown."
    family = _family(codec.name)
    if layout.shown and family != layout.family:
        return f"The document {layout.shown} but declares {declared!r}."
    if not layout.shown and family in ("utf-16", "utf-32"):
        return f"The document declares {declared!r} but is written in 8-bit units."
    body = data[layout.mark_length :]
    decoding = layout.codec if layout.shown else codec.name
    return _invalid_bytes(body, decoding, declared, layout) or _utf8_declared_as_single_byte(
        body, codec.name, declared
    )


def _layout(data: bytes) -> _Layout:
    for prefixes, layout in (*_MARKS, *_UNMARKED):
        if data.startswith(prefixes):
            return layout
    return _EIGHT_BIT


def _declared(data: bytes, layout: _Layout) -> str | None:
    prolog = data[layout.mark_length : layout.mark_length + _PROLOG_BYTES]
    text = prolog.decode(layout.codec, errors="ignore")
    if not text.startswith("<?xml"):
        return None
    found = _DECLARATION.match(text)
    if found is None:
        return None
    return found.group("double") if found.group("double") is not None else found.group("single")


def _undeclared_problem(data: bytes, layout: _Layout) -> str | None:
    codec = "utf-8" if layout.family == "8-bit" else layout.codec
    return _invalid_bytes(data[layout.mark_length :], codec, None, layout)


def _family(codec_name: str) -> str:
    for family in ("utf-8", "utf-16", "utf-32"):
        if codec_name.startswith(family):
            return family
    return "8-bit"


def _invalid_bytes(body: bytes, codec: str, declared: str | None, layout: _Layout) -> str | None:
    try:
        body.decode(codec)
    except UnicodeDecodeError as error:
        where = _where(body, error.start, layout)
        bad = body[error.start : error.start + 1].hex().upper()
        if declared is None:
            implied = "UTF-8" if layout.family == "8-bit" else layout.family.upper()
            return (
                f"The document declares no encoding, so it must be {implied}, but byte "
                f"0x{bad} {where} is not valid {implied}."
            )
        return f"The document declares {declared!r}, but byte 0x{bad} {where} is not valid in it."
    return None


def _where(body: bytes, offset: int, layout: _Layout) -> str:
    if layout.family in ("utf-16", "utf-32"):
        return f"at offset {offset + layout.mark_length}"
    line = body.count(b"\n", 0, offset) + 1
    column = offset - (body.rfind(b"\n", 0, offset) + 1) + 1
    return f"at line {line}, column {column}"


def _utf8_declared_as_single_byte(body: bytes, codec: str, declared: str) -> str | None:
    if _family(codec) != "8-bit" or not _single_byte(codec) or body.isascii():
        return None
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return None
    sample = next(character for character in text if not character.isascii())
    misread = sample.encode("utf-8").decode(codec, errors="replace")
    return (
        f"The document declares {declared!r}, but its bytes are UTF-8: it would be read "
        f"with {misread!r} where {sample!r} is written."
    )


def _single_byte(codec: str) -> bool:
    """ASCII-compatible, one character per byte (ISO-8859-*, windows-125*), where UTF-8
    bytes read as wrong letters instead of failing."""
    ascii_kept = _ASCII_BYTES.decode(codec, errors="replace") == _ASCII_BYTES.decode("ascii")
    return ascii_kept and len(_HIGH_BYTES.decode(codec, errors="replace")) == len(_HIGH_BYTES)

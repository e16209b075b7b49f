"""What a file is, by its content alone (never by its name).

`identify` looks at magic bytes first, because those are unambiguous, then at the PDF
header and the XML prolog, which tolerate leading bytes. `sniff` is the short form that
returns only the `FileKind`. `xml_root` reads the namespace and local name of an XML
root element from the first bytes without expanding entities, loading DTDs or touching
the network; a document with a DOCTYPE is refused (no root is reported).
"""

from __future__ import annotations

import io
import re
import struct
import zipfile
from dataclasses import dataclass

from lxml import etree

from processors.base import FileKind
from processors.zipsafe import DirectoryBounds, NotReadableZip, open_zip, read_head

PDF_HEADER_WINDOW = 1024
"""How much of the head is decoded to look for an XML prolog."""
MAX_PDF_HEADER_OFFSET = 1024
"""Junk before `%PDF-` that readers accept: PDFium looks for the header at offsets 0 to
1,024 (mail gateways and download scripts prepend headers); beyond that, not a PDF."""
_PDF_HEADER = b"%PDF-"

_WHITESPACE = b" \t\r\n\f\v"
_WHITESPACE_ONLY = re.compile(rb"[ \t\r\n\f\v]*\Z")

_UTF8_BOM = b"\xef\xbb\xbf"
_UTF16_LE_BOM = b"\xff\xfe"
_UTF16_BE_BOM = b"\xfe\xff"

_ZIP_LOCAL_FILE = b"PK\x03\x04"
_ZIP_EMPTY_ARCHIVE = b"PK\x05\x06"
_ZIP_SPANNED = b"PK\x07\x08"
_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"

_OOXML_MARKER = "[Content_Types].xml"
_ODF_MIMETYPE_PREFIX = b"application/vnd.oasis.opendocument"
_ODF_MIMETYPE_READ_LIMIT = 200

# ISO base media file brands of HEIF/HEIC and AVIF still images.
_HEIF_BRANDS = frozenset(
    {b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1", b"avif", b"avis"}
)
# BITMAPINFOHEADER and its variants, by size; "BM" alone is too weak a signature.
_BMP_DIB_HEADER_SIZES = frozenset({12, 16, 40, 52, 56, 64, 108, 124})

_SVG_NAMESPACE = "http://www.w3.org/2000/svg"
_XML_NAME_START = re.compile(r"[A-Za-z_:\u00c0-\uffff]")
_ROOT_FEED_CHUNK = 256
_ENCODING_DECLARATION = re.compile(
    rb"""(?P<head>(?:\xef\xbb\xbf)?<\?xml\s[^?>]*?)\s\bencoding\s*=\s*(?:"[^"]*"|'[^']*')"""
)
XML_ROOT_WINDOW = 8192
"""Bytes enough for a prolog, comments and a root start tag full of namespace declarations."""
_LOCAL_HEADER_SCAN_WINDOW = 64 * 1024
ZIP_DOCUMENT_BOUNDS = DirectoryBounds(max_records=10_000, max_bytes=1024 * 1024)
"""A ZIP-based document's central directory is parsed only within these (Office files
have tens of entries): zipfile took 17 s and 160 MiB for the 300,000 entries of a 25 MiB
ZIP. Beyond them, the names come from the local headers in the head."""


@dataclass(frozen=True, slots=True)
class Identified:
    """A sniffed kind plus a short human label for messages ("a PNG image")."""

    kind: FileKind
    label: str


@dataclass(frozen=True, slots=True)
class XmlRoot:
    namespace: str
    """Empty when the root element has no namespace."""
    local_name: str

    @property
    def clark(self) -> str:
        """`{namespace}local` (lxml's notation), or just `local` without a namespace."""
        return f"{{{self.namespace}}}{self.local_name}" if self.namespace else self.local_name


def sniff(data_or_head: bytes) -> FileKind:
    return identify(data_or_head).kind


def identify(data_or_head: bytes) -> Identified:
    """Pass the whole file when you have it: Office files inside ZIPs are then
    recognised from the central directory, not only from the first entry."""
    if _is_blank(data_or_head):
        return Identified(FileKind.EMPTY, "an empty file")
    by_magic = _identify_by_magic(data_or_head)
    if by_magic is not None:
        return by_magic
    if data_or_head.startswith(_PDF_HEADER):
        return Identified(FileKind.PDF, "a PDF document")
    text = _decode_prolog(data_or_head)
    if text is not None and _looks_like_xml(text):
        return _identify_xml(data_or_head)
    if pdf_header_offset(data_or_head) is not None:
        return Identified(FileKind.PDF, "a PDF document")
    return Identified(FileKind.UNKNOWN, "a file of an unknown type")


def pdf_header_offset(data: bytes) -> int | None:
    """Where `%PDF-` starts, when it starts within `MAX_PDF_HEADER_OFFSET` bytes."""
    offset = data.find(_PDF_HEADER, 0, MAX_PDF_HEADER_OFFSET + len(_PDF_HEADER))
    return offset if offset >= 0 else None


def from_pdf_header(data: bytes) -> bytes:
    """The PDF without the junk before its header, as readers see it: offsets inside a
    PDF count from its header, and pypdf and PDFium then parse the same bytes (pypdf
    alone would repair; the limits of `pdf_limits` must see what PDFium reads)."""
    offset = pdf_header_offset(data)
    return data[offset:] if offset else data


def xml_root(head: bytes) -> XmlRoot | None:
    """The root element's namespace and local name, read from the first bytes.

    None when no root element can be read safely: not XML, malformed before the root
    start tag ends, the start tag does not fit in `head`, or a DOCTYPE is present (DTDs
    are where entity bombs and external fetches live; e-invoices never need one).

    An encoding declaration libxml2 refuses (`UTF-8-W/O-BOM`, an unknown name) does not
    hide the root: the document is still what it is (an e-invoice, a statement), and the
    parser that reads it (`xmlsafe.parse_xml`) refuses it with the reason. Else an
    e-invoice embedded in a PDF with such a declaration was not recognised as one, and
    the PDF was read as a plain invoice (issue 40, class 7).
    """
    root = _pulled_root(head)
    if root is None and _ENCODING_DECLARATION.match(head):
        return _pulled_root(_ENCODING_DECLARATION.sub(rb"\g<head>", head, count=1))
    return root


def _pulled_root(head: bytes) -> XmlRoot | None:
    parser = etree.XMLPullParser(
        events=("start",),
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
    )
    try:
        for offset in range(0, len(head), _ROOT_FEED_CHUNK):
            parser.feed(head[offset : offset + _ROOT_FEED_CHUNK])
            for _event, element in parser.read_events():
                if not isinstance(element, etree._Element) or _has_doctype(element):
                    return None
                qname = etree.QName(element)
                return XmlRoot(qname.namespace or "", qname.localname)
    except etree.XMLSyntaxError:
        return None
    return None


def _has_doctype(element: etree._Element) -> bool:
    doctype: str = element.getroottree().docinfo.doctype  # type: ignore[attr-defined]  # missing in lxml-stubs
    return bool(doctype)


def _is_blank(data: bytes) -> bool:
    """No bytes, or only whitespace (after an optional UTF-8 BOM)."""
    data = data.removeprefix(_UTF8_BOM)
    # Check a small prefix first so a large file is not scanned when it is clearly not blank.
    if data[:64].strip(_WHITESPACE):
        return False
    return _WHITESPACE_ONLY.match(data) is not None


def _identify_by_magic(data: bytes) -> Identified | None:
    if data.startswith((_ZIP_LOCAL_FILE, _ZIP_EMPTY_ARCHIVE, _ZIP_SPANNED)):
        return _identify_zip(data)
    if data.startswith(_OLE2):
        return Identified(FileKind.OFFICE, "a legacy Microsoft Office file (.doc/.xls/.ppt)")
    image = _image_format(data)
    if image is not None:
        return Identified(FileKind.IMAGE, f"an image ({image})")
    return None


def _image_format(data: bytes) -> str | None:
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "PNG"
    if data.startswith(b"\xff\xd8\xff"):
        return "JPEG"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "GIF"
    if data.startswith((b"II*\x00", b"MM\x00*", b"II+\x00", b"MM\x00+")):
        return "TIFF"
    if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        return "WebP"
    if data[4:8] == b"ftyp" and data[8:12] in _HEIF_BRANDS:
        return "HEIC/AVIF"
    if data.startswith(b"\x00\x00\x00\x0cjP  \r\n\x87\n"):
        return "JPEG 2000"
    if _is_bmp(data):
        return "BMP"
    return None


def _is_bmp(data: bytes) -> bool:
    if not data.startswith(b"BM") or len(data) < 18:
        return False
    reserved, dib_header_size = struct.unpack_from("<I4xI", data, 6)
    return reserved == 0 and dib_header_size in _BMP_DIB_HEADER_SIZES


def _identify_zip(data: bytes) -> Identified:
    names = _zip_member_names(data)
    if _OOXML_MARKER in names:
        return Identified(FileKind.OFFICE, "an Office file (.docx/.xlsx/.pptx)")
    if "mimetype" in names and _odf_mimetype(data):
        return Identified(FileKind.OFFICE, "an OpenDocument file (.odt/.ods/.odp)")
    return Identified(FileKind.ZIP, "a ZIP archive")


def open_zip_document(data: bytes) -> zipfile.ZipFile | None:
    """A ZIP-based document (Office, ODF, DATEV) opened within `ZIP_DOCUMENT_BOUNDS`;
    None when it cannot be opened so. Read its members with `zipsafe.read_head`."""
    try:
        return open_zip(io.BytesIO(data), ZIP_DOCUMENT_BOUNDS)
    except NotReadableZip:
        return None


def _zip_member_names(data: bytes) -> frozenset[str]:
    """Names from the central directory; from the local headers in the head when the
    central directory is missing (only the head was passed, or the archive is cut) or
    too large to parse."""
    archive = open_zip_document(data)
    if archive is None:
        return frozenset(_local_header_names(data))
    with archive:
        return frozenset(archive.namelist())


def _local_header_names(data: bytes) -> list[str]:
    names: list[str] = []
    data = data[:_LOCAL_HEADER_SCAN_WINDOW]
    offset = data.find(_ZIP_LOCAL_FILE)
    while offset >= 0 and offset + 30 <= len(data):
        name_length, extra_length = struct.unpack_from("<HH", data, offset + 26)
        names.append(data[offset + 30 : offset + 30 + name_length].decode("cp437"))
        offset = data.find(_ZIP_LOCAL_FILE, offset + 30 + name_length + extra_length)
    return names


def _odf_mimetype(data: bytes) -> bool:
    """ODF stores `mimetype` first and uncompressed, so the head alone usually shows it."""
    if data[30:38] == b"mimetype":
        return data[38:].startswith(_ODF_MIMETYPE_PREFIX)
    archive = open_zip_document(data)
    if archive is None:
        return False
    with archive:
        head = read_head(archive, "mimetype", _ODF_MIMETYPE_READ_LIMIT)
    return head is not None and head.startswith(_ODF_MIMETYPE_PREFIX)


def _decode_prolog(data: bytes) -> str | None:
    """The first bytes as text, honouring a BOM; also UTF-16 without a BOM."""
    sample = data[:PDF_HEADER_WINDOW]
    if sample.startswith(_UTF8_BOM):
        return sample[len(_UTF8_BOM) :].decode("utf-8", errors="ignore")
    if sample.startswith((_UTF16_LE_BOM, _UTF16_BE_BOM)):
        return sample.decode("utf-16", errors="ignore")
    if sample.startswith(b"<\x00"):
        return sample.decode("utf-16-le", errors="ignore")
    if sample.startswith(b"\x00<"):
        return sample.decode("utf-16-be", errors="ignore")
    return sample.decode("latin-1")


def _looks_like_xml(text: str) -> bool:
    stripped = text.lstrip(" \t\r\n")
    if not stripped.startswith("<"):
        return False
    if stripped.startswith(("<?xml", "<!--")):
        return True
    lowered = stripped[:30].lower()
    if lowered.startswith(("<!doctype html", "<html")):
        return False
    if stripped.startswith("<!DOCTYPE"):
        return True
    return _XML_NAME_START.match(stripped, 1) is not None


def _identify_xml(data: bytes) -> Identified:
    root = xml_root(data[:XML_ROOT_WINDOW])
    if root is not None and root.namespace == _SVG_NAMESPACE:
        return Identified(FileKind.IMAGE, "an image (SVG)")
    return Identified(FileKind.XML, "an XML document")

"""The one hardened XML parser of the project.

Every processor that reads XML from a client goes through `parse_xml`. It refuses any
document type declaration (so no entity can be declared: XXE and billion-laughs are
impossible), never touches the network or the file system, keeps libxml2's
huge-tree protections on, enforces a byte-size and a nesting-depth limit, and refuses a
document whose declared encoding does not match its bytes (never read another way).
"""

from __future__ import annotations

from lxml import etree

from processors.sniff import XmlRoot, xml_root
from processors.xml_encoding import encoding_problem

MAX_XML_BYTES = 50 * 1024 * 1024
MAX_XML_DEPTH = 200


class XmlRejectedError(Exception):
    """The bytes are not XML this service will read."""


class UnsafeXmlError(XmlRejectedError):
    """Well-formed perhaps, but refused: DOCTYPE, too large, too deep."""


class MalformedXmlError(XmlRejectedError):
    """Not well-formed XML."""


class XmlEncodingError(XmlRejectedError):
    """The declared encoding is invalid, unknown or not what the bytes are in: a fatal
    error in XML 1.0 (4.3.3) that libxml2 does not always raise (`processors/xml_encoding`)."""


def make_parser() -> etree.XMLParser:
    """A parser that resolves nothing: no DTD loading, no entities, no network."""
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_blank_text=False,
    )


def parse_xml(
    data: bytes, *, max_bytes: int = MAX_XML_BYTES, max_depth: int = MAX_XML_DEPTH
) -> etree._ElementTree:
    """Parse client bytes into a tree, or raise an `XmlRejectedError`."""
    if len(data) > max_bytes:
        raise UnsafeXmlError(f"XML document is larger than {max_bytes} bytes")
    if _declares_doctype(data):
        raise UnsafeXmlError("XML documents with a DOCTYPE declaration are not accepted")
    problem = encoding_problem(data)
    if problem is not None:
        raise XmlEncodingError(problem)
    try:
        root = etree.fromstring(data, parser=make_parser())
    except etree.XMLSyntaxError as exc:
        raise MalformedXmlError(f"XML is not well-formed: {exc}") from exc
    tree = root.getroottree()
    if getattr(tree.docinfo, "doctype", "") or tree.docinfo.internalDTD is not None:
        raise UnsafeXmlError("XML documents with a DOCTYPE declaration are not accepted")
    _check_depth(root, max_depth)
    return tree


def _declares_doctype(data: bytes) -> bool:
    """Cheap pre-check so a hostile DTD is never handed to libxml2 at all.

    Looks at the prolog only (before the first element). UTF-16 and UTF-32 are decoded
    first (their first `_WIDE_PROLOG_WINDOW` bytes); the post-parse docinfo check stays
    for a prolog longer than that.
    """
    codec = _wide_codec(data)
    if codec is not None:
        data = data[:_WIDE_PROLOG_WINDOW].decode(codec, errors="ignore").encode("utf-8")
    prolog_end = _first_element_offset(data)
    return b"<!DOCTYPE" in data[:prolog_end].upper()


_WIDE_PROLOG_WINDOW = 64 * 1024
# Byte-order marks and, without one, how "<" starts a document (XML 1.0, appendix F).
_WIDE_CODECS = (
    ((b"\x00\x00\xfe\xff", b"\x00\x00\x00<"), "utf-32-be"),
    ((b"\xff\xfe\x00\x00", b"<\x00\x00\x00"), "utf-32-le"),
    ((b"\xfe\xff", b"\x00<"), "utf-16-be"),
    ((b"\xff\xfe", b"<\x00"), "utf-16-le"),
)


def _wide_codec(data: bytes) -> str | None:
    for prefixes, codec in _WIDE_CODECS:
        if data.startswith(prefixes):
            return codec
    return None


def _first_element_offset(data: bytes) -> int:
    position = 0
    while True:
        position = data.find(b"<", position)
        if position < 0 or position + 1 >= len(data):
            return len(data)
        following = data[position + 1 : position + 2]
        if following not in (b"?", b"!"):
            return position
        position += 1


def _check_depth(root: etree._Element, max_depth: int) -> None:
    depth = 0
    for event, _element in etree.iterwalk(root, events=("start", "end")):
        depth += 1 if event == "start" else -1
        if depth > max_depth:
            raise UnsafeXmlError(f"XML nesting is deeper than {max_depth} levels")


RootName = XmlRoot


def peek_root(head: bytes) -> RootName | None:
    """The root element's name from the first bytes of a file, or None if not XML.

    Used for scoring: reads only until the first start tag, never resolves anything;
    also through an encoding declaration libxml2 refuses (`sniff.xml_root`), so that
    `parse_xml` is reached and refuses the document with the reason.
    """
    if _declares_doctype(head):
        return None
    return xml_root(head)

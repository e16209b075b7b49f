from __future__ import annotations

import pytest

from processors.xmlsafe import (
    MalformedXmlError,
    UnsafeXmlError,
    parse_xml,
    peek_root,
)

XXE = b"""<?xml version="1.0"?>
<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>"""
BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><lolz>&lol3;</lolz>"""
EXTERNAL_DTD = b'<?xml version="1.0"?><!DOCTYPE r SYSTEM "http://example.invalid/x.dtd"><r/>'


@pytest.mark.parametrize("payload", [XXE, BILLION_LAUGHS, EXTERNAL_DTD])
def test_any_doctype_is_refused(payload: bytes) -> None:
    with pytest.raises(UnsafeXmlError, match="DOCTYPE"):
        parse_xml(payload)


def test_doctype_in_utf16_is_refused_after_parsing() -> None:
    with pytest.raises(UnsafeXmlError):
        parse_xml('<!DOCTYPE r [<!ENTITY a "b">]><r>&a;</r>'.encode("utf-16"))


def test_size_limit() -> None:
    with pytest.raises(UnsafeXmlError, match="larger"):
        parse_xml(b"<r>" + b"x" * 100 + b"</r>", max_bytes=50)


def test_depth_limit() -> None:
    deep = b"<a>" * 30 + b"</a>" * 30
    with pytest.raises(UnsafeXmlError, match="deeper"):
        parse_xml(deep, max_depth=20)
    assert parse_xml(deep, max_depth=30).getroot().tag == "a"


def test_malformed_xml() -> None:
    with pytest.raises(MalformedXmlError):
        parse_xml(b"<r><unclosed></r>")


def test_plain_xml_parses() -> None:
    tree = parse_xml(b'<?xml version="1.0"?><r xmlns="urn:x"><c>1</c></r>')
    assert tree.getroot().tag == "{urn:x}r"


def test_peek_root_reads_an_incomplete_head() -> None:
    root = peek_root(b'<?xml version="1.0"?><Invoice xmlns="urn:x"><cbc:ID xmlns:cbc="u">1')
    assert root is not None
    assert (root.namespace, root.local_name) == ("urn:x", "Invoice")
    assert peek_root(XXE) is None
    assert peek_root(b"%PDF-1.7") is None

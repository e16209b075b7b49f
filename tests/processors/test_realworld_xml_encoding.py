"""Issue 15, class 5: an XML e-invoice whose declared encoding is invalid, unknown or not
what its bytes are in fails `invalid_e_invoice` with an XML-ENCODING finding naming the
problem; it is never read in another encoding (docs/realworld.md).

The variants are made from one valid corpus invoice with non-ASCII text ("Göttingen",
"August-Spindler-Straße"), re-encoded and re-declared.
"""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from processors.base import FailureCode, ProcessingError
from processors.einvoice import EInvoiceProcessor, InvalidEInvoiceError
from processors.einvoice.findings import Level
from processors.pipeline import read_document
from processors.xml_encoding import encoding_problem
from processors.xmlsafe import XmlEncodingError, parse_xml
from tests.processors.conftest import context

INVOICE = (
    "mustang/validator/src/test/resources/ZUGFeRD-invoice_rabatte_3_abschlag_duepayableamount.xml"
)


def _body(corpus: Path) -> str:
    """The invoice after its XML declaration, as text."""
    text = (corpus / INVOICE).read_bytes().decode("utf-8-sig")
    assert text.startswith("<?xml") and "Göttingen" in text and "Straße" in text
    return text[text.index("?>") + 2 :]


def _declared(encoding: str | None) -> str:
    if encoding is None:
        return '<?xml version="1.0"?>'
    return f'<?xml version="1.0" encoding="{encoding}"?>'


def _variant(corpus: Path, bom: bytes, declared: str | None, codec: str) -> bytes:
    return bom + (_declared(declared) + _body(corpus)).encode(codec)


BAD = {
    "utf-8-declared-latin-1-bytes": (
        b"",
        "UTF-8",
        "latin-1",
        "declares 'UTF-8', but byte 0xDF at line 51, column 44 is not valid in it",
    ),
    "undeclared-latin-1-bytes": (
        b"",
        None,
        "latin-1",
        "declares no encoding, so it must be UTF-8, but byte 0xDF at line 51",
    ),
    "iso-8859-1-declared-utf-16-bom": (
        codecs.BOM_UTF16_LE,
        "ISO-8859-1",
        "utf-16-le",
        "starts with a UTF-16 byte order mark but declares 'ISO-8859-1'",
    ),
    "utf-8-declared-utf-16-bom": (
        codecs.BOM_UTF16_BE,
        "UTF-8",
        "utf-16-be",
        "starts with a UTF-16 byte order mark but declares 'UTF-8'",
    ),
    "utf-16-declared-utf-8-bom": (
        codecs.BOM_UTF8,
        "UTF-16",
        "utf-8",
        "starts with a UTF-8 byte order mark but declares 'UTF-16'",
    ),
    "iso-8859-1-declared-utf-8-bom": (
        codecs.BOM_UTF8,
        "ISO-8859-1",
        "utf-8",
        "starts with a UTF-8 byte order mark but declares 'ISO-8859-1'",
    ),
    "iso-8859-1-declared-utf-16-without-bom": (
        b"",
        "ISO-8859-1",
        "utf-16-le",
        "is written in UTF-16 without a byte order mark but declares 'ISO-8859-1'",
    ),
    "utf-16-declared-8-bit": (
        b"",
        "UTF-16",
        "utf-8",
        "declares 'UTF-16' but is written in 8-bit units",
    ),
    "unknown-encoding": (
        b"",
        "x-klingon-8",
        "utf-8",
        "names the encoding 'x-klingon-8', which is unknown",
    ),
    "invalid-encoding-name": (
        b"",
        "UTF 8",
        "utf-8",
        "names the encoding 'UTF 8', which is not a valid name",
    ),
    "empty-encoding-name": (b"", "", "utf-8", "names the encoding '', which is not a valid name"),
    "iso-8859-1-declared-utf-8-bytes": (
        b"",
        "ISO-8859-1",
        "utf-8",
        "declares 'ISO-8859-1', but its bytes are UTF-8: it would be read with 'Ã\\x9f' "
        "where 'ß' is written",
    ),
    "windows-1252-declared-utf-8-bytes": (
        b"",
        "windows-1252",
        "utf-8",
        "declares 'windows-1252', but its bytes are UTF-8",
    ),
    "us-ascii-declared-utf-8-bytes": (
        b"",
        "US-ASCII",
        "utf-8",
        "declares 'US-ASCII', but byte 0xC3 at line 51, column 44 is not valid in it",
    ),
}

GOOD = {
    "utf-8": (b"", "UTF-8", "utf-8"),
    "utf-8-bom": (codecs.BOM_UTF8, "utf-8", "utf-8"),
    "utf-8-undeclared": (b"", None, "utf-8"),
    "iso-8859-1": (b"", "ISO-8859-1", "latin-1"),
    "iso-8859-15": (b"", "ISO-8859-15", "iso-8859-15"),
    "windows-1252": (b"", "windows-1252", "cp1252"),
    "utf-16-le-bom": (codecs.BOM_UTF16_LE, "UTF-16", "utf-16-le"),
    "utf-16-be-bom": (codecs.BOM_UTF16_BE, "UTF-16", "utf-16-be"),
    "utf-16-bom-undeclared": (codecs.BOM_UTF16_LE, None, "utf-16-le"),
}


@pytest.mark.parametrize("name", BAD)
def test_a_mismatched_declaration_fails_with_a_finding_naming_it(corpus: Path, name: str) -> None:
    bom, declared, codec, problem = BAD[name]
    data = _variant(corpus, bom, declared, codec)
    with pytest.raises(InvalidEInvoiceError) as raised:
        EInvoiceProcessor().process(data, context())
    [finding] = raised.value.findings
    assert (finding.rule_id, finding.level) == ("XML-ENCODING", Level.FATAL)
    assert problem in finding.text
    assert raised.value.code is FailureCode.INVALID_E_INVOICE
    with pytest.raises(XmlEncodingError):
        parse_xml(data)


@pytest.mark.parametrize("name", ["utf-8-declared-latin-1-bytes", "iso-8859-1-declared-utf-16-bom"])
def test_a_mismatched_declaration_fails_through_the_pipeline(corpus: Path, name: str) -> None:
    bom, declared, codec, problem = BAD[name]
    with pytest.raises(ProcessingError) as raised:
        read_document(_variant(corpus, bom, declared, codec), context())
    assert raised.value.code is FailureCode.INVALID_E_INVOICE
    assert problem in raised.value.message


@pytest.mark.parametrize("name", GOOD)
def test_a_declaration_that_matches_its_bytes_reads_as_the_original(
    corpus: Path, requires_rules: None, name: str
) -> None:
    bom, declared, codec = GOOD[name]
    data = _variant(corpus, bom, declared, codec)
    assert encoding_problem(data) is None
    original = EInvoiceProcessor().process((corpus / INVOICE).read_bytes(), context())
    outcome = EInvoiceProcessor().process(data, context())
    assert outcome.data["invoice"] == original.data["invoice"]
    assert outcome.data["invoice"]["seller"]["address"]["city"] == "Göttingen"


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        pytest.param(b"<a>\xc3\xa4</a>", None, id="undeclared-utf-8"),
        pytest.param(b"<?xml version='1.0' encoding='latin1'?><a>\xe4</a>", None, id="latin1"),
        pytest.param(b"<?xml version='1.0'?><a>plain</a>", None, id="ascii"),
        pytest.param(
            codecs.BOM_UTF32_LE + "<?xml version='1.0' encoding='UTF-32'?><a/>".encode("utf-32-le"),
            None,
            id="utf-32",
        ),
        pytest.param(
            b"<?xml version='1.0' encoding='windows-1252'?><a>\x81</a>",
            "declares 'windows-1252', but byte 0x81 at line 1, column 49 is not valid in it",
            id="byte-undefined-in-windows-1252",
        ),
        pytest.param(
            codecs.BOM_UTF16_LE + "<a>\ud800</a>".encode("utf-16-le", "surrogatepass"),
            "declares no encoding, so it must be UTF-16, but byte 0x00 at offset 8",
            id="lone-surrogate-in-utf-16",
        ),
    ],
)
def test_encoding_problem(data: bytes, problem: str | None) -> None:
    found = encoding_problem(data)
    assert found == problem if problem is None else (found is not None and problem in found)

"""ZUGFeRD 1.0 guideline identifiers: the final ones and the draft spellings real files
carry are read and checked against the 1.0 schema; any other identifier is refused.

The documents are corpus ZUGFeRD 1.0 PDFs with their embedded XML's identifier swapped
and the XML embedded again (docs/einvoice.md, "ZUGFeRD 1.0 identifiers").
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter
from pypdf.generic import NameObject, NumberObject

from processors.base import ResultType
from processors.einvoice.findings import InvalidEInvoiceError
from processors.einvoice.processor import EInvoiceProcessor
from processors.einvoice.profiles import Declared, Profile, Syntax, profile_of
from tests.processors.conftest import CORPUS, context, manifest_rows

FINAL = "urn:ferd:CrossIndustryDocument:invoice:1p0:"

ACCEPTED = {
    f"{FINAL}basic": Profile.ZUGFERD1_BASIC,
    f"{FINAL}comfort": Profile.ZUGFERD1_COMFORT,
    f"{FINAL}extended": Profile.ZUGFERD1_EXTENDED,
    "urn:ferd:invoice:rc:basic": Profile.ZUGFERD1_BASIC,
    "urn:ferd:invoice:rc:comfort": Profile.ZUGFERD1_COMFORT,
    "urn:ferd:invoice:rc:extended": Profile.ZUGFERD1_EXTENDED,
    "urn:ferd:invoice:1.0:basic": Profile.ZUGFERD1_BASIC,
    "urn:ferd:invoice:1.0:comfort": Profile.ZUGFERD1_COMFORT,
    "urn:ferd:invoice:1.0:extended": Profile.ZUGFERD1_EXTENDED,
    f"{FINAL}E": Profile.ZUGFERD1_COMFORT,
    f"{FINAL}COMFORT": Profile.ZUGFERD1_COMFORT,
}
REFUSED = (
    f"{FINAL}premium",
    f"{FINAL}",
    "urn:ferd:invoice:rc:E",
    "urn:ferd:invoice:2.0:basic",
    "urn:ferd:CrossIndustryDocument:invoice:2p0:basic",
    "urn:zugferd.de:1p0:basic",
)


@cache
def _template() -> tuple[bytes, str]:
    """A corpus ZUGFeRD 1.0 PDF whose embedded XML validates, and its identifier."""
    processor = EInvoiceProcessor()
    for row in manifest_rows("accept"):
        if row["category"] != "pdf:zugferd1":
            continue
        data = (CORPUS / row["file"]).read_bytes()
        validation = processor.process(data, context()).data["validation"]
        if validation["syntax"] == "zugferd1":
            return data, str(validation["specificationId"])
    pytest.skip("no readable ZUGFeRD 1.0 PDF in the corpus")


def with_guideline(
    pdf: bytes, old: str, new: str, *, also: tuple[bytes, bytes] = (b"", b"")
) -> bytes:
    """The PDF with `old` replaced by `new` in every embedded file (and `also` swapped)."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    swapped = 0
    for reference in writer._objects:
        stream = reference.get_object() if reference is not None else None
        if stream is None or stream.get("/Type") != "/EmbeddedFile":
            continue
        data = stream.get_data().replace(old.encode(), new.encode())
        if also[0]:
            data = data.replace(*also)
        stream.set_data(data)
        if "/Params" in stream:
            stream["/Params"][NameObject("/Size")] = NumberObject(len(data))
        swapped += 1
    assert swapped, "the PDF embeds no file"
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


@pytest.mark.parametrize("identifier", list(ACCEPTED))
def test_accepted_identifier_is_read_and_validated(identifier: str, requires_rules: None) -> None:
    pdf, original = _template()
    outcome = EInvoiceProcessor().process(with_guideline(pdf, original, identifier), context())

    assert outcome.result_type is ResultType.INVOICE
    validation = outcome.data["validation"]
    assert validation["specificationId"] == identifier
    assert validation["profile"] == str(ACCEPTED[identifier])
    assert validation["scenario"] == "ZUGFeRD 1.0 (XML Schema)"
    notes = [f for f in validation["findings"] if f["id"] == "PROFILE-NOTE"]
    if identifier.startswith(FINAL) and identifier.removeprefix(FINAL).islower():
        assert notes == []
    else:
        assert len(notes) == 1 and "draft or variant spelling" in notes[0]["text"]


@pytest.mark.parametrize("identifier", REFUSED)
def test_unknown_identifier_is_refused(identifier: str, requires_rules: None) -> None:
    pdf, original = _template()
    with pytest.raises(InvalidEInvoiceError) as caught:
        EInvoiceProcessor().process(with_guideline(pdf, original, identifier), context())
    assert [f.rule_id for f in caught.value.findings] == ["PROFILE-UNKNOWN"]


def test_draft_identifier_does_not_skip_the_schema(requires_rules: None) -> None:
    pdf, original = _template()
    broken = with_guideline(
        pdf,
        original,
        "urn:ferd:invoice:rc:comfort",
        also=(b"HeaderExchangedDocument>", b"HederExchangedDocument>"),
    )
    with pytest.raises(InvalidEInvoiceError) as caught:
        EInvoiceProcessor().process(broken, context())
    assert any("HederExchangedDocument" in f.text for f in caught.value.findings)


def test_draft_identifier_in_a_cii_document_is_checked_against_cii() -> None:
    profile, note = profile_of(Declared(Syntax.CII, "urn:ferd:invoice:1.0:basic"))
    assert profile is Profile.CII_SCHEMA_ONLY
    assert note is not None and "CII schema only" in note


def test_corpus_template_is_a_pdf(corpus: Path) -> None:
    pdf, original = _template()
    assert pdf.startswith(b"%PDF-") and original.startswith("urn:ferd:")

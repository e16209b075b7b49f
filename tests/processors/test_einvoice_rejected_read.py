"""A rejected e-invoice keeps what could be read (issue 43, part 4): the processor's
failure carries the parties, number, dates and totals next to its findings, and nothing
when the XML does not read as an invoice."""

from __future__ import annotations

import pytest

from processors.base import CompanyProfile, DocumentType, FailureCode, ProcessingContext
from processors.einvoice.findings import InvalidEInvoiceError
from processors.einvoice.processor import READ_OF_REJECTED, EInvoiceProcessor
from testkit.samples import CORPUS

XRECHNUNG = CORPUS / "itplr-kosit+validator-configuration-xrechnung/src/test/instances/ubl001.xml"
BUYER_REFERENCE = b"<cbc:BuyerReference>A test buyer reference</cbc:BuyerReference>"
CONTEXT = ProcessingContext(DocumentType.AUTO, "x.xml", CompanyProfile("Acme GmbH"))


def _rejected(content: bytes) -> InvalidEInvoiceError:
    with pytest.raises(InvalidEInvoiceError) as raised:
        EInvoiceProcessor().process(content, CONTEXT)
    assert raised.value.code is FailureCode.INVALID_E_INVOICE
    return raised.value


def test_an_invalid_xrechnung_keeps_its_parties_number_and_totals() -> None:
    if not XRECHNUNG.is_file():
        pytest.skip("the KoSIT test instances are not in the shared corpus")
    content = XRECHNUNG.read_bytes()
    assert BUYER_REFERENCE in content
    error = _rejected(content.replace(BUYER_REFERENCE, b""))
    read = error.details["invoice"]
    assert set(read) <= {*READ_OF_REJECTED, "totals"}
    assert (read["number"], read["issueDate"], read["currency"]) == (
        "12115118",
        "2015-01-09",
        "EUR",
    )
    assert read["seller"]["name"] == "De Koksmaat" and read["buyer"]["name"] == "ODIN 59"
    assert read["totals"]["gross"] == "250.33" and read["totals"]["net"] == "229.60"
    assert any(f["id"] == "BR-DE-15" for f in error.details["findings"])


def test_xml_that_reads_as_no_invoice_keeps_nothing() -> None:
    root = b'<Foo xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>'
    assert "invoice" not in _rejected(root).details

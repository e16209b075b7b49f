"""The normalized invoice against values read straight from the XML by independent XPath."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from processors.base import CompanyProfile, DocumentType, ResultType
from processors.einvoice import EInvoiceProcessor, InvalidEInvoiceError
from processors.einvoice.pdf_attachment import find_embedded_invoice
from processors.invoice_model import Party, decide_direction
from tests.processors.conftest import context, manifest_rows, row_id

ROWS = [row for row in manifest_rows("accept")]


def _local(*steps: str) -> str:
    return "/".join(f"*[local-name()='{step}']" for step in steps)


def _first(root: etree._Element, path: str) -> str | None:
    found = root.xpath(path)
    assert isinstance(found, list)
    for node in found:
        value = node if isinstance(node, str) else node.text
        if value and value.strip():
            return " ".join(str(value).split())
    return None


def _expected(root: etree._Element) -> dict[str, str | None]:
    name = etree.QName(root).localname
    if name in ("Invoice", "CreditNote"):
        seller, buyer = (
            "/*/" + _local("AccountingSupplierParty", "Party"),
            "/*/" + _local("AccountingCustomerParty", "Party"),
        )
        registration = _local("PartyLegalEntity", "RegistrationName")
        party_name = _local("PartyName", "Name")
        vat = (
            _local("PartyTaxScheme")
            + "[*[local-name()='TaxScheme']/*[local-name()='ID']='VAT']/"
            + _local("CompanyID")
        )
        return {
            "number": _first(root, "/*/" + _local("ID")),
            "issueDate": _first(root, "/*/" + _local("IssueDate")),
            "currency": _first(root, "/*/" + _local("DocumentCurrencyCode")),
            "gross": _first(root, "/*/" + _local("LegalMonetaryTotal", "TaxInclusiveAmount")),
            "amountDue": _first(root, "/*/" + _local("LegalMonetaryTotal", "PayableAmount")),
            "net": _first(root, "/*/" + _local("LegalMonetaryTotal", "TaxExclusiveAmount")),
            "seller": _first(root, f"{seller}/{registration}")
            or _first(root, f"{seller}/{party_name}"),
            "buyer": _first(root, f"{buyer}/{registration}")
            or _first(root, f"{buyer}/{party_name}"),
            "sellerVat": _first(root, f"{seller}/{vat}"),
            "buyerVat": _first(root, f"{buyer}/{vat}"),
        }
    # CII and ZUGFeRD 1.0: match by local name anywhere in the header structures.
    summation = (
        "//*[contains(local-name(), 'MonetarySummation') and not(contains(local-name(), 'Line'))]"
    )
    party = "//*[local-name()='{}']"
    vat = "/*[local-name()='SpecifiedTaxRegistration']/*[local-name()='ID'][@schemeID='VA']"
    return {
        "number": _first(
            root,
            "/*/*[contains(local-name(), 'ExchangedDocument') and not("
            "contains(local-name(), 'Context'))]/*[local-name()='ID']",
        ),
        "issueDate": _first(root, "//*[local-name()='IssueDateTime']/*"),
        "currency": _first(root, "//*[local-name()='InvoiceCurrencyCode']"),
        "gross": _first(root, f"{summation}/*[local-name()='GrandTotalAmount']"),
        "amountDue": _first(root, f"{summation}/*[local-name()='DuePayableAmount']"),
        "net": _first(root, f"{summation}/*[local-name()='TaxBasisTotalAmount']"),
        "seller": _first(root, party.format("SellerTradeParty") + "/*[local-name()='Name']"),
        "buyer": _first(root, party.format("BuyerTradeParty") + "/*[local-name()='Name']"),
        "sellerVat": _first(root, party.format("SellerTradeParty") + vat),
        "buyerVat": _first(root, party.format("BuyerTradeParty") + vat),
    }


def _same_amount(actual: str | None, expected: str | None) -> bool:
    if expected is None:
        return actual is None
    return actual is not None and Decimal(actual) == Decimal(expected)


@pytest.mark.parametrize("row", ROWS, ids=row_id)
def test_fields_match_the_xml(row: dict[str, Any], corpus: Path, requires_rules: None) -> None:
    data = (corpus / row["file"]).read_bytes()
    if data.startswith(b"%PDF"):
        embedded = find_embedded_invoice(data)
        assert embedded is not None
        xml = embedded.data
    else:
        xml = data
    try:
        outcome = EInvoiceProcessor().process(data, context())
    except InvalidEInvoiceError:
        pytest.skip("not accepted (see test_einvoice_corpus for the verdict)")
    assert outcome.result_type is ResultType.INVOICE
    invoice = outcome.data["invoice"]
    expected = _expected(etree.fromstring(xml))
    assert invoice["number"] == expected["number"]
    issue = (expected["issueDate"] or "").replace("-", "")
    assert (invoice["issueDate"] or "").replace("-", "") == issue[:8]
    assert invoice["currency"] == expected["currency"]
    for field in ("gross", "amountDue", "net"):
        assert _same_amount(invoice["totals"][field], expected[field]), field
    assert invoice["seller"]["name"] == expected["seller"]
    assert invoice["buyer"]["name"] == expected["buyer"]
    assert invoice["seller"]["vatId"] == expected["sellerVat"]
    assert invoice["buyer"]["vatId"] == expected["buyerVat"]


# --- direction -------------------------------------------------------------------------

SELLER = Party(name="Seller GmbH", vat_id="DE 123456789")
BUYER = Party(name="Buyer AG", tax_number="201/113/40209")


@pytest.mark.parametrize(
    ("company", "requested", "direction", "uncertain", "mismatch"),
    [
        (
            CompanyProfile("x", vat_ids=("DE123456789",)),
            DocumentType.AUTO,
            DocumentType.CUSTOMER_INVOICE,
            False,
            False,
        ),
        (
            CompanyProfile("x", tax_number="2011134020 9"),
            DocumentType.AUTO,
            DocumentType.SUPPLIER_INVOICE,
            False,
            False,
        ),
        (
            CompanyProfile("buyer ag"),
            DocumentType.AUTO,
            DocumentType.SUPPLIER_INVOICE,
            False,
            False,
        ),
        (
            CompanyProfile("Someone Else"),
            DocumentType.AUTO,
            DocumentType.SUPPLIER_INVOICE,
            True,
            False,
        ),
        (
            CompanyProfile("x", vat_ids=("DE123456789",)),
            DocumentType.SUPPLIER_INVOICE,
            DocumentType.SUPPLIER_INVOICE,
            False,
            True,
        ),
        (
            CompanyProfile("Someone Else"),
            DocumentType.CUSTOMER_INVOICE,
            DocumentType.CUSTOMER_INVOICE,
            False,
            False,
        ),
    ],
)
def test_direction(
    company: CompanyProfile,
    requested: DocumentType,
    direction: DocumentType,
    uncertain: bool,
    mismatch: bool,
) -> None:
    decision = decide_direction(SELLER, BUYER, company, requested)
    assert (decision.direction, decision.uncertain, decision.mismatch) == (
        direction,
        uncertain,
        mismatch,
    )


def test_direction_by_iban() -> None:
    company = CompanyProfile("x", ibans=("DE02 1203 0000 0000 2020 51",))
    decision = decide_direction(
        Party(), Party(), company, DocumentType.AUTO, seller_ibans=["DE02120300000000202051"]
    )
    assert decision.direction is DocumentType.CUSTOMER_INVOICE

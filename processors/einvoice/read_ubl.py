"""Read a UBL 2.1 Invoice or CreditNote into the normalized model."""

from __future__ import annotations

from decimal import Decimal
from types import MappingProxyType

from lxml import etree

from processors.einvoice.profiles import CBC_NS, UBL_CREDIT_NOTE_NS
from processors.einvoice.values import amount, first, nodes, text, to_date, to_decimal
from processors.invoice_model import (
    Address,
    ElectronicAddress,
    Invoice,
    InvoiceType,
    LineItem,
    Party,
    PaymentMeans,
    Totals,
    VatBreakdown,
    invoice_type_for_code,
)

NS = MappingProxyType(
    {
        "cbc": CBC_NS,
        "cac": "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
    }
)


def read_ubl(root: etree._Element) -> Invoice:
    credit_note = etree.QName(root).namespace == UBL_CREDIT_NOTE_NS
    type_code = text(root, "cbc:CreditNoteTypeCode" if credit_note else "cbc:InvoiceTypeCode", NS)
    currency = text(root, "cbc:DocumentCurrencyCode", NS)
    invoice_type = invoice_type_for_code(type_code)
    if credit_note and invoice_type is InvoiceType.INVOICE:
        invoice_type = InvoiceType.CREDIT_NOTE
    line_tag, quantity_tag = (
        ("cac:CreditNoteLine", "cbc:CreditedQuantity")
        if credit_note
        else ("cac:InvoiceLine", "cbc:InvoicedQuantity")
    )
    return Invoice(
        number=text(root, "cbc:ID", NS),
        invoice_type=invoice_type,
        type_code=type_code,
        issue_date=to_date(text(root, "cbc:IssueDate", NS)),
        currency=currency,
        seller=_party(first(root, "cac:AccountingSupplierParty/cac:Party", NS)),
        buyer=_party(first(root, "cac:AccountingCustomerParty/cac:Party", NS)),
        totals=_totals(root, currency),
        due_date=to_date(
            text(root, "cbc:DueDate", NS) or text(root, "cac:PaymentMeans/cbc:PaymentDueDate", NS)
        ),
        vat_breakdown=tuple(
            _vat(sub)
            for sub in nodes(root, _tax_total_path(root, currency) + "/cac:TaxSubtotal", NS)
        ),
        lines=tuple(_line(line, quantity_tag) for line in nodes(root, line_tag, NS)),
        payment_means=tuple(_payment_means(m) for m in nodes(root, "cac:PaymentMeans", NS)),
        payment_terms=text(root, "cac:PaymentTerms/cbc:Note", NS),
        buyer_reference=text(root, "cbc:BuyerReference", NS),
        order_reference=text(root, "cac:OrderReference/cbc:ID", NS),
        contract_reference=text(root, "cac:ContractDocumentReference/cbc:ID", NS),
        preceding_invoice_reference=text(
            root, "cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID", NS
        ),
        notes=tuple(n for n in (text(note, ".", NS) for note in nodes(root, "cbc:Note", NS)) if n),
    )


def _tax_total_path(root: etree._Element, currency: str | None) -> str:
    """The TaxTotal in the document currency (a second one may be in the VAT currency)."""
    if currency and nodes(
        root, f"cac:TaxTotal[cbc:TaxAmount/@currencyID='{_quote_free(currency)}']", NS
    ):
        return f"cac:TaxTotal[cbc:TaxAmount/@currencyID='{_quote_free(currency)}'][1]"
    return "cac:TaxTotal[1]"


def _quote_free(value: str) -> str:
    return value.replace("'", "")


def _vat_total(root: etree._Element, currency: str | None) -> Decimal | None:
    return amount(root, _tax_total_path(root, currency) + "/cbc:TaxAmount", NS)


def _totals(root: etree._Element, currency: str | None) -> Totals:
    monetary = first(root, "cac:LegalMonetaryTotal", NS)
    return Totals(
        line_total=amount(monetary, "cbc:LineExtensionAmount", NS),
        allowance_total=amount(monetary, "cbc:AllowanceTotalAmount", NS),
        charge_total=amount(monetary, "cbc:ChargeTotalAmount", NS),
        net=amount(monetary, "cbc:TaxExclusiveAmount", NS),
        vat=_vat_total(root, currency),
        gross=amount(monetary, "cbc:TaxInclusiveAmount", NS),
        prepaid=amount(monetary, "cbc:PrepaidAmount", NS),
        rounding=amount(monetary, "cbc:PayableRoundingAmount", NS),
        amount_due=amount(monetary, "cbc:PayableAmount", NS),
    )


def _party(party: etree._Element | None) -> Party:
    if party is None:
        return Party()
    endpoint = first(party, "cbc:EndpointID", NS)
    legal_name = text(party, "cac:PartyLegalEntity/cbc:RegistrationName", NS)
    trading_name = text(party, "cac:PartyName/cbc:Name", NS)
    return Party(
        name=legal_name or trading_name,
        trading_name=trading_name if legal_name else None,
        address=_address(first(party, "cac:PostalAddress", NS)),
        vat_id=text(party, "cac:PartyTaxScheme[cac:TaxScheme/cbc:ID='VAT']/cbc:CompanyID", NS),
        tax_number=text(
            party, "cac:PartyTaxScheme[not(cac:TaxScheme/cbc:ID='VAT')]/cbc:CompanyID", NS
        ),
        legal_registration_id=text(party, "cac:PartyLegalEntity/cbc:CompanyID", NS),
        electronic_address=ElectronicAddress(endpoint.text.strip(), endpoint.get("schemeID"))
        if endpoint is not None and endpoint.text and endpoint.text.strip()
        else None,
    )


def _address(address: etree._Element | None) -> Address | None:
    if address is None:
        return None
    lines = [text(address, "cbc:StreetName", NS), text(address, "cbc:AdditionalStreetName", NS)]
    lines += [text(line, ".", NS) for line in nodes(address, "cac:AddressLine/cbc:Line", NS)]
    return Address(
        lines=tuple(v for v in lines if v),
        city=text(address, "cbc:CityName", NS),
        postal_code=text(address, "cbc:PostalZone", NS),
        subdivision=text(address, "cbc:CountrySubentity", NS),
        country_code=text(address, "cac:Country/cbc:IdentificationCode", NS),
    )


def _vat(subtotal: etree._Element) -> VatBreakdown:
    return VatBreakdown(
        category_code=text(subtotal, "cac:TaxCategory/cbc:ID", NS),
        rate=amount(subtotal, "cac:TaxCategory/cbc:Percent", NS),
        taxable_amount=amount(subtotal, "cbc:TaxableAmount", NS),
        tax_amount=amount(subtotal, "cbc:TaxAmount", NS),
        exemption_reason=text(subtotal, "cac:TaxCategory/cbc:TaxExemptionReason", NS),
    )


def _line(line: etree._Element, quantity_tag: str) -> LineItem:
    quantity = first(line, quantity_tag, NS)
    return LineItem(
        line_id=text(line, "cbc:ID", NS),
        name=text(line, "cac:Item/cbc:Name", NS),
        description=text(line, "cac:Item/cbc:Description", NS),
        quantity=to_decimal(quantity.text) if quantity is not None else None,
        unit_code=quantity.get("unitCode") if quantity is not None else None,
        net_unit_price=amount(line, "cac:Price/cbc:PriceAmount", NS),
        net_amount=amount(line, "cbc:LineExtensionAmount", NS),
        vat_category_code=text(line, "cac:Item/cac:ClassifiedTaxCategory/cbc:ID", NS),
        vat_rate=amount(line, "cac:Item/cac:ClassifiedTaxCategory/cbc:Percent", NS),
    )


def _payment_means(means: etree._Element) -> PaymentMeans:
    return PaymentMeans(
        type_code=text(means, "cbc:PaymentMeansCode", NS),
        payee_iban=text(means, "cac:PayeeFinancialAccount/cbc:ID", NS),
        payee_bic=text(
            means, "cac:PayeeFinancialAccount/cac:FinancialInstitutionBranch/cbc:ID", NS
        ),
        payee_account_name=text(means, "cac:PayeeFinancialAccount/cbc:Name", NS),
        payer_iban=text(means, "cac:PaymentMandate/cac:PayerFinancialAccount/cbc:ID", NS),
        mandate_reference=text(means, "cac:PaymentMandate/cbc:ID", NS),
        reference=text(means, "cbc:PaymentID", NS),
    )

"""Read a CII invoice (D16B: EN 16931, XRechnung, Factur-X / ZUGFeRD 2.x) or a ZUGFeRD 1.0
CrossIndustryDocument into the normalized model. Both share the UN/CEFACT party, tax
and amount structures; only some container element names differ (the dialect)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from types import MappingProxyType

from lxml import etree

from processors.einvoice.profiles import CII_NS, RAM12_NS, RAM_NS, ZUGFERD1_NS
from processors.einvoice.values import amount, first, nodes, text, to_date, to_decimal
from processors.invoice_model import (
    Address,
    ElectronicAddress,
    Invoice,
    LineItem,
    Party,
    PaymentMeans,
    Totals,
    VatBreakdown,
    invoice_type_for_code,
)

_DATE = "*[local-name()='DateTimeString']"


@dataclass(frozen=True, slots=True)
class Dialect:
    ns: MappingProxyType[str, str]
    document: str
    trade: str
    agreement: str
    settlement: str
    summation: str
    reference_id: str
    rate: str
    line_agreement: str
    line_delivery: str
    line_settlement: str
    line_summation: str


D16B = Dialect(
    ns=MappingProxyType({"rsm": CII_NS, "ram": RAM_NS}),
    document="rsm:ExchangedDocument",
    trade="rsm:SupplyChainTradeTransaction",
    agreement="ram:ApplicableHeaderTradeAgreement",
    settlement="ram:ApplicableHeaderTradeSettlement",
    summation="ram:SpecifiedTradeSettlementHeaderMonetarySummation",
    reference_id="ram:IssuerAssignedID",
    rate="ram:RateApplicablePercent",
    line_agreement="ram:SpecifiedLineTradeAgreement",
    line_delivery="ram:SpecifiedLineTradeDelivery",
    line_settlement="ram:SpecifiedLineTradeSettlement",
    line_summation="ram:SpecifiedTradeSettlementLineMonetarySummation",
)

ZUGFERD1 = Dialect(
    ns=MappingProxyType({"rsm": ZUGFERD1_NS, "ram": RAM12_NS}),
    document="rsm:HeaderExchangedDocument",
    trade="rsm:SpecifiedSupplyChainTradeTransaction",
    agreement="ram:ApplicableSupplyChainTradeAgreement",
    settlement="ram:ApplicableSupplyChainTradeSettlement",
    summation="ram:SpecifiedTradeSettlementMonetarySummation",
    reference_id="ram:ID",
    rate="ram:ApplicablePercent",
    line_agreement="ram:SpecifiedSupplyChainTradeAgreement",
    line_delivery="ram:SpecifiedSupplyChainTradeDelivery",
    line_settlement="ram:SpecifiedSupplyChainTradeSettlement",
    line_summation="ram:SpecifiedTradeSettlementMonetarySummation",
)


def read_cii(root: etree._Element, dialect: Dialect = D16B) -> Invoice:
    ns = dialect.ns
    document = first(root, dialect.document, ns)
    trade = first(root, dialect.trade, ns)
    agreement = first(trade, dialect.agreement, ns)
    settlement = first(trade, dialect.settlement, ns)
    currency = text(settlement, "ram:InvoiceCurrencyCode", ns)
    type_code = text(document, "ram:TypeCode", ns)
    ref = dialect.reference_id
    return Invoice(
        number=text(document, "ram:ID", ns),
        invoice_type=invoice_type_for_code(type_code),
        type_code=type_code,
        issue_date=to_date(text(document, f"ram:IssueDateTime/{_DATE}", ns)),
        currency=currency,
        seller=_party(first(agreement, "ram:SellerTradeParty", ns), ns),
        buyer=_party(first(agreement, "ram:BuyerTradeParty", ns), ns),
        totals=_totals(first(settlement, dialect.summation, ns), currency, ns),
        due_date=to_date(
            text(settlement, f"ram:SpecifiedTradePaymentTerms/ram:DueDateDateTime/{_DATE}", ns)
        ),
        vat_breakdown=tuple(
            _vat(tax, dialect) for tax in nodes(settlement, "ram:ApplicableTradeTax", ns)
        )
        if settlement is not None
        else (),
        lines=tuple(
            _line(item, dialect)
            for item in nodes(trade, "ram:IncludedSupplyChainTradeLineItem", ns)
        )
        if trade is not None
        else (),
        payment_means=_payment_means(settlement, ns),
        payment_terms=text(settlement, "ram:SpecifiedTradePaymentTerms/ram:Description", ns),
        buyer_reference=text(agreement, "ram:BuyerReference", ns),
        order_reference=text(agreement, f"ram:BuyerOrderReferencedDocument/{ref}", ns),
        contract_reference=text(agreement, f"ram:ContractReferencedDocument/{ref}", ns),
        preceding_invoice_reference=text(settlement, f"ram:InvoiceReferencedDocument/{ref}", ns),
        notes=tuple(
            n
            for n in (_clean(e.text) for e in nodes(document, "ram:IncludedNote/ram:Content", ns))
            if n
        )
        if document is not None
        else (),
    )


def _clean(value: str | None) -> str | None:
    return " ".join(value.split()) if value and value.strip() else None


def _party(party: etree._Element | None, ns: MappingProxyType[str, str]) -> Party:
    if party is None:
        return Party()
    uri = first(party, "ram:URIUniversalCommunication/ram:URIID", ns)
    return Party(
        name=text(party, "ram:Name", ns),
        trading_name=text(party, "ram:SpecifiedLegalOrganization/ram:TradingBusinessName", ns),
        address=_address(first(party, "ram:PostalTradeAddress", ns), ns),
        vat_id=text(party, "ram:SpecifiedTaxRegistration/ram:ID[@schemeID='VA']", ns),
        tax_number=text(party, "ram:SpecifiedTaxRegistration/ram:ID[@schemeID='FC']", ns),
        legal_registration_id=text(party, "ram:SpecifiedLegalOrganization/ram:ID", ns),
        electronic_address=ElectronicAddress(uri.text.strip(), uri.get("schemeID"))
        if uri is not None and uri.text and uri.text.strip()
        else None,
    )


def _address(address: etree._Element | None, ns: MappingProxyType[str, str]) -> Address | None:
    if address is None:
        return None
    lines = tuple(
        v
        for v in (text(address, f"ram:{tag}", ns) for tag in ("LineOne", "LineTwo", "LineThree"))
        if v
    )
    return Address(
        lines=lines,
        city=text(address, "ram:CityName", ns),
        postal_code=text(address, "ram:PostcodeCode", ns),
        subdivision=text(address, "ram:CountrySubDivisionName", ns),
        country_code=text(address, "ram:CountryID", ns),
    )


def _totals(
    summation: etree._Element | None, currency: str | None, ns: MappingProxyType[str, str]
) -> Totals:
    if summation is None:
        return Totals()
    return Totals(
        line_total=amount(summation, "ram:LineTotalAmount", ns),
        allowance_total=amount(summation, "ram:AllowanceTotalAmount", ns),
        charge_total=amount(summation, "ram:ChargeTotalAmount", ns),
        net=amount(summation, "ram:TaxBasisTotalAmount", ns),
        vat=_tax_total(summation, currency, ns),
        gross=amount(summation, "ram:GrandTotalAmount", ns),
        prepaid=amount(summation, "ram:TotalPrepaidAmount", ns),
        rounding=amount(summation, "ram:RoundingAmount", ns),
        amount_due=amount(summation, "ram:DuePayableAmount", ns),
    )


def _tax_total(
    summation: etree._Element, currency: str | None, ns: MappingProxyType[str, str]
) -> Decimal | None:
    """VAT total in the invoice currency (a second one may be in the VAT currency)."""
    totals = nodes(summation, "ram:TaxTotalAmount", ns)
    preferred = [t for t in totals if t.get("currencyID") in (None, currency)]
    chosen = (preferred or totals)[:1]
    return to_decimal(chosen[0].text) if chosen else None


def _vat(tax: etree._Element, dialect: Dialect) -> VatBreakdown:
    ns = dialect.ns
    return VatBreakdown(
        category_code=text(tax, "ram:CategoryCode", ns),
        rate=amount(tax, dialect.rate, ns),
        taxable_amount=amount(tax, "ram:BasisAmount", ns),
        tax_amount=amount(tax, "ram:CalculatedAmount", ns),
        exemption_reason=text(tax, "ram:ExemptionReason", ns),
    )


def _line(item: etree._Element, dialect: Dialect) -> LineItem:
    ns = dialect.ns
    settlement = first(item, dialect.line_settlement, ns)
    quantity = first(item, f"{dialect.line_delivery}/ram:BilledQuantity", ns)
    return LineItem(
        line_id=text(item, "ram:AssociatedDocumentLineDocument/ram:LineID", ns),
        name=text(item, "ram:SpecifiedTradeProduct/ram:Name", ns),
        description=text(item, "ram:SpecifiedTradeProduct/ram:Description", ns),
        quantity=to_decimal(quantity.text) if quantity is not None else None,
        unit_code=quantity.get("unitCode") if quantity is not None else None,
        net_unit_price=amount(
            item, f"{dialect.line_agreement}/ram:NetPriceProductTradePrice/ram:ChargeAmount", ns
        ),
        net_amount=amount(settlement, f"{dialect.line_summation}/ram:LineTotalAmount", ns),
        vat_category_code=text(settlement, "ram:ApplicableTradeTax/ram:CategoryCode", ns),
        vat_rate=amount(settlement, f"ram:ApplicableTradeTax/{dialect.rate}", ns),
    )


def _payment_means(
    settlement: etree._Element | None, ns: MappingProxyType[str, str]
) -> tuple[PaymentMeans, ...]:
    if settlement is None:
        return ()
    reference = text(settlement, "ram:PaymentReference", ns)
    mandate = text(settlement, "ram:SpecifiedTradePaymentTerms/ram:DirectDebitMandateID", ns)
    return tuple(
        PaymentMeans(
            type_code=text(means, "ram:TypeCode", ns),
            payee_iban=text(means, "ram:PayeePartyCreditorFinancialAccount/ram:IBANID", ns)
            or text(means, "ram:PayeePartyCreditorFinancialAccount/ram:ProprietaryID", ns),
            payee_bic=text(means, "ram:PayeeSpecifiedCreditorFinancialInstitution/ram:BICID", ns),
            payee_account_name=text(
                means, "ram:PayeePartyCreditorFinancialAccount/ram:AccountName", ns
            ),
            payer_iban=text(means, "ram:PayerPartyDebtorFinancialAccount/ram:IBANID", ns),
            mandate_reference=mandate,
            reference=reference,
        )
        for means in nodes(settlement, "ram:SpecifiedTradeSettlementPaymentMeans", ns)
    )

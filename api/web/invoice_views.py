"""The invoice page's view model, from the normalized invoice stored with the result
(processors/invoice_model.py: `Invoice.to_dict()` plus direction, validation, source)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from api.web.result_views import (
    FindingView,
    findings_of,
    grouped_iban,
    items,
    level_counts,
    mapping,
    result_path,
    text,
)
from storage.models import Result

INVOICE_TYPE_LABELS = {
    "invoice": "Invoice",
    "credit_note": "Credit note",
    "corrected_invoice": "Corrected invoice",
}
DIRECTION_LABELS = {
    "supplier_invoice": "Supplier invoice (received)",
    "customer_invoice": "Customer invoice (issued)",
}
# UNTDID 4461, the payment means codes invoices use most.
PAYMENT_MEANS_LABELS = {
    "1": "Not defined",
    "10": "Cash",
    "20": "Cheque",
    "30": "Credit transfer",
    "31": "Debit transfer",
    "42": "Payment to bank account",
    "48": "Bank card",
    "49": "Direct debit",
    "57": "Standing agreement",
    "58": "SEPA credit transfer",
    "59": "SEPA direct debit",
    "97": "Clearing between partners",
    "ZZZ": "Mutually defined",
}
# UNCL 5305, the VAT category codes of EN 16931.
VAT_CATEGORY_LABELS = {
    "S": "Standard rate",
    "Z": "Zero rated",
    "E": "Exempt",
    "AE": "Reverse charge",
    "K": "Intra-community supply",
    "G": "Export outside the EU",
    "O": "Not subject to VAT",
    "L": "Canary Islands IGIC",
    "M": "Ceuta and Melilla IPSI",
}
_TOTALS = (
    ("lineTotal", "Sum of lines"),
    ("allowanceTotal", "Allowances"),
    ("chargeTotal", "Charges"),
    ("net", "Net amount"),
    ("vat", "VAT"),
    ("gross", "Gross amount"),
    ("prepaid", "Prepaid"),
    ("rounding", "Rounding"),
    ("amountDue", "Amount due"),
)
_REFERENCES = (
    ("buyerReference", "Buyer reference"),
    ("orderReference", "Order reference"),
    ("contractReference", "Contract reference"),
    ("precedingInvoiceReference", "Preceding invoice"),
)


@dataclass(frozen=True)
class PartyView:
    name: str | None
    trading_name: str | None
    address_lines: tuple[str, ...]
    vat_id: str | None
    tax_number: str | None
    legal_registration_id: str | None
    electronic_address: str | None

    @property
    def empty(self) -> bool:
        return not (self.name or self.address_lines or self.vat_id or self.tax_number)


@dataclass(frozen=True)
class Amount:
    label: str
    amount: str
    emphasis: bool = False


@dataclass(frozen=True)
class VatRowView:
    category_code: str | None
    category_label: str | None
    rate: str | None
    taxable_amount: str | None
    tax_amount: str | None
    exemption_reason: str | None


@dataclass(frozen=True)
class LineView:
    line_id: str | None
    name: str | None
    description: str | None
    quantity: str | None
    unit_code: str | None
    net_unit_price: str | None
    net_amount: str | None
    vat_category_code: str | None
    vat_rate: str | None


@dataclass(frozen=True)
class PaymentMeansView:
    type_code: str | None
    type_label: str | None
    payee_iban: str | None
    payee_bic: str | None
    payee_account_name: str | None
    payer_iban: str | None
    mandate_reference: str | None
    reference: str | None


@dataclass(frozen=True)
class DirectionView:
    direction: str | None
    label: str
    uncertain: bool
    mismatch: bool
    reason: str | None


@dataclass(frozen=True)
class ValidationView:
    valid: bool
    syntax: str | None
    profile: str | None
    specification_id: str | None
    scenario: str | None
    findings: tuple[FindingView, ...]
    counts: Mapping[str, int]

    @property
    def summary(self) -> str:
        """ "syntax ubl-invoice, profile EN16931, scenario ...", whatever is known."""
        parts = (("syntax", self.syntax), ("profile", self.profile), ("scenario", self.scenario))
        return ", ".join(f"{name} {value}" for name, value in parts if value)


@dataclass(frozen=True)
class DuplicateView:
    url: str
    number: str | None
    issue_date: str | None
    gross: str | None
    currency: str | None
    created_at: datetime


@dataclass(frozen=True)
class InvoiceView:
    number: str | None
    type_label: str
    type_code: str | None
    issue_date: str | None
    due_date: str | None
    currency: str | None
    seller: PartyView
    buyer: PartyView
    totals: tuple[Amount, ...]
    vat_rows: tuple[VatRowView, ...]
    lines: tuple[LineView, ...]
    payment_means: tuple[PaymentMeansView, ...]
    payment_terms: str | None
    references: tuple[tuple[str, str], ...]
    notes: tuple[str, ...]
    direction: DirectionView
    validation: ValidationView | None
    source: str
    review_notes: tuple[str, ...]
    duplicates: tuple[DuplicateView, ...]


def invoice_view(data: Mapping[str, Any], duplicates: Sequence[Result] = ()) -> InvoiceView:
    invoice = mapping(data.get("invoice"))
    totals = mapping(invoice.get("totals"))
    return InvoiceView(
        number=text(invoice.get("number")),
        type_label=INVOICE_TYPE_LABELS.get(str(invoice.get("invoiceType")), "Invoice"),
        type_code=text(invoice.get("typeCode")),
        issue_date=text(invoice.get("issueDate")),
        due_date=text(invoice.get("dueDate")),
        currency=text(invoice.get("currency")),
        seller=party_view(invoice.get("seller")),
        buyer=party_view(invoice.get("buyer")),
        totals=tuple(
            Amount(label, str(text(totals.get(key))), key in ("gross", "amountDue"))
            for key, label in _TOTALS
            if text(totals.get(key)) is not None
        ),
        vat_rows=tuple(_vat_row(row) for row in items(invoice.get("vatBreakdown"))),
        lines=tuple(_line(line) for line in items(invoice.get("lines"))),
        payment_means=tuple(_payment_means(m) for m in items(invoice.get("paymentMeans"))),
        payment_terms=text(invoice.get("paymentTerms")),
        references=tuple(
            (label, str(text(invoice.get(key))))
            for key, label in _REFERENCES
            if text(invoice.get(key)) is not None
        ),
        notes=tuple(str(text(n)) for n in _list(invoice.get("notes")) if text(n)),
        direction=direction_view(data),
        validation=validation_view(data.get("validation")),
        source=source_label(mapping(data.get("source"))),
        review_notes=tuple(review_notes(data)),
        duplicates=tuple(duplicate_view(result) for result in duplicates),
    )


def party_view(raw: Any) -> PartyView:
    party = mapping(raw)
    electronic = mapping(party.get("electronicAddress"))
    address_value = text(electronic.get("value"))
    scheme = text(electronic.get("scheme"))
    return PartyView(
        name=text(party.get("name")),
        trading_name=text(party.get("tradingName")),
        address_lines=address_lines(party.get("address")),
        vat_id=text(party.get("vatId")),
        tax_number=text(party.get("taxNumber")),
        legal_registration_id=text(party.get("legalRegistrationId")),
        electronic_address=(
            f"{address_value} (scheme {scheme})" if address_value and scheme else address_value
        ),
    )


def address_lines(raw: Any) -> tuple[str, ...]:
    address = mapping(raw)
    lines = [str(text(line)) for line in _list(address.get("lines")) if text(line)]
    place = " ".join(
        part for part in (text(address.get("postalCode")), text(address.get("city"))) if part
    )
    for extra in (place, text(address.get("subdivision")), text(address.get("countryCode"))):
        if extra:
            lines.append(extra)
    return tuple(lines)


def direction_view(data: Mapping[str, Any]) -> DirectionView:
    direction = text(data.get("direction"))
    return DirectionView(
        direction=direction,
        label=DIRECTION_LABELS.get(direction or "", "Unknown"),
        uncertain=data.get("directionUncertain") is True,
        mismatch=data.get("directionMismatch") is True,
        reason=text(data.get("directionReason")),
    )


def validation_view(raw: Any) -> ValidationView | None:
    """The e-invoice validation report; None for invoices read from a PDF's text."""
    if not isinstance(raw, Mapping):
        return None
    findings = findings_of(raw.get("findings"))
    return ValidationView(
        valid=raw.get("valid") is not False,
        syntax=text(raw.get("syntax")),
        profile=text(raw.get("profile")),
        specification_id=text(raw.get("specificationId")),
        scenario=text(raw.get("scenario")),
        findings=tuple(findings),
        counts=level_counts(findings),
    )


def source_label(source: Mapping[str, Any]) -> str:
    container = text(source.get("container"))
    if source.get("method") == "text":
        return "Read from the PDF's text (no structured data)"
    if source.get("method") == "ocr":
        return "Read from the scanned pages (OCR)"
    if container == "pdf":
        attachment = text(source.get("attachment"))
        return f"E-invoice embedded in a PDF ({attachment})" if attachment else "PDF e-invoice"
    if container == "xml":
        return "XML e-invoice"
    return "Unknown source"


def review_notes(data: Mapping[str, Any]) -> list[str]:
    """What a reader should double-check on an invoice read from text."""
    checks = mapping(data.get("checks"))
    notes: list[str] = []
    totals = text(checks.get("totals"))
    explained = text(checks.get("totalsExplained")) or "the totals"
    if totals == "failed":
        notes.append(f"The totals do not add up ({explained}).")
    elif totals == "incomplete":
        notes.append(f"Not every total was found, so {explained} could not be checked.")
    if checks.get("needsReview") is True and not notes:
        notes.append("Read from text: please review the fields.")
    return notes


def duplicate_view(result: Result) -> DuplicateView:
    invoice = mapping(result.data.get("invoice"))
    return DuplicateView(
        url=result_path(result.type, result.id),
        number=text(invoice.get("number")),
        issue_date=text(invoice.get("issueDate")),
        gross=text(mapping(invoice.get("totals")).get("gross")),
        currency=text(invoice.get("currency")),
        created_at=result.created_at,
    )


def _vat_row(row: Mapping[str, Any]) -> VatRowView:
    code = text(row.get("categoryCode"))
    return VatRowView(
        category_code=code,
        category_label=VAT_CATEGORY_LABELS.get(code or ""),
        rate=text(row.get("rate")),
        taxable_amount=text(row.get("taxableAmount")),
        tax_amount=text(row.get("taxAmount")),
        exemption_reason=text(row.get("exemptionReason")),
    )


def _line(line: Mapping[str, Any]) -> LineView:
    return LineView(
        line_id=text(line.get("lineId")),
        name=text(line.get("name")),
        description=text(line.get("description")),
        quantity=text(line.get("quantity")),
        unit_code=text(line.get("unitCode")),
        net_unit_price=text(line.get("netUnitPrice")),
        net_amount=text(line.get("netAmount")),
        vat_category_code=text(line.get("vatCategoryCode")),
        vat_rate=text(line.get("vatRate")),
    )


def _payment_means(means: Mapping[str, Any]) -> PaymentMeansView:
    code = text(means.get("typeCode"))
    return PaymentMeansView(
        type_code=code,
        type_label=PAYMENT_MEANS_LABELS.get(code or ""),
        payee_iban=grouped_iban(means.get("payeeIban")),
        payee_bic=text(means.get("payeeBic")),
        payee_account_name=text(means.get("payeeAccountName")),
        payer_iban=grouped_iban(means.get("payerIban")),
        mandate_reference=text(means.get("mandateReference")),
        reference=text(means.get("reference")),
    )


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []

"""One normalized invoice, whatever it was read from (UBL, CII, ZUGFeRD 1, PDF text).

Frozen dataclasses; amounts are `Decimal` and dates are `date`. `to_dict()` gives a
JSON-serialisable mapping (amounts as strings, so no precision is lost). The field names
follow EN 16931's business terms, named for what they mean to an accountant.

Also here: deciding whether an invoice is one the company received (supplier invoice) or
issued (customer invoice), from the parties and the company's master data.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from enum import StrEnum
from typing import Any

from processors.base import CompanyProfile, DocumentType
from processors.json_fields import to_json


class InvoiceType(StrEnum):
    INVOICE = "invoice"
    CREDIT_NOTE = "credit_note"
    CORRECTED_INVOICE = "corrected_invoice"


# UNTDID 1001 document type codes that EN 16931 allows for credit notes / corrections.
_CREDIT_NOTE_CODES = frozenset(
    {"81", "83", "261", "262", "296", "308", "381", "396", "420", "458", "532"}
)
_CORRECTED_INVOICE_CODES = frozenset({"384", "471", "472", "473"})


def invoice_type_for_code(type_code: str | None) -> InvoiceType:
    if type_code in _CREDIT_NOTE_CODES:
        return InvoiceType.CREDIT_NOTE
    if type_code in _CORRECTED_INVOICE_CODES:
        return InvoiceType.CORRECTED_INVOICE
    return InvoiceType.INVOICE


@dataclass(frozen=True, slots=True)
class Address:
    lines: tuple[str, ...] = ()
    city: str | None = None
    postal_code: str | None = None
    subdivision: str | None = None
    country_code: str | None = None


@dataclass(frozen=True, slots=True)
class ElectronicAddress:
    value: str
    scheme: str | None = None


@dataclass(frozen=True, slots=True)
class Party:
    name: str | None = None
    trading_name: str | None = None
    address: Address | None = None
    vat_id: str | None = None
    tax_number: str | None = None
    legal_registration_id: str | None = None
    electronic_address: ElectronicAddress | None = None


@dataclass(frozen=True, slots=True)
class VatBreakdown:
    category_code: str | None
    rate: Decimal | None
    taxable_amount: Decimal | None
    tax_amount: Decimal | None
    exemption_reason: str | None = None


@dataclass(frozen=True, slots=True)
class LineItem:
    line_id: str | None
    name: str | None
    quantity: Decimal | None = None
    unit_code: str | None = None
    net_unit_price: Decimal | None = None
    net_amount: Decimal | None = None
    vat_category_code: str | None = None
    vat_rate: Decimal | None = None
    description: str | None = None


@dataclass(frozen=True, slots=True)
class PaymentMeans:
    type_code: str | None = None
    payee_iban: str | None = None  # account to pay into (credit transfer)
    payee_bic: str | None = None
    payee_account_name: str | None = None
    payer_iban: str | None = None  # account debited (direct debit)
    mandate_reference: str | None = None
    reference: str | None = None  # remittance information the payer should quote


@dataclass(frozen=True, slots=True)
class Totals:
    line_total: Decimal | None = None
    allowance_total: Decimal | None = None
    charge_total: Decimal | None = None
    net: Decimal | None = None  # total without VAT
    vat: Decimal | None = None  # VAT total in the invoice currency
    gross: Decimal | None = None  # total with VAT
    prepaid: Decimal | None = None
    rounding: Decimal | None = None
    amount_due: Decimal | None = None


@dataclass(frozen=True, slots=True)
class Invoice:
    number: str | None
    invoice_type: InvoiceType
    type_code: str | None
    issue_date: date | None
    currency: str | None
    seller: Party
    buyer: Party
    totals: Totals
    due_date: date | None = None
    vat_breakdown: tuple[VatBreakdown, ...] = ()
    lines: tuple[LineItem, ...] = ()
    payment_means: tuple[PaymentMeans, ...] = ()
    payment_terms: str | None = None
    buyer_reference: str | None = None
    order_reference: str | None = None
    contract_reference: str | None = None
    preceding_invoice_reference: str | None = None
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        result = to_json(self)
        assert isinstance(result, dict)
        return result


# --- direction -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DirectionDecision:
    direction: DocumentType  # SUPPLIER_INVOICE or CUSTOMER_INVOICE
    uncertain: bool  # auto and neither (or both) parties matched the company
    mismatch: bool  # the client's explicit type contradicts what the parties say
    detected: DocumentType | None  # what the parties say, None when they do not tell
    reason: str


class _Match(StrEnum):
    NONE = "none"
    NAME = "name"
    IDENTIFIER = "identifier"  # VAT id, tax number or IBAN


def decide_direction(
    seller: Party,
    buyer: Party,
    company: CompanyProfile,
    requested: DocumentType,
    *,
    seller_ibans: Iterable[str] = (),
    buyer_ibans: Iterable[str] = (),
) -> DirectionDecision:
    """Which way the invoice goes for `company`.

    Seller is the company -> customer invoice; buyer is the company -> supplier invoice;
    neither (or both) -> supplier invoice, flagged uncertain. Identifiers (VAT id, tax
    number, IBAN) outrank names. An explicit `requested` type wins; a contradiction is
    flagged as a mismatch, never refused.
    """
    seller_match = _match_party(seller, company, seller_ibans)
    buyer_match = _match_party(buyer, company, buyer_ibans)
    detected, reason = _detect(seller_match, buyer_match)
    if requested in (DocumentType.SUPPLIER_INVOICE, DocumentType.CUSTOMER_INVOICE):
        mismatch = detected is not None and detected != requested
        return DirectionDecision(
            requested, False, mismatch, detected, f"requested by client; parties: {reason}"
        )
    if detected is None:
        return DirectionDecision(DocumentType.SUPPLIER_INVOICE, True, False, None, reason)
    return DirectionDecision(detected, False, False, detected, reason)


def _detect(seller: _Match, buyer: _Match) -> tuple[DocumentType | None, str]:
    rank = {_Match.NONE: 0, _Match.NAME: 1, _Match.IDENTIFIER: 2}
    if rank[seller] > rank[buyer]:
        return DocumentType.CUSTOMER_INVOICE, f"seller matches the company by {seller}"
    if rank[buyer] > rank[seller]:
        return DocumentType.SUPPLIER_INVOICE, f"buyer matches the company by {buyer}"
    if seller is _Match.NONE:
        return None, "neither party matches the company"
    return None, f"both parties match the company by {seller}"


def _match_party(party: Party, company: CompanyProfile, ibans: Iterable[str]) -> _Match:
    company_vat = {_compact(v) for v in company.vat_ids if v}
    if party.vat_id and _compact(party.vat_id) in company_vat:
        return _Match.IDENTIFIER
    if (
        company.tax_number
        and party.tax_number
        and (_digits(party.tax_number) == _digits(company.tax_number) != "")
    ):
        return _Match.IDENTIFIER
    company_ibans = {_compact(i) for i in company.ibans if i}
    if any(_compact(i) in company_ibans for i in ibans if i):
        return _Match.IDENTIFIER
    names = {n for n in (party.name, party.trading_name) if n}
    if company.name and any(_same_name(n, company.name) for n in names):
        return _Match.NAME
    return _Match.NONE


def _compact(identifier: str) -> str:
    return re.sub(r"[^0-9A-Za-z]", "", identifier).upper()


def _digits(identifier: str) -> str:
    return re.sub(r"\D", "", identifier)


def _same_name(left: str, right: str) -> bool:
    def norm(name: str) -> str:
        return re.sub(r"[\W_]+", "", name.casefold())

    return norm(left) != "" and norm(left) == norm(right)


def invoice_direction(
    invoice: Invoice, company: CompanyProfile, requested: DocumentType
) -> DirectionDecision:
    """The direction of an invoice as stored with its result, for every source."""
    return decide_direction(
        invoice.seller,
        invoice.buyer,
        company,
        requested,
        seller_ibans=[m.payee_iban for m in invoice.payment_means if m.payee_iban],
        buyer_ibans=[m.payer_iban for m in invoice.payment_means if m.payer_iban],
    )

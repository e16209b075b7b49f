"""An invoice as DATEV bookings: one line per VAT rate, with its accounts and BU key.

Pure: an `InvoiceResult` and the company's `DatevSettings` in, `Voucher` (the invoice's
bookings) or the reason it cannot be booked out. Whether an invoice *should* be exported
(review, validation) is decided here too, so both formats leave out the same ones."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from enum import StrEnum

from processors.base import DocumentType
from processors.invoice_model import InvoiceType, Party
from processors.results.invoice import InvoiceResult
from storage.datev.settings import RATES, DatevSettings

# BU keys (Buchungsschlüssel) for a line on a non-automatic account:
# input VAT (Vorsteuer) 9 = 19 %, 8 = 7 %; output VAT (Umsatzsteuer) 3 = 19 %, 2 = 7 %.
_BU_KEYS = {
    DocumentType.SUPPLIER_INVOICE: {"19": "9", "7": "8"},
    DocumentType.CUSTOMER_INVOICE: {"19": "3", "7": "2"},
}
# VAT categories (UNTDID 5305) whose tax the buyer owes or that need a key of their own
# (reverse charge, intra-community, export): left to the adviser, never guessed.
_SPECIAL_CATEGORIES = frozenset({"AE", "K", "G", "L", "M", "B"})
_CENT = Decimal("0.01")


class Hold(StrEnum):
    """Why an invoice is held back: listed in the report, exported only when asked."""

    NEEDS_REVIEW = "needs_review"
    FAILED_VALIDATION = "failed_validation"


class Unbookable(StrEnum):
    """Why an invoice cannot be exported at all."""

    NO_NUMBER = "no_invoice_number"
    NO_DATE = "no_invoice_date"
    CURRENCY = "currency_not_eur"
    NO_VAT_BREAKDOWN = "no_vat_breakdown"
    VAT_RATE = "vat_rate_not_mapped"
    SPECIAL_VAT = "reverse_charge_or_export"
    ZERO = "zero_amount"


@dataclass(frozen=True, slots=True)
class Booking:
    """One line: `amount` (positive) on `account` against `contra_account`."""

    amount: Decimal
    debit: bool  # Soll (S) on `account`, else Haben (H)
    account: int  # the customer's or supplier's account
    contra_account: int  # the revenue or expense account
    bu_key: str | None
    rate: str  # "19", "7" or "0"
    signed_amount: Decimal  # negative for a credit note: the ledger XML's `amount`


@dataclass(frozen=True, slots=True)
class Voucher:
    """An invoice as DATEV sees it: its number, date, partner and bookings."""

    number: str
    issue_date: date
    due_date: date | None
    direction: DocumentType
    partner: Party
    text: str
    bookings: tuple[Booking, ...]

    @property
    def total(self) -> Decimal:
        return sum((booking.signed_amount for booking in self.bookings), Decimal(0))


def holds(result: InvoiceResult) -> tuple[Hold, ...]:
    found: list[Hold] = []
    checks = result.checks
    if (
        (checks is not None and checks.needs_review)
        or result.direction_uncertain
        or result.direction_mismatch
    ):
        found.append(Hold.NEEDS_REVIEW)
    if result.validation is not None and not result.validation.valid:
        found.append(Hold.FAILED_VALIDATION)
    return tuple(found)


def voucher(result: InvoiceResult, settings: DatevSettings) -> Voucher | Unbookable:
    invoice = result.invoice
    if not invoice.number:
        return Unbookable.NO_NUMBER
    if invoice.issue_date is None:
        return Unbookable.NO_DATE
    if (invoice.currency or "EUR") != "EUR":
        return Unbookable.CURRENCY
    if not invoice.vat_breakdown:
        return Unbookable.NO_VAT_BREAKDOWN
    customer = result.direction is DocumentType.CUSTOMER_INVOICE
    partner = invoice.buyer if customer else invoice.seller
    bookings: list[Booking] = []
    for row in invoice.vat_breakdown:
        if (row.category_code or "").upper() in _SPECIAL_CATEGORIES:
            return Unbookable.SPECIAL_VAT
        rate = _rate_key(row.rate)
        if rate is None:
            return Unbookable.VAT_RATE
        gross = (row.taxable_amount or Decimal(0)) + (row.tax_amount or Decimal(0))
        if gross.quantize(_CENT) == 0:
            continue
        bookings.append(_booking(result, settings, rate, gross))
    if not bookings:
        return Unbookable.ZERO
    return Voucher(
        number=invoice.number,
        issue_date=invoice.issue_date,
        due_date=invoice.due_date,
        direction=result.direction,
        partner=partner,
        text=" ".join(part for part in (partner.name, invoice.number) if part),
        bookings=tuple(bookings),
    )


def _rate_key(rate: Decimal | None) -> str | None:
    if rate is None:
        return None
    key = format(rate.normalize(), "f")
    return key if key in RATES else None


def _booking(result: InvoiceResult, settings: DatevSettings, rate: str, gross: Decimal) -> Booking:
    accounts = settings.accounts
    customer = result.direction is DocumentType.CUSTOMER_INVOICE
    credit_note = result.invoice.invoice_type is InvoiceType.CREDIT_NOTE
    # A credit note's amounts are positive (EN 16931); it books the other way round.
    signed = -abs(gross) if credit_note else gross
    # A customer invoice debits the debtor (S), a supplier invoice credits the creditor (H).
    debit = customer == (signed > 0)
    automatic = accounts.automatic or rate == "0"
    return Booking(
        amount=abs(signed).quantize(_CENT),
        debit=debit,
        account=accounts.customer if customer else accounts.supplier,
        contra_account=(accounts.revenue if customer else accounts.expense)[rate],
        bu_key=None if automatic else _BU_KEYS[result.direction][rate],
        rate=rate,
        signed_amount=signed.quantize(_CENT),
    )

"""A generated invoice set for the DATEV writers' tests: supplier and customer invoices,
two VAT rates on one invoice, a credit note, text that needs quoting and characters
outside Windows-1252, and invoices the export must hold back or leave out."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from processors.base import DocumentType, FileKind
from processors.invoice_model import (
    Address,
    Invoice,
    InvoiceType,
    Party,
    Totals,
    VatBreakdown,
)
from processors.results.invoice import (
    Confidence,
    EInvoiceValidation,
    InvoiceChecks,
    InvoiceResult,
    TotalsCheck,
)
from processors.results.source import ReadMethod, Source

COMPANY = Party(name="Acme GmbH", vat_id="DE123456789")


def vat(rate: str, net: str, tax: str, category: str = "S") -> VatBreakdown:
    return VatBreakdown(category, Decimal(rate), Decimal(net), Decimal(tax))


def invoice_result(
    number: str | None,
    issued: date | None,
    partner: Party,
    rows: tuple[VatBreakdown, ...],
    *,
    direction: DocumentType = DocumentType.SUPPLIER_INVOICE,
    invoice_type: InvoiceType = InvoiceType.INVOICE,
    currency: str = "EUR",
    needs_review: bool = False,
    valid: bool | None = None,
    due: date | None = None,
) -> InvoiceResult:
    net = sum((row.taxable_amount or Decimal(0) for row in rows), Decimal(0))
    tax = sum((row.tax_amount or Decimal(0) for row in rows), Decimal(0))
    customer = direction is DocumentType.CUSTOMER_INVOICE
    invoice = Invoice(
        number=number,
        invoice_type=invoice_type,
        type_code="381" if invoice_type is InvoiceType.CREDIT_NOTE else "380",
        issue_date=issued,
        currency=currency,
        seller=COMPANY if customer else partner,
        buyer=partner if customer else COMPANY,
        totals=Totals(net=net, vat=tax, gross=net + tax, amount_due=net + tax),
        due_date=due,
        vat_breakdown=rows,
    )
    checks = None
    validation = None
    if valid is None:
        checks = InvoiceChecks(
            TotalsCheck.PASSED, "net + VAT = gross", len(rows), Confidence.HIGH, needs_review
        )
        source = Source(FileKind.PDF, method=ReadMethod.TEXT)
    else:
        validation = EInvoiceValidation("UBL", None, "EN16931", None, valid)
        source = Source(FileKind.XML)
    return InvoiceResult(
        invoice=invoice,
        direction=direction,
        direction_uncertain=False,
        direction_mismatch=False,
        direction_reason="generated",
        checks=checks,
        validation=validation,
        source=source,
    )


def supplier(name: str, city: str, vat_id: str | None = None) -> Party:
    return Party(name=name, vat_id=vat_id, address=Address(city=city, country_code="DE"))


def generated_set() -> list[InvoiceResult]:
    """Exportable invoices of January 2026, in the order they are booked."""
    return [
        invoice_result(
            "RE-2026-001",
            date(2026, 1, 5),
            supplier("Bürobedarf Müller KG", "Köln", "DE811111111"),
            (vat("19", "1000.00", "190.00"),),
            valid=True,
            due=date(2026, 2, 4),
        ),
        invoice_result(
            "2026/17",
            date(2026, 1, 12),
            supplier('Café "Zur Post" GmbH', "München"),
            (vat("19", "100.00", "19.00"), vat("7", "50.00", "3.50")),
        ),
        invoice_result(
            "AR-0042",
            date(2026, 1, 20),
            supplier("Łukasz Wąsowski Sp. z o.o.; Warszawa", "Warszawa"),
            (vat("19", "12345.67", "2345.68"),),
            direction=DocumentType.CUSTOMER_INVOICE,
        ),
        invoice_result(
            "GS 7#1",
            date(2026, 1, 31),
            supplier("Bürobedarf Müller KG", "Köln"),
            (vat("19", "100.00", "19.00"),),
            invoice_type=InvoiceType.CREDIT_NOTE,
        ),
    ]


def held_back() -> list[InvoiceResult]:
    """January invoices the export must not take without being asked: one needs review,
    one failed validation; and two it can never take (not EUR, reverse charge)."""
    partner = supplier("Lieferant AG", "Berlin")
    return [
        invoice_result(
            "R-1", date(2026, 1, 6), partner, (vat("19", "10", "1.90"),), needs_review=True
        ),
        invoice_result("R-2", date(2026, 1, 7), partner, (vat("7", "10", "0.70"),), valid=False),
        invoice_result(
            "R-3", date(2026, 1, 8), partner, (vat("19", "10", "1.90"),), currency="USD"
        ),
        invoice_result("R-4", date(2026, 1, 9), partner, (vat("0", "10", "0", category="AE"),)),
    ]

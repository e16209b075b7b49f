"""Invoices made with every mandatory item of §14 UStG, or with one of them left out:
as PDFs (fpdf2, read by the PDF reader) and as normalized invoices (what an e-invoice
is read into), for the content check's measurement (processors/invoice_content.py)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from processors.invoice_content_items import ContentItem
from processors.invoice_model import (
    Address,
    Invoice,
    InvoiceType,
    LineItem,
    Party,
    Totals,
    VatBreakdown,
)
from testkit.generated_docs import _Pdf, german_amount


@dataclass(frozen=True)
class ContentSpec:
    """One invoice: `kind` is "standard" (19 % VAT), "exempt" (§4 Nr. 14, no VAT),
    "reverse_charge" (§13b, the recipient's VAT id) or "small" (at most 250 EUR)."""

    kind: str
    without: ContentItem | None = None
    seller: str = "Beispiel Handel GmbH"
    buyer: str = "Kunde Digital KG"

    @property
    def net(self) -> Decimal:
        return Decimal("84.00") if self.kind == "small" else Decimal("1234.50")

    @property
    def rate(self) -> Decimal:
        return Decimal(0) if self.kind in ("exempt", "reverse_charge") else Decimal(19)

    @property
    def tax(self) -> Decimal:
        return (self.net * self.rate / 100).quantize(Decimal("0.01"))

    def has(self, item: ContentItem) -> bool:
        return self.without is not item


KINDS = ("standard", "exempt", "reverse_charge", "small")

# What each kind asks for (the items its verdict must not be not_applicable on).
REQUIRED: dict[str, tuple[ContentItem, ...]] = {
    "standard": (
        ContentItem.SUPPLIER,
        ContentItem.RECIPIENT,
        ContentItem.SUPPLIER_TAX_ID,
        ContentItem.ISSUE_DATE,
        ContentItem.INVOICE_NUMBER,
        ContentItem.GOODS_SERVICES,
        ContentItem.SUPPLY_DATE,
        ContentItem.NET_PER_RATE,
        ContentItem.TAX_RATE_AMOUNT,
    ),
    "exempt": (ContentItem.EXEMPTION_NOTE,),
    "reverse_charge": (ContentItem.REVERSE_CHARGE_NOTE, ContentItem.RECIPIENT_VAT_ID),
    "small": (
        ContentItem.SUPPLIER,
        ContentItem.ISSUE_DATE,
        ContentItem.GOODS_SERVICES,
        ContentItem.TAX_RATE_AMOUNT,
    ),
}

SELLER_VAT_ID = "DE136695976"
BUYER_VAT_ID = "ATU13585627"
_NOTES = {
    "exempt": "Steuerfrei nach § 4 Nr. 14 UStG (Heilbehandlung).",
    "reverse_charge": "Steuerschuldnerschaft des Leistungsempfängers (§ 13b UStG).",
}


def content_pdf(spec: ContentSpec) -> bytes:
    doc = _Pdf()
    doc.line(spec.seller)  # left out: the address, the name is seen anyway
    if spec.has(ContentItem.SUPPLIER):
        doc.line("Hauptstraße 5")
        doc.line("80331 München")
    if spec.has(ContentItem.SUPPLIER_TAX_ID):
        doc.line(f"USt-IdNr.: {SELLER_VAT_ID}")
    doc.gap()
    doc.line(spec.buyer)
    if spec.has(ContentItem.RECIPIENT):
        doc.line("Musterweg 1")
        doc.line("10115 Berlin")
    if spec.kind == "reverse_charge" and spec.has(ContentItem.RECIPIENT_VAT_ID):
        doc.line(f"Ihre USt-IdNr.: {BUYER_VAT_ID}")
    doc.gap()
    doc.line("Rechnung", bold=True)
    if spec.has(ContentItem.INVOICE_NUMBER):
        doc.line("Rechnungsnummer: RE-2024-0815")
    if spec.has(ContentItem.ISSUE_DATE):
        doc.line("Rechnungsdatum: 09.03.2024")
    if spec.has(ContentItem.SUPPLY_DATE):
        doc.line("Leistungsdatum: 05.03.2024")
    doc.gap()
    if spec.has(ContentItem.GOODS_SERVICES):
        doc.row([("Pos.", 15, "L"), ("Menge", 20, "L"), ("Bezeichnung", 80, "L")])
        doc.row([("1", 15, "L"), ("3 Stk.", 20, "L"), ("Montage Regalsystem", 80, "L")])
        doc.gap()
    _totals(doc, spec)
    note = _NOTES.get(spec.kind)
    wanted = ContentItem.REVERSE_CHARGE_NOTE if spec.kind == "reverse_charge" else None
    if note and spec.has(wanted or ContentItem.EXEMPTION_NOTE):
        doc.line(note)
    doc.line("Zahlbar bis zum 08.04.2024.")
    return doc.bytes()


def _totals(doc: _Pdf, spec: ContentSpec) -> None:
    net, tax = german_amount(spec.net), german_amount(spec.tax)
    gross = german_amount(spec.net + spec.tax)
    if spec.has(ContentItem.NET_PER_RATE) and spec.kind != "small":
        doc.line(f"Nettobetrag: {net} EUR")
    if spec.has(ContentItem.TAX_RATE_AMOUNT):
        if spec.kind == "small":
            doc.line(f"Im Betrag sind {spec.rate}% USt. enthalten.")
        else:
            doc.line(f"zzgl. USt. {spec.rate}%: {tax} EUR")
    doc.line(f"Gesamtbetrag: {gross} EUR", bold=True)


def content_invoice(spec: ContentSpec) -> Invoice:
    """The same invoice as an e-invoice is read into: the structured fields."""
    category = {"exempt": "E", "reverse_charge": "AE"}.get(spec.kind, "S")
    reason = _NOTES.get(spec.kind)
    note_item = (
        ContentItem.REVERSE_CHARGE_NOTE
        if spec.kind == "reverse_charge"
        else ContentItem.EXEMPTION_NOTE
    )
    seller = Party(
        name=spec.seller,
        address=Address(("Hauptstraße 5",), "München", "80331", country_code="DE"),
        vat_id=SELLER_VAT_ID,
    )
    buyer = Party(
        name=spec.buyer,
        address=Address(("Musterweg 1",), "Berlin", "10115", country_code="DE"),
        vat_id=BUYER_VAT_ID if spec.kind == "reverse_charge" else None,
    )
    invoice = Invoice(
        number="RE-2024-0815",
        invoice_type=InvoiceType.INVOICE,
        type_code="380",
        issue_date=date(2024, 3, 9),
        currency="EUR",
        seller=seller,
        buyer=buyer,
        totals=Totals(net=spec.net, vat=spec.tax, gross=spec.net + spec.tax),
        vat_breakdown=(
            VatBreakdown(
                category,
                spec.rate,
                spec.net,
                spec.tax,
                reason if reason and spec.has(note_item) else None,
            ),
        ),
        lines=(LineItem("1", "Montage Regalsystem", Decimal(3), "C62", net_amount=spec.net),),
    )
    return _without(invoice, spec.without)


def _without(invoice: Invoice, item: ContentItem | None) -> Invoice:
    replace = dataclasses.replace
    match item:
        case ContentItem.SUPPLIER:
            return replace(invoice, seller=replace(invoice.seller, address=None))
        case ContentItem.RECIPIENT:
            return replace(invoice, buyer=replace(invoice.buyer, address=None))
        case ContentItem.SUPPLIER_TAX_ID:
            return replace(invoice, seller=replace(invoice.seller, vat_id=None))
        case ContentItem.RECIPIENT_VAT_ID:
            return replace(invoice, buyer=replace(invoice.buyer, vat_id=None))
        case ContentItem.ISSUE_DATE:
            return replace(invoice, issue_date=None)
        case ContentItem.INVOICE_NUMBER:
            return replace(invoice, number=None)
        case ContentItem.GOODS_SERVICES:
            return replace(invoice, lines=())
        case ContentItem.NET_PER_RATE:
            rows = tuple(replace(r, taxable_amount=None) for r in invoice.vat_breakdown)
            totals = replace(invoice.totals, net=None)
            return replace(invoice, vat_breakdown=rows, totals=totals)
        case ContentItem.TAX_RATE_AMOUNT:
            rows = tuple(replace(r, rate=None) for r in invoice.vat_breakdown)
            return replace(invoice, vat_breakdown=rows)
    return invoice

"""The evidence view of an invoice read from a PDF: each field beside the page it was
read from, its box drawn on the page image (processors/results/evidence.py). The page
highlights a field's box while the field is pointed at or has the keyboard focus: by
style sheet alone (`:has()`, static/results.css), since the pages run no script."""

from __future__ import annotations

from dataclasses import dataclass

from api.web.i18n import N_
from api.web.result_views import grouped_iban, text
from processors.invoice_model import Invoice
from processors.results.evidence import A4, Confidence, EvidenceField, FieldEvidence
from processors.results.invoice import InvoiceResult

MAX_PAGES = 4
"""Pages shown with boxes; a field found further on is listed without its page."""

FIELD_LABELS: dict[EvidenceField, str] = {
    EvidenceField.NUMBER: N_("Number"),
    EvidenceField.ISSUE_DATE: N_("Issue date"),
    EvidenceField.DUE_DATE: N_("Due date"),
    EvidenceField.CURRENCY: N_("Currency"),
    EvidenceField.SELLER_NAME: N_("Seller"),
    EvidenceField.SELLER_VAT_ID: N_("Seller's VAT id"),
    EvidenceField.BUYER_NAME: N_("Buyer"),
    EvidenceField.NET_TOTAL: N_("Net amount"),
    EvidenceField.VAT_TOTAL: N_("VAT"),
    EvidenceField.GROSS_TOTAL: N_("Gross amount"),
    EvidenceField.AMOUNT_DUE: N_("Amount due"),
    EvidenceField.PAYEE_IBAN: N_("IBAN"),
}
_KINDS = {
    EvidenceField.ISSUE_DATE: "date",
    EvidenceField.DUE_DATE: "date",
    EvidenceField.NET_TOTAL: "amount",
    EvidenceField.VAT_TOTAL: "amount",
    EvidenceField.GROSS_TOTAL: "amount",
    EvidenceField.AMOUNT_DUE: "amount",
}


@dataclass(frozen=True)
class EvidenceFieldView:
    field: str
    label: str
    value: str | None
    page: int
    x: float
    y: float
    width: float
    height: float
    low: bool
    reason: str | None
    kind: str  # "date", "amount" or "text": how the page formats the value

    @property
    def box_data(self) -> str:
        """`x0,y0,x1,y1` in points from the page's top-left (the stored box)."""
        return f"{self.x:g},{self.y:g},{self.x + self.width:g},{self.y + self.height:g}"


@dataclass(frozen=True)
class EvidencePageView:
    number: int
    image_url: str
    width: float
    height: float
    boxes: tuple[EvidenceFieldView, ...]


@dataclass(frozen=True)
class EvidenceView:
    fields: tuple[EvidenceFieldView, ...]
    pages: tuple[EvidencePageView, ...]

    @property
    def low_count(self) -> int:
        return sum(field.low for field in self.fields)

    @property
    def shown_pages(self) -> frozenset[int]:
        return frozenset(page.number for page in self.pages)


def evidence_view(result: InvoiceResult, invoice_url: str) -> EvidenceView | None:
    """None for an invoice without evidence (an e-invoice, a result read before it)."""
    if not result.evidence:
        return None
    order = list(EvidenceField)
    ordered = sorted(result.evidence, key=lambda item: order.index(item.field))
    fields = tuple(_field(item, result.invoice) for item in ordered)
    sizes = {item.page: item.page_size or A4 for item in ordered}
    pages = tuple(
        EvidencePageView(
            number,
            f"{invoice_url}/pages/{number}.png",
            round(sizes[number].width, 1),
            round(sizes[number].height, 1),
            tuple(field for field in fields if field.page == number),
        )
        for number in sorted(sizes)[:MAX_PAGES]
    )
    return EvidenceView(fields, pages)


def _field(item: FieldEvidence, invoice: Invoice) -> EvidenceFieldView:
    box = item.box.rounded()
    return EvidenceFieldView(
        field=item.field.value,
        label=FIELD_LABELS[item.field],
        value=field_value(invoice, item.field),
        page=item.page,
        x=box.x0,
        y=box.y0,
        width=round(box.width, 1),
        height=round(box.height, 1),
        low=item.confidence is Confidence.LOW,
        reason=text(item.reason),
        kind=_KINDS.get(item.field, "text"),
    )


def field_value(invoice: Invoice, field: EvidenceField) -> str | None:
    """The invoice's value of `field` as the page shows it elsewhere."""
    totals, means = invoice.totals, invoice.payment_means
    values = {
        EvidenceField.NUMBER: invoice.number,
        EvidenceField.ISSUE_DATE: invoice.issue_date,
        EvidenceField.DUE_DATE: invoice.due_date,
        EvidenceField.CURRENCY: invoice.currency,
        EvidenceField.SELLER_NAME: invoice.seller.name,
        EvidenceField.SELLER_VAT_ID: invoice.seller.vat_id,
        EvidenceField.BUYER_NAME: invoice.buyer.name,
        EvidenceField.NET_TOTAL: totals.net,
        EvidenceField.VAT_TOTAL: totals.vat,
        EvidenceField.GROSS_TOTAL: totals.gross,
        EvidenceField.AMOUNT_DUE: totals.amount_due,
    }
    if field is EvidenceField.PAYEE_IBAN:
        return grouped_iban(means[0].payee_iban) if means else None
    return text(values[field])

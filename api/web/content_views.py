"""The invoice page's check of the mandatory items of §14 UStG / §33 UStDV
(processors/invoice_content.py): one row per item, its verdict and where it was found,
in the page's language from the items' data (processors/invoice_content_items.py)."""

from __future__ import annotations

from dataclasses import dataclass

from api.web.i18n import N_
from processors.invoice_content import ContentCheck, ContentRegime, ItemStatus
from processors.invoice_content_items import ITEMS
from processors.results.invoice import InvoiceResult

STATUS_LABELS = {
    ItemStatus.PRESENT: N_("present"),
    ItemStatus.MISSING: N_("missing"),
    ItemStatus.NOT_DETERMINABLE: N_("not determinable"),
    ItemStatus.NOT_APPLICABLE: N_("not applicable"),
    ItemStatus.NOT_REQUIRED: N_("not required up to 250 EUR"),
}
STATUS_FLAGS = {
    ItemStatus.PRESENT: "flag-ok",
    ItemStatus.MISSING: "flag-bad",
    ItemStatus.NOT_DETERMINABLE: "flag-warn",
}


@dataclass(frozen=True)
class ContentItemView:
    name_en: str
    name_de: str
    ask_en: str
    ask_de: str
    reference: str
    status: str
    status_label: str
    flag: str
    where: str | None


@dataclass(frozen=True)
class ContentCheckView:
    small_invoice: bool
    missing: int
    unsure: int
    items: tuple[ContentItemView, ...]


def content_check_view(result: InvoiceResult) -> ContentCheckView | None:
    """None for results stored before the check: a PDF's check needs its text, which
    is not stored, and an e-invoice's its XML's supply date."""
    return _view(result.content_check) if result.content_check is not None else None


def _view(check: ContentCheck) -> ContentCheckView:
    items = tuple(
        ContentItemView(
            name_en=ITEMS[v.item].name_en,
            name_de=ITEMS[v.item].name_de,
            ask_en=ITEMS[v.item].missing_en,
            ask_de=ITEMS[v.item].missing_de,
            reference=v.reference,
            status=v.status.value,
            status_label=STATUS_LABELS[v.status],
            flag=STATUS_FLAGS.get(v.status, ""),
            where=v.where,
        )
        for v in check.items
    )
    return ContentCheckView(
        small_invoice=check.regime is ContentRegime.SMALL,
        missing=sum(1 for v in check.items if v.status is ItemStatus.MISSING),
        unsure=sum(1 for v in check.items if v.status is ItemStatus.NOT_DETERMINABLE),
        items=items,
    )

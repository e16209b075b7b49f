"""The invoice page's view of a hybrid PDF checked against itself: per field, the value
of the embedded XML beside what the visible PDF prints (processors/results/hybrid.py)."""

from __future__ import annotations

from dataclasses import dataclass

from api.web.i18n import N_
from processors.results.hybrid import Agreement, HybridCheck, HybridField

FIELD_LABELS = {
    HybridField.INVOICE_NUMBER: N_("Invoice number"),
    HybridField.ISSUE_DATE: N_("Issue date"),
    HybridField.GROSS_TOTAL: N_("Gross amount"),
    HybridField.AMOUNT_DUE: N_("Amount due"),
    HybridField.IBAN: N_("IBAN"),
}
# How a field's stored text is shown: an ISO date or a decimal, in the page's format.
FIELD_KINDS = {
    HybridField.ISSUE_DATE: "date",
    HybridField.GROSS_TOTAL: "amount",
    HybridField.AMOUNT_DUE: "amount",
}
AGREEMENT_LABELS = {
    Agreement.AGREES: N_("same"),
    Agreement.DISAGREES: N_("differs"),
    Agreement.NOT_FOUND: N_("not printed"),
}


@dataclass(frozen=True)
class HybridFieldView:
    label: str  # msgids, translated on the page
    agreement: str  # the Agreement's value, for the page's flag class
    agreement_label: str
    xml_value: str
    text_value: str | None
    kind: str = "text"  # "date", "amount" or "text" (FIELD_KINDS)


@dataclass(frozen=True)
class HybridView:
    fields: tuple[HybridFieldView, ...]
    mismatches: tuple[str, ...]  # labels of the fields that differ

    @property
    def flagged(self) -> bool:
        return bool(self.mismatches)


def hybrid_view(check: HybridCheck | None) -> HybridView | None:
    """None for invoices that are no hybrid PDF."""
    if check is None:
        return None
    fields = tuple(
        HybridFieldView(
            label=FIELD_LABELS[compared.field],
            agreement=compared.agreement.value,
            agreement_label=AGREEMENT_LABELS[compared.agreement],
            xml_value=compared.xml_value,
            text_value=compared.text_value,
            kind=FIELD_KINDS.get(compared.field, "text"),
        )
        for compared in check.fields
    )
    return HybridView(fields, tuple(FIELD_LABELS[field] for field in check.mismatches))

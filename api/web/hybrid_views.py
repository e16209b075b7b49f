"""The invoice page's view of a hybrid PDF checked against itself: per field, the value
of the embedded XML beside what the visible PDF prints (processors/results/hybrid.py)."""

from __future__ import annotations

from dataclasses import dataclass

from processors.results.hybrid import Agreement, HybridCheck, HybridField

FIELD_LABELS = {
    HybridField.INVOICE_NUMBER: "Invoice number",
    HybridField.ISSUE_DATE: "Issue date",
    HybridField.GROSS_TOTAL: "Gross amount",
    HybridField.AMOUNT_DUE: "Amount due",
    HybridField.IBAN: "IBAN",
}
AGREEMENT_LABELS = {
    Agreement.AGREES: "same",
    Agreement.DISAGREES: "differs",
    Agreement.NOT_FOUND: "not printed",
}


@dataclass(frozen=True)
class HybridFieldView:
    label: str
    agreement: str  # the Agreement's value, for the page's flag class
    agreement_label: str
    xml_value: str
    text_value: str | None


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
        )
        for compared in check.fields
    )
    return HybridView(fields, tuple(FIELD_LABELS[field] for field in check.mismatches))

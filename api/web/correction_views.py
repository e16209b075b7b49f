"""What the invoice page shows of its corrections: the form's fields, each corrected
field with its value now and as extracted, and the trail of every correction."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from api.web.i18n import N_
from storage.correction_fields import FIELDS, value_of
from storage.repositories.invoice_corrections import Correction, is_e_invoice, original_values

FIELD_LABELS = {
    "number": N_("Invoice number"),
    "issue_date": N_("Issue date"),
    "due_date": N_("Due date"),
    "seller_name": N_("Seller name"),
    "seller_vat_id": N_("Seller VAT id"),
    "buyer_name": N_("Buyer name"),
    "buyer_vat_id": N_("Buyer VAT id"),
    "net": N_("Net total"),
    "vat": N_("VAT total"),
    "gross": N_("Gross total"),
    "amount_due": N_("Amount due"),
    "iban": N_("IBAN"),
}
assert set(FIELD_LABELS) == set(FIELDS)


@dataclass(frozen=True, slots=True)
class CorrectedField:
    field: str
    label: str
    value: str | None
    original: str | None


@dataclass(frozen=True, slots=True)
class CorrectionStep:
    label: str
    old: str | None
    new: str | None
    by: str | None
    at: datetime


@dataclass(frozen=True, slots=True)
class CorrectionsView:
    correctable: bool  # a PDF invoice; an e-invoice's XML is the original
    fields: tuple[tuple[str, str, str], ...]  # (field, label, value now) for the form
    corrected: tuple[CorrectedField, ...]
    steps: tuple[CorrectionStep, ...]  # newest first


def corrections_view(
    stored: dict[str, Any], now: dict[str, Any], steps: list[Correction]
) -> CorrectionsView:
    """`stored` is the data as extracted, `now` with the corrections applied."""
    originals = original_values(steps)
    corrected = tuple(
        CorrectedField(field, FIELD_LABELS[field], value_of(now, field), original)
        for field, original in originals.items()
    )
    fields = tuple(
        (field, label, value_of(now, field) or "") for field, label in FIELD_LABELS.items()
    )
    return CorrectionsView(
        correctable=not is_e_invoice(stored),
        fields=fields,
        corrected=corrected,
        steps=tuple(
            CorrectionStep(FIELD_LABELS[s.field], s.old, s.new, s.by, s.at) for s in reversed(steps)
        ),
    )

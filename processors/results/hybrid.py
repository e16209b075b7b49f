"""A hybrid invoice checked against itself (processors/einvoice/hybrid_check.py): per
field, whether the embedded XML's value is what the visible PDF prints. Stored with an
invoice result as `hybridCheck`; `mismatches` lists the fields that disagree."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum


class HybridField(StrEnum):
    INVOICE_NUMBER = "invoice_number"
    ISSUE_DATE = "issue_date"
    GROSS_TOTAL = "gross_total"
    AMOUNT_DUE = "amount_due"
    IBAN = "iban"


class Agreement(StrEnum):
    AGREES = "agrees"
    DISAGREES = "disagrees"
    NOT_FOUND = "not_found"  # the text does not print it (nor a conflicting value)


@dataclass(frozen=True, slots=True)
class FieldComparison:
    field: HybridField
    agreement: Agreement
    xml_value: str
    text_value: str | None = None
    """The value the text prints instead, when the field disagrees."""


@dataclass(frozen=True, slots=True)
class HybridCheck:
    fields: tuple[FieldComparison, ...]
    mismatches: tuple[HybridField, ...]
    """The fields that disagree, stored apart so a query needs not read `fields`."""

    @classmethod
    def of(cls, fields: Iterable[FieldComparison]) -> HybridCheck:
        compared = tuple(fields)
        disagree = tuple(f.field for f in compared if f.agreement is Agreement.DISAGREES)
        return cls(compared, disagree)

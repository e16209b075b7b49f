"""An invoice's result: the normalized invoice (processors/invoice_model.py), which way
it goes for the company, and how it was read: an e-invoice with its validation report,
or a PDF's text with the classifier's score and the checks of what was found."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from processors.base import DocumentType, ResultType
from processors.invoice_content import ContentCheck, content_check
from processors.invoice_model import DirectionDecision, Invoice
from processors.json_fields import OMITTED_WHEN_NONE, from_json, to_json
from processors.results.evidence import (
    Confidence,
    EvidenceField,
    FieldEvidence,
    evidence_by_field,
)
from processors.results.findings import Finding
from processors.results.hybrid import HybridCheck
from processors.results.source import Source
from processors.results.versions import check_version
from processors.tax_ids import TaxIdCheck, tax_id_checks


class TotalsCheck(StrEnum):
    PASSED = "passed"  # net + VAT = gross
    FAILED = "failed"
    INCOMPLETE = "incomplete"  # a total was not found


@dataclass(frozen=True, slots=True)
class TextClassification:
    """Why a PDF's text was taken for an invoice (processors/pdf_invoices/classify.py)."""

    score: int
    signals: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class InvoiceChecks:
    """What to double-check on an invoice read from a PDF's text."""

    totals: TotalsCheck
    totals_explained: str
    vat_breakdown_rows: int
    confidence: Confidence
    needs_review: bool
    ocr: str | None = field(default=None, metadata=OMITTED_WHEN_NONE)  # "low_confidence"
    # Older results carry no template flag.
    template: bool | None = field(default=None, metadata=OMITTED_WHEN_NONE)
    placeholders: tuple[str, ...] | None = field(default=None, metadata=OMITTED_WHEN_NONE)


@dataclass(frozen=True, slots=True)
class EInvoiceValidation:
    syntax: str
    specification_id: str | None
    profile: str
    scenario: str | None
    valid: bool
    findings: tuple[Finding, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class InvoiceResult:
    """Stored as `invoice`, the four direction keys, how it was read (a PDF's text:
    classification and checks; an e-invoice: validation; a hybrid PDF also the check of
    its XML against its text), the check of its tax ids and of its mandatory items, and
    the source."""

    RESULT_TYPE: ClassVar[ResultType] = ResultType.INVOICE
    VERSION: ClassVar[int] = 1

    invoice: Invoice
    direction: DocumentType  # SUPPLIER_INVOICE or CUSTOMER_INVOICE
    direction_uncertain: bool
    direction_mismatch: bool
    direction_reason: str
    classification: TextClassification | None = field(default=None, metadata=OMITTED_WHEN_NONE)
    checks: InvoiceChecks | None = field(default=None, metadata=OMITTED_WHEN_NONE)
    validation: EInvoiceValidation | None = field(default=None, metadata=OMITTED_WHEN_NONE)
    # A PDF with an embedded e-invoice: its XML against its visible text.
    hybrid_check: HybridCheck | None = field(default=None, metadata=OMITTED_WHEN_NONE)
    # The parties' VAT ids and German tax numbers, checked offline (processors/tax_ids.py);
    # left out when they carry none, and in results stored before the check.
    tax_ids: tuple[TaxIdCheck, ...] | None = field(default=None, metadata=OMITTED_WHEN_NONE)
    # The mandatory items of §14 UStG / §33 UStDV (processors/invoice_content.py); left
    # out in results stored before the check.
    content_check: ContentCheck | None = field(default=None, metadata=OMITTED_WHEN_NONE)
    source: Source
    # Where each field was printed on a PDF (processors/results/evidence.py); results
    # read before issue 36, and e-invoices, carry none.
    evidence: tuple[FieldEvidence, ...] | None = field(default=None, metadata=OMITTED_WHEN_NONE)

    @classmethod
    def of(
        cls,
        invoice: Invoice,
        decision: DirectionDecision,
        source: Source,
        *,
        classification: TextClassification | None = None,
        checks: InvoiceChecks | None = None,
        validation: EInvoiceValidation | None = None,
        evidence: tuple[FieldEvidence, ...] | None = None,
        text: str | None = None,
        delivery_terms: tuple[str, ...] = (),
    ) -> InvoiceResult:
        """`text`: a PDF's text, for the content check (not stored); `delivery_terms`:
        an e-invoice's business terms of the supply date (BT-72, BG-14)."""
        return cls(
            invoice=invoice,
            direction=decision.direction,
            direction_uncertain=decision.uncertain,
            direction_mismatch=decision.mismatch,
            direction_reason=decision.reason,
            classification=classification,
            checks=checks,
            validation=validation,
            tax_ids=tax_id_checks(invoice),
            content_check=content_check(
                invoice, text, {e.field.value: e.page for e in evidence or ()}, delivery_terms
            ),
            source=source,
            evidence=evidence,
        )

    @property
    def evidence_by_field(self) -> Mapping[EvidenceField, FieldEvidence]:
        return evidence_by_field(self.evidence)

    def to_dict(self) -> dict[str, Any]:
        result = to_json(self)
        assert isinstance(result, dict)
        return result

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> InvoiceResult:
        check_version(cls, data)
        return from_json(cls, data)

"""The errors that carry validation findings (the findings themselves:
processors/results/findings.py, stored with a result too)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from processors.base import Declined, FailureCode, ProcessingError
from processors.einvoice.business_terms import explained, first_term_label
from processors.results.findings import Finding, Level

__all__ = [
    "Finding",
    "InvalidEInvoiceError",
    "Level",
    "NotAnEInvoiceError",
    "failing",
    "failure_message",
]


class InvalidEInvoiceError(ProcessingError):
    """The e-invoice failed validation; `findings` has every finding, warnings too."""

    def __init__(
        self,
        findings: Iterable[Finding],
        summary: str | None = None,
        read: Mapping[str, Any] | None = None,
    ) -> None:
        """`read`: what could be read of the invoice despite the findings (parties,
        number, dates, totals; the invoice JSON of a result), kept with the failure so
        the accountant sees whom to ask for a correction (issue 43)."""
        self.findings: tuple[Finding, ...] = tuple(explained(finding) for finding in findings)
        details: dict[str, Any] = {"findings": [finding.to_dict() for finding in self.findings]}
        if read:
            details["invoice"] = dict(read)
        super().__init__(
            FailureCode.INVALID_E_INVOICE, summary or failure_message(self.findings), details
        )


class NotAnEInvoiceError(Declined):
    """The file carries no e-invoice (a PDF without embedded invoice XML).

    Not a document failure: the registry hands such a file to the next processor.
    """


def failing(findings: Iterable[Finding]) -> list[Finding]:
    return [f for f in findings if f.level.fails]


def failure_message(findings: Iterable[Finding], shown: int = 5) -> str:
    failed = failing(findings)
    ids: list[str] = []
    for finding in failed:
        if finding.rule_id not in ids:
            ids.append(finding.rule_id)
    if not ids:
        return "The e-invoice failed validation."
    more = f" and {len(ids) - shown} more" if len(ids) > shown else ""
    first = failed[0]
    concerns = first_term_label(first.business_terms)
    return (
        f"The e-invoice failed validation: {', '.join(ids[:shown])}{more}. "
        f"First: {concerns + ': ' if concerns else ''}[{first.rule_id}] {first.text}"
    )

"""Validation findings and the errors that carry them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from processors.base import Declined, FailureCode, ProcessingError


class Level(StrEnum):
    FATAL = "fatal"  # XSD errors, unreadable structure, unknown profile
    ERROR = "error"
    WARNING = "warning"
    INFORMATION = "information"

    @property
    def fails(self) -> bool:
        return self in (Level.FATAL, Level.ERROR)


@dataclass(frozen=True, slots=True)
class Finding:
    rule_id: str
    level: Level
    text: str
    location: str | None = None
    stage: str = ""  # which artefact reported it: "xsd:...", "schematron:..."

    def to_dict(self) -> dict[str, str | None]:
        return {
            "id": self.rule_id,
            "level": str(self.level),
            "text": self.text,
            "location": self.location,
            "stage": self.stage,
        }


class InvalidEInvoiceError(ProcessingError):
    """The e-invoice failed validation; `findings` has every finding, warnings too."""

    def __init__(self, findings: Iterable[Finding], summary: str | None = None) -> None:
        self.findings: tuple[Finding, ...] = tuple(findings)
        super().__init__(
            FailureCode.INVALID_E_INVOICE,
            summary or failure_message(self.findings),
            {"findings": [finding.to_dict() for finding in self.findings]},
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
    return (
        f"The e-invoice failed validation: {', '.join(ids[:shown])}{more}. "
        f"First: [{first.rule_id}] {first.text}"
    )

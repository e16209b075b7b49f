"""Validation findings grouped by the business term they concern, for the result pages.

A finding belongs to the group of its first business term (the one its explanation is
about: `processors/einvoice/business_terms.py`); findings that name none share one group
at the end of their level. Groups that hold a failing finding come first, worst level
first, then the order the validator reported them in.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from processors.einvoice.business_terms import term

LEVEL_ORDER = ("fatal", "error", "warning", "information")
NO_TERM_EN = "No business term (file structure)"
NO_TERM_DE = "Kein Geschäftsbegriff (Dateiaufbau)"


class GroupedFinding(Protocol):
    @property
    def level(self) -> str: ...

    @property
    def business_terms(self) -> Sequence[str]: ...


F = TypeVar("F", bound=GroupedFinding)


@dataclass(frozen=True)
class FindingGroup(Generic[F]):
    term_id: str | None
    label_en: str
    label_de: str
    level: str  # the worst level among the findings
    findings: tuple[F, ...]

    @property
    def fails(self) -> bool:
        return self.level in ("fatal", "error")


def level_rank(level: str) -> int:
    return LEVEL_ORDER.index(level) if level in LEVEL_ORDER else len(LEVEL_ORDER)


def group_by_term(findings: Iterable[F]) -> list[FindingGroup[F]]:
    members: dict[str | None, list[F]] = {}
    for finding in findings:
        key = next(iter(finding.business_terms), None)
        members.setdefault(key, []).append(finding)
    groups = [_group(key, found) for key, found in members.items()]
    order = {key: index for index, key in enumerate(members)}
    return sorted(
        groups,
        key=lambda group: (level_rank(group.level), group.term_id is None, order[group.term_id]),
    )


def _group(key: str | None, found: list[F]) -> FindingGroup[F]:
    ordered = tuple(sorted(found, key=lambda finding: level_rank(finding.level)))
    known = term(key) if key is not None else None
    label_en = known.label("en") if known else (key or NO_TERM_EN)
    label_de = known.label("de") if known else (key or NO_TERM_DE)
    return FindingGroup(key, label_en, label_de, ordered[0].level, ordered)

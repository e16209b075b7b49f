"""Findings grouped by business term for the result pages: errors first, findings
without a term last within their level, each group worst level first."""

from __future__ import annotations

from dataclasses import dataclass

from api.web.finding_groups import NO_TERM_EN, group_by_term


@dataclass(frozen=True)
class Seen:
    rule_id: str
    level: str
    business_terms: tuple[str, ...]


def test_groups_by_first_term_failing_groups_first() -> None:
    findings = [
        Seen("CII-SR-001", "warning", ()),
        Seen("BR-CO-15", "warning", ("BT-112", "BT-109")),
        Seen("BR-01", "fatal", ("BT-24",)),
        Seen("BR-CO-16", "error", ("BT-112",)),
        Seen("UBL-CR-005", "warning", ()),
        Seen("XSD", "fatal", ()),
    ]
    groups = group_by_term(findings)
    assert [group.term_id for group in groups] == ["BT-24", None, "BT-112"]
    total = groups[2]
    assert total.level == "error" and total.fails
    assert total.label_en == "Invoice total amount with VAT (BT-112)"
    assert total.label_de == "Gesamtbetrag der Rechnung mit Umsatzsteuer (BT-112)"
    assert [finding.rule_id for finding in total.findings] == ["BR-CO-16", "BR-CO-15"]
    no_term = groups[1]
    assert no_term.label_en == NO_TERM_EN
    assert no_term.findings[0].rule_id == "XSD"  # the failing one first


def test_warnings_only_come_after_every_failing_group() -> None:
    groups = group_by_term(
        [
            Seen("A", "warning", ("BT-1",)),
            Seen("B", "information", ("BT-2",)),
            Seen("C", "error", ("BG-23",)),
        ]
    )
    assert [group.term_id for group in groups] == ["BG-23", "BT-1", "BT-2"]
    assert not groups[1].fails

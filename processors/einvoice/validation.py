"""Run a validation plan: XML Schema, then schematron stylesheets; collect findings.

A stylesheet that raised a dynamic error on the invoice gives one error finding
(`stylesheet_errors.py`) in place of its report. Every finding carries the business terms
it concerns and its explanation (`business_terms.py`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

from lxml import etree

from processors.einvoice import rules
from processors.einvoice.business_terms import explained
from processors.einvoice.findings import Finding, Level
from processors.einvoice.profiles import CODE_LISTS_CHECKED_ELSEWHERE, ValidationPlan
from processors.einvoice.stylesheet_errors import stylesheet_error_finding
from processors.xmlsafe import parse_xml

SVRL_NS = "http://purl.oclc.org/dsdl/svrl"
_SVRL_RESULTS = f"{{{SVRL_NS}}}failed-assert", f"{{{SVRL_NS}}}successful-report"
_FLAG_LEVELS: Mapping[str, Level] = {
    "fatal": Level.ERROR,
    "error": Level.ERROR,
    "warning": Level.WARNING,
    "information": Level.INFORMATION,
    "info": Level.INFORMATION,
}


def validate(
    tree: etree._ElementTree, plan: ValidationPlan, rules_root: Path | None = None
) -> list[Finding]:
    findings: list[Finding] = []
    for schema in plan.schemas:
        findings.extend(schema_findings(tree, rules.artefact(schema, rules_root), schema))
    if plan.schematrons:
        paths = [rules.artefact(name, rules_root) for name in plan.schematrons]
        document = etree.tostring(tree.getroot(), encoding="unicode")
        for name, report in zip(
            plan.schematrons, rules.run_stylesheets(paths, document), strict=True
        ):
            findings.extend(_report_findings(report, f"schematron:{Path(name).name}", plan))
    return findings


def _report_findings(report: str, stage: str, plan: ValidationPlan) -> list[Finding]:
    root = parse_xml(report.encode("utf-8")).getroot()
    if root.tag == rules.STYLESHEET_ERROR:
        return [explained(stylesheet_error_finding(root, stage))]
    return _svrl_root_findings(root, stage, plan.level_overrides, plan.warning_prefixes)


def schema_findings(tree: etree._ElementTree, xsd: Path, name: str) -> list[Finding]:
    schema = rules.xml_schema(xsd)
    if schema.validate(tree):
        return []
    lenient_codes = name in CODE_LISTS_CHECKED_ELSEWHERE
    root_name = etree.QName(tree.getroot()).localname
    return [
        explained(
            Finding(
                rule_id="XSD",
                level=Level.WARNING
                if lenient_codes and error.type_name == _ENUMERATION_ERROR
                else Level.FATAL,
                text=error.message,
                location=f"line {error.line}, column {error.column}",
                stage=f"xsd:{Path(name).name}",
            ),
            _schema_error_path(error.path, root_name),
        )
        for error in cast("list[Any]", schema.error_log)
    ]


def _schema_error_path(path: str | None, root_name: str) -> str | None:
    """libxml2 writes an element in the default namespace as `*`: the root of a UBL
    invoice reads `/*`, which names no syntax; put the root's name back."""
    if not path:
        return None
    return f"/{root_name}{path[2:]}" if path == "/*" or path.startswith("/*/") else path


_ENUMERATION_ERROR = "SCHEMAV_CVC_ENUMERATION_VALID"


def svrl_findings(
    report: str,
    stage: str,
    overrides: Mapping[str, Level],
    warning_prefixes: tuple[str, ...] = (),
) -> list[Finding]:
    root = parse_xml(report.encode("utf-8")).getroot()
    return _svrl_root_findings(root, stage, overrides, warning_prefixes)


def _svrl_root_findings(
    root: etree._Element,
    stage: str,
    overrides: Mapping[str, Level],
    warning_prefixes: tuple[str, ...],
) -> list[Finding]:
    findings = []
    for element in root.iter(*_SVRL_RESULTS):
        rule_id = element.get("id") or NO_RULE_ID
        text = " ".join("".join(str(part) for part in element.itertext()).split())
        level = _level(element.get("flag"), rule_id, overrides, warning_prefixes)
        findings.append(explained(Finding(rule_id, level, text, element.get("location"), stage)))
    return findings


NO_RULE_ID = "(no id)"


def _level(
    flag: str | None,
    rule_id: str,
    overrides: Mapping[str, Level],
    warning_prefixes: tuple[str, ...],
) -> Level:
    if rule_id in overrides:
        return overrides[rule_id]
    if rule_id == NO_RULE_ID or rule_id.startswith(warning_prefixes or ("\0",)):
        # Factur-X's generated stylesheets flag elements outside the profile with id-less
        # asserts ("... is marked as not used in the given context"). Receivers ignore such
        # elements, so they are reported but do not fail the invoice (as Mustang does).
        return Level.WARNING
    return _FLAG_LEVELS.get((flag or "error").lower(), Level.ERROR)

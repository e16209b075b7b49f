"""Every rule the pinned schematron stylesheets can report: its id, text and where it looks.

Read from the compiled stylesheets themselves (KoSIT's SchXslt output and Factur-X's
ISO skeleton output), for `scripts/build_business_terms.py` and the tests that check the
business-term data covers every rule. Not used while validating.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from processors.einvoice import rules
from processors.einvoice.profiles import every_artefact
from processors.xmlsafe import make_parser

SVRL_NS = "http://purl.oclc.org/dsdl/svrl"
XSL_NS = "http://www.w3.org/1999/XSL/Transform"
SCHXSLT_NS = "https://doi.org/10.5281/zenodo.1495494"
_ASSERTS = (f"{{{SVRL_NS}}}failed-assert", f"{{{SVRL_NS}}}successful-report")
NO_RULE_ID = "(no id)"  # as processors/einvoice/validation.py reports an id-less assert


@dataclass(frozen=True, slots=True)
class RuleAssert:
    rule_id: str
    text: str  # the assert's static text, whitespace collapsed
    context: str  # the XPath the rule fires on
    test: str  # the assert's test expression
    stylesheet: str  # path relative to the rules root

    @property
    def syntax(self) -> str:
        """ "ubl" or "cii": which syntax's element names the context and test use."""
        return "ubl" if "UBL" in Path(self.stylesheet).name else "cii"


def stylesheet_names() -> tuple[str, ...]:
    """The schematron stylesheets a validation plan may run (relative to the rules root)."""
    return tuple(name for name in every_artefact() if name.endswith((".xsl", ".xslt")))


def rule_asserts(rules_root: Path | None = None) -> Iterator[RuleAssert]:
    for name in stylesheet_names():
        path = rules.artefact(name, rules_root)
        tree = etree.parse(str(path), parser=make_parser())
        for element in tree.iter(*_ASSERTS):
            yield RuleAssert(
                rule_id=_rule_id(element),
                text=_text(element),
                context=_context(element),
                test=_test(element),
                stylesheet=name,
            )


def _rule_id(element: etree._Element) -> str:
    value = element.get("id")
    if value is None:
        value = _xsl_attribute(element, "id")
    return value.strip() if value and value.strip() else NO_RULE_ID


def _xsl_attribute(element: etree._Element, name: str) -> str | None:
    for child in element.iterchildren(f"{{{XSL_NS}}}attribute"):
        if child.get("name") == name:
            return "".join(str(part) for part in child.itertext())
    return None


def _text(element: etree._Element) -> str:
    text = element.find(f"{{{SVRL_NS}}}text")
    return (
        " ".join("".join(str(part) for part in text.itertext()).split()) if text is not None else ""
    )


def _test(element: etree._Element) -> str:
    return element.get("test") or _xsl_attribute(element, "test") or ""


def _context(element: etree._Element) -> str:
    """The rule context: SchXslt names it in the fired-rule of the enclosing rule; the
    ISO skeleton's output matches it with the enclosing template."""
    for ancestor in element.iterancestors():
        if ancestor.tag == f"{{{SCHXSLT_NS}}}rule":
            fired = ancestor.find(f"{{{SVRL_NS}}}fired-rule")
            if fired is not None:
                return _xsl_attribute(fired, "context") or fired.get("context") or ""
        if ancestor.tag == f"{{{XSL_NS}}}template" and ancestor.get("match"):
            return ancestor.get("match") or ""
    return ""


BRACKETED_ID = re.compile(r"^\s*\[([A-Za-z][\w.-]*)\]")


def bracketed_id(text: str) -> str | None:
    """The rule id a text starts with ("[BR-45]-Each VAT breakdown ..." -> "BR-45")."""
    match = BRACKETED_ID.match(text)
    return match.group(1) if match else None

"""A dynamic error inside an official stylesheet, as a finding an accountant can act on.

Some invoices make an official schematron stylesheet raise an error instead of
reporting: CII allows an amount such as BT-106 twice (in the invoice currency and in
another), and EN 16931's BR-CO-10 casts "the" amount to a decimal, which fails on two.
`rules.run_stylesheets` catches such an error in place (`xsl:try`) and returns a
`stylesheet-error` report; this module turns it into one finding.

Decision (docs/realworld.md): the invoice fails `invalid_e_invoice`, not
`processing_failed`. Retrying cannot help, and an invoice whose conformance the official
rules cannot establish cannot be accepted as valid. The finding names the rule whose
test could not be evaluated, what the rule says, the stylesheet and its line, and
Saxon's error, so the sender knows which data to correct.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse

from lxml import etree

from processors.einvoice.findings import Finding, Level
from processors.xmlsafe import make_parser

STYLESHEET_ERROR = "STYLESHEET-ERROR"
_XSL = "http://www.w3.org/1999/XSL/Transform"
_SVRL = "http://purl.oclc.org/dsdl/svrl"
_NAMESPACES = {"xsl": _XSL, "svrl": _SVRL}
_ASSERTION = "self::svrl:failed-assert or self::svrl:successful-report"
_ID_PREFIX = re.compile(r"^\[[^\]]*\]\s*-?\s*")
_TESTS = frozenset({f"{{{_XSL}}}if", f"{{{_XSL}}}when"})
# What an error code means in an invoice, for the reader of the finding.
_CAUSES = {
    "XPTY0004": "an element the rule expects once occurs more than once (for example an "
    "amount given again in another currency), or has a value of the wrong type",
    "FORG0001": "a value is not in the form the rule expects (for example a number with a "
    "decimal comma, or an empty amount)",
    "FOAR0001": "the rule divides by zero",
}


@dataclass(frozen=True, slots=True)
class _Place:
    """What in the stylesheet could not be evaluated, and its rule's context."""

    what: str
    context: str | None = None


_UNKNOWN_PLACE = _Place("A rule of the official stylesheet")


def stylesheet_error_finding(report: etree._Element, stage: str) -> Finding:
    """The finding for a `stylesheet-error` report of `rules.run_stylesheets`."""
    code = (report.get("code") or "").rpartition(":")[2]
    description = " ".join((report.get("description") or "").split())
    module = _module_path(report.get("module") or "")
    line = _line(report.get("line"))
    place = _UNKNOWN_PLACE
    if module is not None and line is not None:
        place = _place_at(module, line)
    where = module.name if module is not None else "the stylesheet"
    where += f", line {line}" if line is not None else ""
    cause = _CAUSES.get(code)
    text = (
        f"{place.what} could not be evaluated on this invoice: "
        f"{cause + '. ' if cause else ''}Saxon: {description}{f' [{code}]' if code else ''} "
        f"({where}). The stylesheet stopped there, so its other rules were not checked."
    )
    return Finding(STYLESHEET_ERROR, Level.ERROR, text, place.context, stage)


def _module_path(uri: str) -> Path | None:
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    path = Path(unquote(parsed.path))
    return path if path.is_file() else None


def _line(value: str | None) -> int | None:
    return int(value) if value is not None and value.isdigit() else None


def _place_at(stylesheet: Path, line: int) -> _Place:
    """The instruction at `line` is the last element that starts on or before it. Inside
    an assertion, or the test before one, it names that rule; elsewhere in a rule's
    template (a variable its tests share), the rule's context."""
    tree = etree.parse(str(stylesheet), parser=make_parser())
    instruction: etree._Element | None = None
    for element in tree.iter():
        if not isinstance(element.tag, str):
            continue  # comments and processing instructions
        starts: object = element.sourceline
        if isinstance(starts, int) and starts > line:
            break
        instruction = element
    template = _template_of(instruction) if instruction is not None else None
    if instruction is None or template is None:
        return _UNKNOWN_PLACE
    context = template.get("match") or None
    assertion = _assertion_of(instruction)
    if assertion is not None and _template_of(assertion) is template:
        text = _rule_text(assertion)
        rule = f"Rule {_rule_id(assertion)}"
        return _Place(f"{rule} ({text})" if text else rule, context)
    variable = instruction.get("name") if instruction.tag == f"{{{_XSL}}}variable" else None
    shared = f" (its variable ${variable})" if variable else ""
    return _Place(f"The rules for {context or 'an element'}{shared}", context)


def _assertion_of(instruction: etree._Element) -> etree._Element | None:
    enclosing = _first(instruction, f"ancestor-or-self::*[{_ASSERTION}][1]")
    if enclosing is not None or instruction.tag not in _TESTS:
        return enclosing
    # An xsl:if holds its assertion; an xsl:when is followed by the xsl:otherwise with it.
    return _first(instruction, f"(descendant::*[{_ASSERTION}] | following::*[{_ASSERTION}])[1]")


def _template_of(element: etree._Element) -> etree._Element | None:
    return _first(element, "ancestor::xsl:template[1]")


def _first(element: etree._Element, path: str) -> etree._Element | None:
    found = element.xpath(path, namespaces=_NAMESPACES)
    if isinstance(found, list) and found and isinstance(found[0], etree._Element):
        return found[0]
    return None


def _rule_id(assertion: etree._Element) -> str:
    declared = assertion.get("id")
    if declared:
        return declared
    attribute = assertion.find("xsl:attribute[@name='id']", _NAMESPACES)
    return (attribute.text or "").strip() if attribute is not None else "(no id)"


def _rule_text(assertion: etree._Element) -> str:
    """The rule's message without the "[BR-CO-10]-" it starts with."""
    text = assertion.find("svrl:text", _NAMESPACES)
    if text is None:
        return ""
    return _ID_PREFIX.sub("", " ".join("".join(str(part) for part in text.itertext()).split()))

"""Issue 15, class 6: a dynamic error inside an official stylesheet (docs/realworld.md).

Decision: the invoice fails `invalid_e_invoice` (not `processing_failed`, which asks for
a retry) with a STYLESHEET-ERROR finding that names the rule whose test could not be
evaluated, the stylesheet and line, and Saxon's error.

Reproduced on the pinned stylesheets: CII allows the document-level amounts more than
once (an amount in the invoice currency and again in another), and BR-CO-10 casts "the"
line total to a decimal, which raises XPTY0004 on two. A decimal comma raises FORG0001.
A minimal stylesheet covers the same code path for the layout of a rule and for an error
outside any rule.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from processors.base import FailureCode, ProcessingError
from processors.einvoice import EInvoiceProcessor, InvalidEInvoiceError
from processors.einvoice.findings import Finding, Level
from processors.einvoice.profiles import ValidationPlan
from processors.einvoice.stylesheet_errors import STYLESHEET_ERROR
from processors.einvoice.validation import validate
from processors.pipeline import read_document
from processors.xmlsafe import parse_xml
from tests.processors.conftest import context

XRECHNUNG_CII = (
    "itplr-kosit+validator-configuration-xrechnung/src/test/cen-unit-test/cii-br-53-test-1.xml"
)
FACTURX_EN16931 = (
    "mustang/validator/src/test/resources/ZUGFeRD-invoice_rabatte_3_abschlag_duepayableamount.xml"
)
_HEADER_LINE_TOTAL = re.compile(
    r"<ram:SpecifiedTradeSettlementHeaderMonetarySummation>\s*"
    r"<ram:LineTotalAmount>[^<]*</ram:LineTotalAmount>"
)


def with_line_total_in_a_second_currency(invoice: bytes) -> bytes:
    """BT-106 again, in US dollars, after the one in the invoice currency."""
    text = invoice.decode("utf-8-sig")
    found = _HEADER_LINE_TOTAL.search(text)
    assert found is not None
    second = '<ram:LineTotalAmount currencyID="USD">1.00</ram:LineTotalAmount>'
    return (text[: found.end()] + second + text[found.end() :]).encode("utf-8")


def with_decimal_comma_in_net_price(invoice: bytes) -> bytes:
    text = invoice.decode("utf-8-sig")
    changed, count = re.subn(
        r"(<ram:NetPriceProductTradePrice>\s*<ram:ChargeAmount>\s*\d+)\.(\d+)",
        r"\1,\2",
        text,
        count=1,
    )
    assert count == 1
    return changed.encode("utf-8")


def _findings(data: bytes) -> tuple[Finding, ...]:
    with pytest.raises(InvalidEInvoiceError) as raised:
        EInvoiceProcessor().process(data, context())
    return raised.value.findings


def _stylesheet_errors(findings: tuple[Finding, ...]) -> dict[str, Finding]:
    return {f.stage: f for f in findings if f.rule_id == STYLESHEET_ERROR}


def test_an_amount_in_a_second_currency_names_the_rule_it_breaks(
    corpus: Path, requires_rules: None
) -> None:
    findings = _findings(
        with_line_total_in_a_second_currency((corpus / XRECHNUNG_CII).read_bytes())
    )
    assert not [f for f in findings if f.stage.startswith("xsd:")]  # D16B allows the repeat
    [error] = [f for f in findings if f.level.fails]
    assert error.rule_id == STYLESHEET_ERROR and error.level is Level.ERROR
    assert error.stage == "schematron:EN16931-CII-validation.xsl"
    assert error.text.startswith("Rule BR-CO-10 (Sum of Invoice line net amount (BT-106)")
    assert "occurs more than once" in error.text
    assert "[XPTY0004] (EN16931-CII-validation.xsl, line " in error.text
    assert error.location is not None
    assert "SpecifiedTradeSettlementHeaderMonetarySummation" in error.location


def test_an_amount_in_a_second_currency_fails_invalid_not_processing_failed(
    corpus: Path, requires_rules: None
) -> None:
    data = with_line_total_in_a_second_currency((corpus / XRECHNUNG_CII).read_bytes())
    with pytest.raises(ProcessingError) as raised:
        read_document(data, context())
    assert raised.value.code is FailureCode.INVALID_E_INVOICE
    assert "STYLESHEET-ERROR" in raised.value.message


def test_the_factur_x_stylesheet_layout_names_the_rule_too(
    corpus: Path, requires_rules: None
) -> None:
    """Factur-X's stylesheets test in xsl:when and assert in the xsl:otherwise after it."""
    data = with_line_total_in_a_second_currency((corpus / FACTURX_EN16931).read_bytes())
    error = _stylesheet_errors(_findings(data))["schematron:FACTUR-X_EN16931.xslt"]
    assert error.text.startswith("Rule BR-CO-10 (Sum of Invoice line net amount (BT-106)")
    assert "[XPTY0004] (FACTUR-X_EN16931.xslt, line " in error.text


def test_a_decimal_comma_names_the_rule_and_the_shared_variable(
    corpus: Path, requires_rules: None
) -> None:
    findings = _findings(with_decimal_comma_in_net_price((corpus / XRECHNUNG_CII).read_bytes()))
    assert any(f.stage.startswith("xsd:") and f.level is Level.FATAL for f in findings)
    errors = _stylesheet_errors(findings)
    cen = errors["schematron:EN16931-CII-validation.xsl"]
    assert cen.text.startswith("Rule BR-27 (The Item net price (BT-146) shall NOT be negative.)")
    assert "decimal comma" in cen.text and "[FORG0001]" in cen.text
    xrechnung = errors["schematron:XRechnung-CII-validation.xsl"]
    assert xrechnung.text.startswith(
        "The rules for ram:IncludedSupplyChainTradeLineItem (its variable $priceAmount)"
    )


_MINIMAL = """<xsl:stylesheet version="2.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:svrl="http://purl.oclc.org/dsdl/svrl">
  <xsl:variable name="limit" select="xs:decimal(/invoice/@limit)"/>
  <xsl:template match="/">
    <svrl:schematron-output>
      <xsl:if test="$limit lt 0"><svrl:failed-assert id="T-0"/></xsl:if>
      <xsl:apply-templates select="//amount"/>
    </svrl:schematron-output>
  </xsl:template>
  <xsl:template match="amount">
    <xsl:if test="not(xs:decimal(.) ge 0)">
      <svrl:failed-assert id="T-1" flag="fatal" location="amount">
        <svrl:text>[T-1]-An amount is not negative.</svrl:text>
      </svrl:failed-assert>
    </xsl:if>
  </xsl:template>
</xsl:stylesheet>
"""


@pytest.fixture
def minimal_rules(tmp_path: Path) -> Path:
    for folder in ("kosit", "factur-x"):
        (tmp_path / folder).mkdir()
    (tmp_path / "kosit" / "minimal.xsl").write_text(_MINIMAL, encoding="utf-8")
    return tmp_path


def _minimal_findings(rules_root: Path, invoice: str) -> list[Finding]:
    plan = ValidationPlan((), ("kosit/minimal.xsl",))
    return validate(parse_xml(invoice.encode()), plan, rules_root)


def test_a_minimal_stylesheet_reports_as_usual(minimal_rules: Path) -> None:
    assert (
        _minimal_findings(minimal_rules, '<invoice limit="0"><amount>1.5</amount></invoice>') == []
    )
    [finding] = _minimal_findings(minimal_rules, '<invoice limit="0"><amount>-1</amount></invoice>')
    assert (finding.rule_id, finding.level) == ("T-1", Level.ERROR)


def test_a_dynamic_error_in_a_rule_of_a_minimal_stylesheet(minimal_rules: Path) -> None:
    [finding] = _minimal_findings(
        minimal_rules, '<invoice limit="0"><amount>1,5</amount></invoice>'
    )
    assert (finding.rule_id, finding.level) == (STYLESHEET_ERROR, Level.ERROR)
    assert finding.stage == "schematron:minimal.xsl"
    assert finding.text.startswith("Rule T-1 (An amount is not negative.) could not be evaluated")
    assert 'Saxon: Cannot convert string "1,5" to xs:decimal' in finding.text
    assert "[FORG0001] (minimal.xsl, line 11)" in finding.text
    assert finding.location == "amount"


def test_a_dynamic_error_in_a_global_variable_names_the_stylesheet(minimal_rules: Path) -> None:
    """xsl:try does not catch it (XSLT 3.0); rules.py turns Saxon's exception into the
    same report, without a line."""
    [finding] = _minimal_findings(
        minimal_rules, '<invoice limit="none"><amount>1</amount></invoice>'
    )
    assert finding.rule_id == STYLESHEET_ERROR
    assert finding.text.startswith("A rule of the official stylesheet could not be evaluated")
    assert 'Saxon: Cannot convert string "none" to xs:decimal' in finding.text
    assert finding.text.endswith(
        "(minimal.xsl). The stylesheet stopped there, so its other rules were not checked."
    )
    assert finding.location is None

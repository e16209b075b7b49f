"""The business-term data covers the pinned rule artefacts, names only terms of the EN 16931
semantic model, and explains every rule in English and German; the lookup resolves rule
ids and element paths. An upgrade of the artefacts fails here until
`scripts/build_business_terms.py` has been run and its output reviewed."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from processors.einvoice import EInvoiceProcessor, InvalidEInvoiceError, business_terms, rules
from processors.einvoice.business_terms import (
    DATA_DIR,
    GENERIC_RULE,
    entry,
    explain,
    steps_of,
    term_at,
)
from processors.einvoice.rule_inventory import NO_RULE_ID, rule_asserts, stylesheet_names
from tests.processors.conftest import context, manifest_rows

TERM_ID = re.compile(r"\b(B[TG]-(?:[Xx]-|DEX-)?\d+)\b")
# Both forms an assert's id takes in the compiled stylesheets, read with a plain pattern
# so a rule the inventory's parsing missed still shows up.
RAW_IDS = re.compile(
    r'<svrl:(?:failed-assert|successful-report)\b[^>]*?\bid="([^"]+)"'
    r'|<xsl:attribute name="id">\s*([^<\s]+)\s*</xsl:attribute>'
)
SERVICE_RULE_IDS = (
    "XSD",
    "XML",
    "XML-ENCODING",
    "XML-ROOT",
    "PROFILE-UNKNOWN",
    "PROFILE-NOTE",
    "STYLESHEET-ERROR",
    NO_RULE_ID,
    GENERIC_RULE,
)


@pytest.fixture(scope="module")
def artefact_rule_ids() -> Iterator[set[str]]:
    try:
        names = stylesheet_names()
        paths = [rules.artefact(name) for name in names]
    except rules.RulesNotInstalledError:
        pytest.skip("e-invoice rules not installed: run scripts/install_rules.py")
    found: set[str] = set()
    for path in paths:
        for match in RAW_IDS.finditer(path.read_text(encoding="utf-8")):
            found.add(match.group(1) or match.group(2))
    yield found


def test_every_rule_id_of_the_pinned_artefacts_has_an_entry(artefact_rule_ids: set[str]) -> None:
    inventory = {rule.rule_id for rule in rule_asserts()} - {NO_RULE_ID}
    assert artefact_rule_ids == inventory  # the inventory reads every assert
    missing = sorted(rule_id for rule_id in artefact_rule_ids if entry(rule_id) is None)
    assert not missing, f"rerun scripts/build_business_terms.py: {missing[:20]}"
    assert len(artefact_rule_ids) > 2500


def test_the_findings_the_service_reports_itself_have_entries() -> None:
    for rule_id in SERVICE_RULE_IDS:
        assert entry(rule_id) is not None, rule_id


def test_every_term_id_a_rule_text_names_is_in_the_semantic_model(
    artefact_rule_ids: set[str],
) -> None:
    model = business_terms.semantic_model()
    named = {
        re.sub(r"^BT-x-", "BT-X-", term_id)
        for rule in rule_asserts()
        for term_id in TERM_ID.findall(rule.text)
    }
    assert sorted(named - set(model)) == []


def test_every_term_the_data_names_is_in_the_semantic_model() -> None:
    model = business_terms.semantic_model()
    data = json.loads((DATA_DIR / "business_terms.json").read_text(encoding="utf-8"))
    for rule_id, value in data["rules"].items():
        if "same_as" in value:
            assert value["same_as"] in data["rules"], rule_id
            continue
        unknown = [key for key in value["terms"] if key not in model]
        assert not unknown, (rule_id, unknown)
    elements = json.loads((DATA_DIR / "element_terms.json").read_text(encoding="utf-8"))
    for syntax in ("ubl", "cii"):
        assert set(elements[syntax].values()) <= set(model), syntax


def test_every_entry_explains_itself_in_both_languages() -> None:
    for rule_id in business_terms.rule_entries():
        found = entry(rule_id)
        assert found is not None, rule_id
        for language in ("en", "de"):
            text = found[language]
            assert isinstance(text, str) and len(text.strip()) > 20, (rule_id, language)


def test_the_semantic_model_has_every_core_term_named_in_both_languages() -> None:
    model = business_terms.semantic_model()
    core = {f"BT-{n}" for n in range(1, 166) if n != 4} | {f"BG-{n}" for n in range(1, 33)}
    assert core <= set(model)
    for found in model.values():
        assert found.en.strip() and found.de.strip(), found.term_id


def test_a_business_rule_names_its_terms() -> None:
    explained = explain("BR-01", "[BR-01]-An Invoice shall have a Specification identifier")
    assert explained.business_terms == ("BT-24",)
    assert "Specification identifier (BT-24)" in explained.en
    assert "„Spezifikationskennung“ (BT-24)" in explained.de


def test_a_factur_x_restatement_follows_the_rule_it_restates() -> None:
    data = business_terms.rule_entries()
    restating = [key for key, value in data.items() if value.get("same_as") == "BR-45"]
    assert restating
    assert explain(restating[0]).business_terms == explain("BR-45").business_terms


def test_a_schema_finding_takes_the_term_of_its_element() -> None:
    ubl = explain(
        "XSD", "Element '...IssueDate': '2024-13-45' is not a valid value", "/*/cbc:IssueDate"
    )
    assert ubl.business_terms == ()  # "/*" is no root name: no syntax to read it in
    path = "/ubl:Invoice/cac:AccountingSupplierParty/cac:Party/cac:PostalAddress/cbc:CityName"
    explained = explain("XSD", "Element 'CityName': ...", path)
    assert explained.business_terms == ("BT-37",)
    assert "Seller city (BT-37)" in explained.en
    assert "„Ort des Verkäufers“" not in explained.de  # the label, not the quoted name
    assert "Ort des Verkäufers (BT-37)" in explained.de


def test_an_unused_factur_x_element_takes_the_term_of_its_place() -> None:
    location = (
        "/*:CrossIndustryInvoice[namespace-uri()='urn:x'][1]/*:SupplyChainTradeTransaction[1]"
        "/*:ApplicableHeaderTradeAgreement[1]/*:SellerTradeParty[1]"
    )
    text = "Element 'ram:Description' is marked as not used in the given context."
    assert explain(NO_RULE_ID, text, location).business_terms == ("BT-33",)


def test_an_unknown_rule_gets_the_generic_explanation() -> None:
    explained = explain("NO-SUCH-RULE-1", "something")
    assert explained.business_terms == ()
    assert "{term}" not in explained.en and "{term}" not in explained.de
    assert explained.en and explained.de


def test_element_paths() -> None:
    assert steps_of("/*:Invoice[namespace-uri()='x'][1]/cac:Item[2]/@schemeID") == (
        "Invoice",
        "Item",
    )
    line_tax = (
        "CrossIndustryInvoice",
        "SupplyChainTradeTransaction",
        "IncludedSupplyChainTradeLineItem",
        "SpecifiedLineTradeSettlement",
        "ApplicableTradeTax",
        "CategoryCode",
    )
    assert term_at(line_tax) == "BT-151"
    header_tax = ("CrossIndustryInvoice", "ApplicableHeaderTradeSettlement", "ApplicableTradeTax")
    assert term_at((*header_tax, "CategoryCode")) == "BT-118"
    assert term_at((*header_tax, "Unknown", "Deeper")) == "BG-23"  # nearest listed ancestor


# --- findings of real validations carry them ------------------------------------------------

XRECHNUNG_UBL = (
    "itplr-kosit+validator-configuration-xrechnung/src/test/cen-unit-test/"
    "ubl-br-co-17-and-br-s-09-rounding.xml"
)


def _failure(data: bytes) -> InvalidEInvoiceError:
    with pytest.raises(InvalidEInvoiceError) as caught:
        EInvoiceProcessor().process(data, context())
    return caught.value


def test_a_missing_buyer_reference_is_named_in_plain_words(
    corpus: Path, requires_rules: None
) -> None:
    data = (corpus / XRECHNUNG_UBL).read_bytes()
    without = re.sub(rb"\s*<cbc:BuyerReference>[^<]*</cbc:BuyerReference>", b"", data)
    error = _failure(without)
    failed = [finding for finding in error.findings if finding.level.fails]
    assert [finding.rule_id for finding in failed] == ["BR-DE-15"]
    assert failed[0].business_terms == ("BT-10",)
    assert "Buyer reference (BT-10)" in failed[0].explanation_en
    assert "„Käuferreferenz (Leitweg-ID)“ (BT-10)" in failed[0].explanation_de
    assert "First: Buyer reference (BT-10): [BR-DE-15]" in error.message
    stored = error.details["findings"][0]
    assert stored["businessTerms"] == ["BT-10"] and stored["explanationDe"]


def test_a_schema_error_names_the_term_of_its_element(corpus: Path, requires_rules: None) -> None:
    data = (corpus / XRECHNUNG_UBL).read_bytes()
    broken = data.replace(b"<cbc:IssueDate>2016-04-04<", b"<cbc:IssueDate>4 April 2016<", 1)
    error = _failure(broken)
    schema = [finding for finding in error.findings if finding.rule_id == "XSD"]
    assert schema and schema[0].business_terms == ("BT-2",)
    assert "Invoice issue date (BT-2)" in schema[0].explanation_en
    assert "First: Invoice issue date (BT-2): [XSD]" in error.message


def test_every_failing_corpus_invoice_explains_its_findings(
    corpus: Path, requires_rules: None
) -> None:
    rows = manifest_rows("invalid_e_invoice")
    named = failing = 0
    for row in rows:
        try:
            EInvoiceProcessor().process((corpus / row["file"]).read_bytes(), context())
        except InvalidEInvoiceError as error:
            for finding in error.findings:
                assert finding.explanation_en and finding.explanation_de, row["file"]
                assert "{term}" not in finding.explanation_en + finding.explanation_de
                if finding.level.fails:
                    failing += 1
                    named += bool(finding.business_terms)
    assert failing > 50
    assert named / failing >= 0.9, f"{named} of {failing} failing findings name a term"

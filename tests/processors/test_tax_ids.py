"""The offline check of VAT ids and German tax numbers (processors/tax_ids.py), and its
place in an invoice's result (issue 42, part 2)."""

from __future__ import annotations

import random
import string

import pytest

from processors.base import CompanyProfile, DocumentType, ProcessingContext
from processors.invoice_model import Address, Invoice, InvoiceType, Party, Totals
from processors.pipeline import read_document
from processors.results.invoice import InvoiceResult
from processors.tax_ids import (
    TaxIdKind,
    TaxIdVerdict,
    check_tax_number,
    check_vat_id,
    tax_id_checks,
)
from testkit.generated_docs import SAMPLE_INVOICE, german_invoice

# One published valid VAT id per member state (the examples of each state's tax
# administration, as quoted in python-stdnum's documentation), as printed on invoices.
PUBLISHED = {
    "AT": "ATU13585627",
    "BE": "BE 0428759497",
    "BG": "BG175074752",
    "CY": "CY-10259033P",
    "CZ": "CZ25123891",
    "DE": "DE136695976",
    "DK": "DK 13585628",
    "EE": "EE100594102",
    "EL": "EL094259216",
    "ES": "ESB64717838",
    "FI": "FI 20774740",
    "FR": "FR40303265045",
    "HR": "HR33392005961",
    "HU": "HU-12892312",
    "IE": "IE6433435F",
    "IT": "IT 00743110157",
    "LT": "LT119511515",
    "LU": "LU 150 274 42",
    "LV": "LV 4000 3521 600",
    "MT": "MT 1167-9112",
    "NL": "NL004495445B01",
    "PL": "PL 8567346215",
    "PT": "PT 501 964 843",
    "RO": "RO 185 472 90",
    "SE": "SE 123456789701",
    "SI": "SI 5022 3054",
    "SK": "SK 202 274 96 19",
    "XI": "XI 980 7806 84",
}

# Published invalid ones: the same administrations' examples with a wrong check digit.
PUBLISHED_WRONG_CHECK_DIGIT = {
    "AT": "ATU13585626",
    "BG": "BG175074751",
    "CY": "CY10259033Z",
    "CZ": "CZ25123890",
    "DE": "DE136695978",
    "DK": "DK13585627",
    "EE": "EE100594103",
    "EL": "EL123456781",
    "ES": "ESB64717839",
    "FI": "FI20774741",
    "HR": "HR33392005962",
    "HU": "HU12892313",
    "IE": "IE6433435E",
    "IT": "IT00743110158",
    "LT": "LT100001919018",
    "LU": "LU15027443",
    "LV": "LV40003521601",
    "MT": "MT11679113",
    "PL": "PL8567346216",
    "PT": "PT501964842",
    "SI": "SI50223055",
    "SK": "SK2022749618",
}


# Where the check character stands when it is not last: NL ends in a branch number
# (B01), SE in the suffix 01.
CHECK_POSITION = {"NL": -4, "SE": -3}


def _compact(value: str) -> str:
    return "".join(ch for ch in value.upper() if ch.isalnum())


def test_every_member_state_and_northern_ireland_has_an_example() -> None:
    member_states = {
        "AT",
        "BE",
        "BG",
        "CY",
        "CZ",
        "DE",
        "DK",
        "EE",
        "EL",
        "ES",
        "FI",
        "FR",
        "HR",
        "HU",
        "IE",
        "IT",
        "LT",
        "LU",
        "LV",
        "MT",
        "NL",
        "PL",
        "PT",
        "RO",
        "SE",
        "SI",
        "SK",
        "XI",
    }
    assert set(PUBLISHED) == member_states


@pytest.mark.parametrize("country", sorted(PUBLISHED))
def test_a_published_vat_id_is_valid(country: str) -> None:
    assert check_vat_id(PUBLISHED[country]) == (TaxIdVerdict.VALID, country)


@pytest.mark.parametrize("country", sorted(PUBLISHED_WRONG_CHECK_DIGIT))
def test_a_published_wrong_check_digit_is_caught(country: str) -> None:
    verdict, prefix = check_vat_id(PUBLISHED_WRONG_CHECK_DIGIT[country])
    assert (verdict, prefix) == (TaxIdVerdict.BAD_CHECK_DIGIT, country)


@pytest.mark.parametrize("country", sorted(PUBLISHED))
def test_every_other_check_character_is_refused(country: str) -> None:
    """Generated from each algorithm: the printed id with its check character replaced
    by every other digit or letter; only the original passes."""
    valid = _compact(PUBLISHED[country])
    at = len(valid) + CHECK_POSITION.get(country, -1)
    alphabet = string.digits + (string.ascii_uppercase if valid[at].isalpha() else "")
    for other in alphabet:
        changed = valid[:at] + other + valid[at + 1 :]
        if other != valid[at]:
            assert check_vat_id(changed)[0].is_finding, f"{changed} passed"


# Numeric ids whose algorithm gives every body exactly one check digit, and those where
# some bodies have none (a remainder the state never issues).
ONE_CHECK_DIGIT = ("AT", "BG", "DE", "HR", "IT", "PT")
AT_MOST_ONE = ("DK", "FI", "PL", "SI")


@pytest.mark.parametrize("country", ONE_CHECK_DIGIT + AT_MOST_ONE)
def test_generated_bodies_get_one_check_digit_and_no_other(country: str) -> None:
    """Generated from each algorithm: bodies made by changing the published id's middle
    digits; each gets exactly one valid final digit (at most one where the algorithm
    leaves some bodies without), and every other final digit is a wrong check digit."""
    valid = _compact(PUBLISHED[country])
    chooser = random.Random(country)
    found = 0
    for _ in range(12):
        # The last digits before the check digit stay: Italy's office code is there.
        middle = "".join(chooser.choice(string.digits) for _ in valid[4:-5])
        body = valid[:4] + middle + valid[-5:-1]
        fitting = [d for d in string.digits if check_vat_id(body + d)[0] is TaxIdVerdict.VALID]
        assert len(fitting) == 1 if country in ONE_CHECK_DIGIT else len(fitting) <= 1
        found += len(fitting)
        for digit in set(string.digits) - set(fitting):
            assert check_vat_id(body + digit)[0] is TaxIdVerdict.BAD_CHECK_DIGIT, body + digit
    assert found >= 6  # most generated bodies give a valid id


def test_a_non_eu_vat_id_is_not_checked_and_no_prefix_is_a_bad_format() -> None:
    assert check_vat_id("CHE-123.456.788 MWST") == (TaxIdVerdict.NOT_CHECKED, "CH")
    assert check_vat_id("GB980780684") == (TaxIdVerdict.NOT_CHECKED, "GB")
    assert check_vat_id("136695976") == (TaxIdVerdict.BAD_FORMAT, None)
    assert check_vat_id("DE13669597") == (TaxIdVerdict.BAD_FORMAT, "DE")


# --- the German Steuernummer ------------------------------------------------------------

# One tax number in each Land's own form (10 or 11 digits, as printed) and its
# federal 13-digit form (Land prefix + Finanzamt + 0 + district + serial + check digit).
STEUERNUMMERN = {
    "Baden-Württemberg": ("93815/08152", "2893081508152"),
    "Bayern": ("181/815/08155", "9181081508155"),
    "Berlin": ("21/815/08150", "1121081508150"),
    "Brandenburg": ("048/815/08155", "3048081508155"),
    "Bremen": ("75 815 08152", "2475081508152"),
    "Hamburg": ("02/815/08156", "2202081508156"),
    "Hessen": ("013 815 08153", "2613081508153"),
    "Mecklenburg-Vorpommern": ("079/815/08151", "4079081508151"),
    "Niedersachsen": ("24/815/08151", "2324081508151"),
    "Nordrhein-Westfalen": ("133/8150/8159", "5133081508159"),
    "Rheinland-Pfalz": ("22/815/0815/4", "2722081508154"),
    "Saarland": ("010/815/08182", "1010081508182"),
    "Sachsen": ("201/123/12340", "3201012312340"),
    "Sachsen-Anhalt": ("101/815/08154", "3101081508154"),
    "Schleswig-Holstein": ("29/815/08158", "2129081508158"),
    "Thüringen": ("151/815/08156", "4151081508156"),
}


@pytest.mark.parametrize("land", sorted(STEUERNUMMERN))
def test_a_steuernummer_fits_its_land_in_both_forms(land: str) -> None:
    regional, federal = STEUERNUMMERN[land]
    for form in (regional, federal):
        verdict, regions = check_tax_number(form)
        assert verdict is TaxIdVerdict.VALID, form
        assert land in regions, (form, regions)


def test_a_leading_country_code_is_ignored() -> None:
    assert check_tax_number("DE 181/815/08155")[0] is TaxIdVerdict.VALID


def test_a_federal_form_names_one_land_only() -> None:
    for land, (_, federal) in STEUERNUMMERN.items():
        assert check_tax_number(federal)[1] == (land,)


@pytest.mark.parametrize("wrong", ["123", "12345678901234", "4151181508156", "18A/815/08155"])
def test_a_steuernummer_of_no_lands_format_is_a_finding(wrong: str) -> None:
    assert check_tax_number(wrong) == (TaxIdVerdict.BAD_FORMAT, ())


# --- on an invoice ----------------------------------------------------------------------


def _invoice(seller: Party, buyer: Party | None = None) -> Invoice:
    return Invoice(
        number="1",
        invoice_type=InvoiceType.INVOICE,
        type_code="380",
        issue_date=None,
        currency="EUR",
        seller=seller,
        buyer=buyer or Party(name="Buyer"),
        totals=Totals(),
    )


def test_each_partys_ids_are_checked_and_none_without_ids() -> None:
    seller = Party(name="S", vat_id="DE136695978", tax_number="181/815/08155")
    buyer = Party(name="B", vat_id="ATU13585627")
    checks = tax_id_checks(_invoice(seller, buyer))
    assert checks is not None
    assert [(c.party, c.kind, c.verdict) for c in checks] == [
        ("seller", TaxIdKind.VAT_ID, TaxIdVerdict.BAD_CHECK_DIGIT),
        ("seller", TaxIdKind.TAX_NUMBER, TaxIdVerdict.VALID),
        ("buyer", TaxIdKind.VAT_ID, TaxIdVerdict.VALID),
    ]
    assert tax_id_checks(_invoice(Party(name="S"))) is None


def test_a_tax_number_of_a_party_abroad_is_not_taken_for_a_steuernummer() -> None:
    seller = Party(name="S", tax_number="12345", address=Address(country_code="FR"))
    checks = tax_id_checks(_invoice(seller))
    assert checks is not None and checks[0].verdict is TaxIdVerdict.NOT_CHECKED


@pytest.mark.parametrize(("vat_id", "finding"), [("DE136695976", False), ("DE136695975", True)])
def test_a_generated_pdf_invoice_carries_the_verdict_in_its_result(
    vat_id: str, finding: bool
) -> None:
    from dataclasses import replace

    pdf = german_invoice(replace(SAMPLE_INVOICE, seller_vat_id=vat_id))
    context = ProcessingContext(
        DocumentType.AUTO, "upload", CompanyProfile(name="Kunde Digital KG")
    )
    outcome = read_document(pdf, context)
    assert isinstance(outcome.result, InvoiceResult)
    stored = outcome.data["taxIds"]
    seller_vat = [c for c in stored if c["party"] == "seller" and c["kind"] == "vat_id"]
    assert seller_vat[0]["value"].replace(" ", "") == vat_id
    assert (seller_vat[0]["verdict"] == "bad_check_digit") is finding
    assert InvoiceResult.from_dict(outcome.data) == outcome.result

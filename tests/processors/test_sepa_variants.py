"""National and newer variants of pain.001 / pain.008 are payment files: the Swiss SIX
and German DK variants and the ISO 2019+ versions, read by the elements they share and
checked against the installed schema they conform to (docs/einvoice.md, "SEPA variants").
"""

from __future__ import annotations

import re

import pytest

from processors.base import FailureCode, FileKind, ProcessingError, ResultType
from processors.pipeline import read_document
from processors.sepa import SepaProcessor
from tests.processors.conftest import context
from tests.processors.sepa_docs import AMOUNTS, VARIANTS, Variant, payment_file, total

NAMES = list(VARIANTS)


@pytest.mark.parametrize("name", NAMES)
def test_variant_is_a_payment_file(name: str, requires_rules: None) -> None:
    variant = VARIANTS[name]
    data = payment_file(variant)
    assert SepaProcessor().score(FileKind.XML, data[:4096], context()) > 0

    outcome = read_document(data, context())

    assert outcome.result_type is ResultType.PAYMENT_FILE
    read = outcome.data
    assert read["messageType"] == variant.message_type
    assert read["kind"] == ("credit_transfer" if variant.credit else "direct_debit")
    assert read["numberOfTransactions"] == 4
    assert read["controlSum"] == total()
    assert [p["amount"] for p in read["payments"]] == list(AMOUNTS)
    assert [p["paymentInfoId"] for p in read["payments"]] == ["PMT-0", "PMT-0", "PMT-1", "PMT-1"]
    assert read["payments"][3]["iban"] == "CH9300762011623852957"
    assert read["payments"][0]["requestedDate"] == "2026-12-01"
    assert all(p["bic"] for p in read["payments"])
    validation = read["validation"]
    assert validation["schema"] == variant.schema
    assert validation["warnings"] == []
    if variant.schema is None:
        assert validation["xsd"] == "not available for this version"
    elif variant.schema != variant.message_type:
        assert validation["xsd"].startswith(f"passed against ISO {variant.schema}")
        assert validation["variant"] in ("Swiss SIX", "German DK")
    else:
        assert validation["xsd"] == "passed" and validation["variant"] is None


@pytest.mark.parametrize("name", NAMES)
def test_broken_group_control_sum_is_refused(name: str, requires_rules: None) -> None:
    data = payment_file(VARIANTS[name], control_sum="32687.39")
    with pytest.raises(ProcessingError, match="group header declares control sum") as caught:
        SepaProcessor().process(data, context())
    assert caught.value.code is FailureCode.UNREADABLE_DOCUMENT


@pytest.mark.parametrize("name", NAMES)
def test_broken_block_control_sum_is_refused(name: str, requires_rules: None) -> None:
    data = payment_file(VARIANTS[name], block_control_sum="1349.96")
    with pytest.raises(ProcessingError, match=re.escape("'PMT-0' declares control sum 1349.96")):
        SepaProcessor().process(data, context())


def _with_stray_element(variant: Variant) -> bytes:
    return payment_file(variant).replace(b"<InitgPty>", b"<Unknown>x</Unknown><InitgPty>")


@pytest.mark.parametrize("name", ["pain.001.001.03.ch.02", "pain.008.003.02", "pain.001.001.11"])
def test_variant_is_checked_against_the_iso_schema(name: str, requires_rules: None) -> None:
    with pytest.raises(ProcessingError, match=r"XML Schema: line \d+: .*Unknown"):
        SepaProcessor().process(_with_stray_element(VARIANTS[name]), context())


@pytest.mark.parametrize("name", ["pain.001.001.12", "pain.008.001.11"])
@pytest.mark.parametrize(
    ("pattern", "replacement", "message"),
    [
        (rb"<EndToEndId>E2E-1</EndToEndId>", b"", "has no EndToEndId"),
        (rb"<PmtMtd>\w+</PmtMtd>", b"", "has no PmtMtd"),
        (rb"<InitgPty>.*?</InitgPty>", b"", "has no InitgPty"),
        (rb'Ccy="EUR">99.95', b'Ccy="euro">99.95', "currency"),
        (rb">99.95<", b">-99.95<", "negative"),
        (rb"<NbOfTxs>4</NbOfTxs>", b"<NbOfTxs>5</NbOfTxs>", "declares 5 transactions"),
    ],
)
def test_versions_without_schema_get_the_structural_checks(
    name: str, pattern: bytes, replacement: bytes, message: str, requires_rules: None
) -> None:
    data, replaced = re.subn(pattern, replacement, payment_file(VARIANTS[name]), count=1)
    assert replaced == 1
    with pytest.raises(ProcessingError, match=message):
        SepaProcessor().process(data, context())


@pytest.mark.parametrize(
    ("iban", "warning"),
    [
        ("DE02120300000000202052", "fails its check digits"),
        ("DE0212030000000020205", "has 21 characters; DE IBANs have 22"),
    ],
)
@pytest.mark.parametrize("name", ["pain.001.003.03", "pain.008.001.02.ch.01", "pain.001.001.12"])
def test_a_wrong_iban_is_a_warning(
    name: str, iban: str, warning: str, requires_rules: None
) -> None:
    data = payment_file(VARIANTS[name], iban_of_first=iban)
    read = SepaProcessor().process(data, context()).data
    assert read["validation"]["warnings"] == [f"IBAN {iban} {warning}" + _suffix(warning)]
    assert read["payments"][0]["iban"] == iban


def _suffix(warning: str) -> str:
    return " (ISO 7064 MOD 97-10)" if "check digits" in warning else ""

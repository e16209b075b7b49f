"""The offline check of an invoice's tax identifiers (issue 42, part 2): every EU member
state's VAT id by its own format and check digits, and the German tax number
(Steuernummer) by the formats of the Länder.

The algorithms are python-stdnum's (`stdnum.eu.vat`, `stdnum.de.stnr`): the published
algorithms of each member state, maintained and tested against the states' own examples
for years; ours would repeat them. What is ours is what a result says: a verdict per
identifier printed on the invoice, and which of them are findings (docs/checks.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from stdnum import exceptions as stdnum_errors
from stdnum.de import stnr
from stdnum.eu import vat

from processors.invoice_model import Invoice, Party
from processors.json_fields import OMITTED_WHEN_NONE

# stdnum names Greece `gr`; its VAT ids carry `EL`. `xi`: Northern Ireland (since 2021).
_PREFIXES = {country.upper() for country in vat.MEMBER_STATES} | {"EL"}
_LEADING_DE = re.compile(r"^\s*DE\s*(?=\d)", re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s\-./,:()]")


class TaxIdKind(StrEnum):
    VAT_ID = "vat_id"
    TAX_NUMBER = "tax_number"  # the German Steuernummer


class TaxIdVerdict(StrEnum):
    VALID = "valid"
    BAD_CHECK_DIGIT = "bad_check_digit"  # the format fits, the check digits do not
    BAD_FORMAT = "bad_format"  # length, characters or structure wrong for its country
    NOT_CHECKED = "not_checked"  # a country outside the EU, or a foreign tax number

    @property
    def is_finding(self) -> bool:
        return self in (TaxIdVerdict.BAD_CHECK_DIGIT, TaxIdVerdict.BAD_FORMAT)


@dataclass(frozen=True, slots=True)
class TaxIdCheck:
    """One identifier printed on the invoice and what its offline check says. `country`:
    the VAT id's prefix (EL for Greece); `regions`: the Länder whose Steuernummer format
    the tax number fits."""

    party: str  # "seller" or "buyer"
    kind: TaxIdKind
    value: str
    verdict: TaxIdVerdict
    country: str | None = field(default=None, metadata=OMITTED_WHEN_NONE)
    regions: tuple[str, ...] = ()


def check_vat_id(value: str) -> tuple[TaxIdVerdict, str | None]:
    """The verdict on one VAT id and its country prefix (None when it has none)."""
    compact = _SEPARATORS.sub("", value).upper()
    prefix = compact[:2] if compact[:2].isalpha() else None
    if prefix is None:
        return TaxIdVerdict.BAD_FORMAT, None
    if prefix not in _PREFIXES:
        return TaxIdVerdict.NOT_CHECKED, prefix
    return _verdict(lambda: vat.validate(compact)), prefix


def check_tax_number(value: str) -> tuple[TaxIdVerdict, tuple[str, ...]]:
    """The verdict on a German Steuernummer (10 or 11 digits in a Land's form, 13 in the
    federal form) and the Länder whose format it fits. A leading `DE` is ignored:
    e-invoices carry it now and then (`DE99999/99999` in the corpus)."""
    number = _LEADING_DE.sub("", value)
    verdict = _verdict(lambda: stnr.validate(number))
    regions = tuple(stnr.guess_regions(number)) if verdict is TaxIdVerdict.VALID else ()
    return verdict, regions


def tax_id_checks(invoice: Invoice) -> tuple[TaxIdCheck, ...] | None:
    """Every VAT id and German tax number the invoice's parties carry, checked; None
    when they carry none."""
    checks: list[TaxIdCheck] = []
    for role, party in (("seller", invoice.seller), ("buyer", invoice.buyer)):
        if party.vat_id and party.vat_id.strip():
            verdict, country = check_vat_id(party.vat_id)
            checks.append(TaxIdCheck(role, TaxIdKind.VAT_ID, party.vat_id, verdict, country))
        if party.tax_number and party.tax_number.strip():
            checks.append(_tax_number_check(role, party))
    return tuple(checks) or None


def _tax_number_check(role: str, party: Party) -> TaxIdCheck:
    """A tax number of a party outside Germany is not a Steuernummer: not checked."""
    assert party.tax_number is not None
    if _country_of(party) not in (None, "DE"):
        return TaxIdCheck(role, TaxIdKind.TAX_NUMBER, party.tax_number, TaxIdVerdict.NOT_CHECKED)
    verdict, regions = check_tax_number(party.tax_number)
    return TaxIdCheck(role, TaxIdKind.TAX_NUMBER, party.tax_number, verdict, "DE", regions)


def _country_of(party: Party) -> str | None:
    if party.address is not None and party.address.country_code:
        return party.address.country_code.strip().upper() or None
    vat_id = (party.vat_id or "").strip().upper()
    return vat_id[:2] if vat_id[:2].isalpha() else None


def _verdict(validate: Callable[[], object]) -> TaxIdVerdict:
    try:
        validate()
    except stdnum_errors.InvalidChecksum:
        return TaxIdVerdict.BAD_CHECK_DIGIT
    except stdnum_errors.ValidationError:
        return TaxIdVerdict.BAD_FORMAT
    return TaxIdVerdict.VALID

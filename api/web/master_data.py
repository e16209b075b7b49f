"""The company's master data as typed into the settings form: normalised and checked."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from api.web.i18n import N_, Message
from api.web.time_zones import DEFAULT_TIME_ZONE, known_time_zone
from processors.tax_ids import TaxIdVerdict, check_tax_number, check_vat_id

LOCALES = {"de": "Deutsch (1.234,56 · 09.01.2015)", "en": "English (1,234.56 · 2015-01-09)"}
_VAT_ID = re.compile(r"^[A-Z]{2}[0-9A-Z+*]{2,13}$")
_IBAN = re.compile(r"^[A-Z]{2}[0-9]{2}[0-9A-Z]{11,30}$")
_SEPARATORS = re.compile(r"[\s.\-/]")


@dataclass
class MasterData:
    name: str
    vat_ids: list[str]
    tax_number: str | None
    ibans: list[str]
    locale: str
    time_zone: str = DEFAULT_TIME_ZONE
    errors: dict[str, str | Message] = field(default_factory=dict)  # shown translated


def _entries(text: str) -> list[str]:
    """One entry per line (commas and semicolons separate too), compacted, no repeats."""
    seen: list[str] = []
    for part in re.split(r"[\n,;]", text):
        compact = _SEPARATORS.sub("", part).upper()
        if compact and compact not in seen:
            seen.append(compact)
    return seen


def iban_checksum_ok(iban: str) -> bool:
    rearranged = iban[4:] + iban[:4]
    digits = "".join(str(int(ch, 36)) for ch in rearranged)
    return int(digits) % 97 == 1


def parse_master_data(
    name: str, vat_ids: str, tax_number: str, ibans: str, locale: str, time_zone: str = ""
) -> MasterData:
    """The form's values, checked; an empty time zone is the default one."""
    zone_name = known_time_zone(time_zone) if time_zone.strip() else DEFAULT_TIME_ZONE
    data = MasterData(
        name=name.strip(),
        vat_ids=_entries(vat_ids),
        tax_number=tax_number.strip() or None,
        ibans=_entries(ibans),
        locale=locale,
        time_zone=zone_name or time_zone.strip(),
    )
    if not data.name:
        data.errors["name"] = N_("Enter the company name.")
    elif len(data.name) > 255:
        data.errors["name"] = N_("The name is longer than 255 characters.")
    _check_vat_ids(data)
    if data.tax_number and len(data.tax_number) > 64:
        data.errors["tax_number"] = N_("The tax number is longer than 64 characters.")
    elif data.tax_number and _german(data) and check_tax_number(data.tax_number)[1] == ():
        data.errors["tax_number"] = N_(
            "Not a German tax number: it fits no Land's format (10 or 11 digits as the"
            " Land prints it, e.g. 181/815/08155, or the 13-digit federal form)."
        )
    bad_iban = [i for i in data.ibans if not (_IBAN.match(i) and iban_checksum_ok(i))]
    if bad_iban:
        data.errors["ibans"] = Message(
            N_("Not a valid IBAN (check digits): %(values)s"), {"values": ", ".join(bad_iban)}
        )
    if locale not in LOCALES:
        data.errors["locale"] = N_("Choose German or English.")
    if zone_name is None:
        data.errors["time_zone"] = Message(
            N_("Not a time zone: %(value)s. Choose one from the list, e.g. Europe/Berlin."),
            {"value": time_zone.strip()},
        )
    return data


def _check_vat_ids(data: MasterData) -> None:
    """EU VAT ids by their member state's format and check digits (processors/
    tax_ids.py); others (CHE..., GB...) by the general shape only."""
    bad_shape = [v for v in data.vat_ids if not _VAT_ID.match(v)]
    verdicts = {v: check_vat_id(v)[0] for v in data.vat_ids if v not in bad_shape}
    bad_digit = [v for v, verdict in verdicts.items() if verdict is TaxIdVerdict.BAD_CHECK_DIGIT]
    bad_format = bad_shape + [
        v for v, verdict in verdicts.items() if verdict is TaxIdVerdict.BAD_FORMAT
    ]
    if bad_format:
        data.errors["vat_ids"] = Message(
            N_("Not a VAT ID (wrong format for its country): %(values)s"),
            {"values": ", ".join(bad_format)},
        )
    elif bad_digit:
        data.errors["vat_ids"] = Message(
            N_("Not a valid VAT ID (check digit): %(values)s"), {"values": ", ".join(bad_digit)}
        )


def _german(data: MasterData) -> bool:
    """A company with no VAT id, or a German one, has a German tax number."""
    return not data.vat_ids or any(v.startswith("DE") for v in data.vat_ids)

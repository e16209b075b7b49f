"""The Buchungsstapel byte for byte: a golden file of the generated set, the header and
record layout as DATEV's format description has it, and properties of the field
encoding (Windows-1252, quoting, decimal comma) over generated values."""

from __future__ import annotations

import os
import re
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from storage.datev import extf
from storage.datev.bookings import Booking, Voucher, voucher
from tests.storage.datev.invoices import generated_set
from tests.storage.datev.writers import BATCH, SETTINGS, vouchers

GOLDEN = Path(__file__).parent / "golden" / "EXTF_Buchungsstapel.csv"


def written() -> bytes:
    return extf.write(BATCH, vouchers())


def test_the_generated_set_is_written_as_the_golden_file() -> None:
    if os.environ.get("DATEV_WRITE_GOLDEN"):
        GOLDEN.write_bytes(written())
    assert written() == GOLDEN.read_bytes()


def test_the_header_record_has_the_31_fields_of_format_version_13() -> None:
    header = written().split(b"\r\n")[0].decode("cp1252").split(";")
    assert len(header) == 31
    assert header[:6] == ['"EXTF"', "700", "21", '"Buchungsstapel"', "13", "20260203093015123"]
    assert header[7] == '"RE"'
    assert header[10:16] == ["29098", "55003", "20260101", "4", "20260101", "20260131"]
    assert header[16] == '"Rechnungen Januar"'
    assert header[18:22] == ["1", "0", "0", '"EUR"']
    assert header[26] == '"03"'


def test_records_have_125_fields_crlf_and_no_bom() -> None:
    data = written()
    assert not data.startswith(b"\xef\xbb\xbf")
    assert data.endswith(b"\r\n") and b"\n" not in data.replace(b"\r\n", b"")
    lines = data.split(b"\r\n")[1:-1]
    assert lines[0].decode("cp1252").split(";")[0] == "Umsatz (ohne Soll/Haben-Kz)"
    for line in lines:
        assert len(_fields(line.decode("cp1252"))) == extf.FIELD_COUNT


def test_one_line_per_vat_rate_with_accounts_dates_and_document_number() -> None:
    lines = [_fields(line.decode("cp1252")) for line in written().split(b"\r\n")[2:-1]]
    # Two rates on "2026/17": two lines; the supplier is credited (H), 3400/3300 (AV).
    assert [line[:11] for line in lines[1:3]] == [
        ["119,00", '"H"', '"EUR"', "", "", "", "70000", "3400", "", "1201", '"2026/17"'],
        ["53,50", '"H"', '"EUR"', "", "", "", "70000", "3300", "", "1201", '"2026/17"'],
    ]
    customer = lines[3]
    assert customer[:10] == ["14691,35", '"S"', '"EUR"', "", "", "", "10000", "8400", "", "2001"]
    credit_note = lines[4]
    assert credit_note[1] == '"S"' and credit_note[10] == '"GS71"'  # `#` and space dropped


def test_quotes_in_text_are_doubled_and_text_is_cut_at_60() -> None:
    line = written().split(b"\r\n")[3].decode("cp1252")
    assert '"Café ""Zur Post"" GmbH 2026/17"' in line
    long = replace(vouchers()[0], text="ä" * 100)
    record = next(extf.booking_records(long))
    assert record[13] == "ä" * extf.TEXT_LIMIT


def test_bu_keys_on_accounts_that_are_not_automatic() -> None:
    manual = replace(SETTINGS, accounts=replace(SETTINGS.accounts, automatic=False))
    keys = [
        [booking.bu_key for booking in found.bookings]
        for found in (voucher(result, manual) for result in generated_set())
        if isinstance(found, Voucher)
    ]
    assert keys == [["9"], ["9", "8"], ["3"], ["9"]]
    manual_vouchers = [voucher(result, manual) for result in generated_set()]
    written_keys = [
        line.split(";")[8]
        for line in extf.write(BATCH, [v for v in manual_vouchers if isinstance(v, Voucher)])
        .decode("cp1252")
        .split("\r\n")[2:-1]
    ]
    assert written_keys == ['"0009"', '"0009"', '"0008"', '"0003"', '"0009"']


@given(st.decimals(min_value=0, max_value=Decimal("9999999999.99"), places=2))
def test_amounts_have_a_decimal_comma_two_places_and_no_thousands_separator(
    value: Decimal,
) -> None:
    text = extf.amount(value)
    integer, cents = text.split(",")
    assert integer.isdigit() and len(cents) == 2 and "." not in text
    assert Decimal(f"{integer}.{cents}") == value


@given(st.text(max_size=120))
def test_text_fields_are_windows_1252_one_line_quoted_and_read_back(value: str) -> None:
    kept = extf.ansi_text(value, extf.TEXT_LIMIT)
    assert len(kept) <= extf.TEXT_LIMIT
    kept.encode(extf.ENCODING)  # never raises
    assert "\r" not in kept and "\n" not in kept
    written_field = extf._field(extf.Text(kept))
    assert written_field.startswith('"') and written_field.endswith('"')
    assert _fields(written_field) == [written_field]
    assert written_field[1:-1].replace('""', '"') == kept


@given(st.text(max_size=80))
def test_document_numbers_keep_only_what_belegfeld_1_takes(value: str) -> None:
    kept = extf.document_field(value)
    assert len(kept) <= extf.DOCUMENT_FIELD_LIMIT
    assert all(ch.isascii() and (ch.isalnum() or ch in "$%&*+-/") for ch in kept)


def test_a_booking_is_never_negative() -> None:
    booking = vouchers()[3].bookings[0]
    assert isinstance(booking, Booking) and booking.amount > 0 > booking.signed_amount


def _fields(line: str) -> list[str]:
    """Splits at `;` outside double quotes, as DATEV reads a record."""
    fields, current, quoted = [], "", False
    for char in line:
        if char == '"':
            quoted = not quoted
        if char == ";" and not quoted:
            fields.append(current)
            current = ""
        else:
            current += char
    fields.append(current)
    return fields


# The expressions of developer.datev.de's Buchungsstapel description for the fields
# written (field number, 1-based); an empty field is a field not given.
EXPRESSIONS = {
    1: r"\d{1,10},\d{2}",
    2: r'"(S|H)"',
    3: r'"[A-Z]{3}"',
    7: r"\d{1,9}",
    8: r"\d{1,9}",
    9: r'"\d{4}"',
    10: r"(0[1-9]|[12]\d|3[01])(0[1-9]|1[0-2])",
    11: r'"[A-Za-z0-9$%&*+\-/]{0,36}"',
    14: r'"([^"]|""){0,60}"',
}


def test_every_written_field_matches_the_published_expression() -> None:
    manual = replace(SETTINGS, accounts=replace(SETTINGS.accounts, automatic=False))
    for settings in (SETTINGS, manual):
        found = [voucher(result, settings) for result in generated_set()]
        data = extf.write(BATCH, [v for v in found if isinstance(v, Voucher)])
        for line in data.decode("cp1252").split("\r\n")[2:-1]:
            fields = _fields(line)
            for number, expression in EXPRESSIONS.items():
                value = fields[number - 1]
                assert value == "" or re.fullmatch(expression, value), (number, value)
            assert all(not value for n, value in enumerate(fields, 1) if n not in EXPRESSIONS)

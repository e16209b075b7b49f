"""Numbers, amounts and dates in the company's locale (the Jinja filters' code)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal

import pytest

from api.web.formats import format_date, format_datetime, format_money, format_number


@pytest.mark.parametrize(
    ("amount", "de", "en"),
    [
        ("1234.56", "1.234,56 EUR", "1,234.56 EUR"),
        (Decimal("1234567.5"), "1.234.567,50 EUR", "1,234,567.50 EUR"),
        (19, "19,00 EUR", "19.00 EUR"),
        (-0.5, "-0,50 EUR", "-0.50 EUR"),
        ("0.125", "0,125 EUR", "0.125 EUR"),
    ],
)
def test_money(amount: object, de: str, en: str) -> None:
    assert format_money(amount, "EUR", "de") == de
    assert format_money(amount, "EUR", "en") == en


def test_money_without_currency_and_unreadable_amounts() -> None:
    assert format_money("10", None, "de") == "10,00"
    assert format_money(None, "EUR", "de") == ""
    assert format_money("n/a", "EUR", "en") == "n/a"
    assert format_money("NaN", "EUR", "en") == "NaN"


def test_numbers_keep_their_own_precision() -> None:
    assert format_number(1234567, "de") == "1.234.567"
    assert format_number("1234.5", "en") == "1,234.5"
    assert format_number(True, "en") == ""


@pytest.mark.parametrize("value", [date(2015, 1, 9), "2015-01-09", datetime(2015, 1, 9, 23, 0)])
def test_dates(value: object) -> None:
    assert format_date(value, "de") == "09.01.2015"
    assert format_date(value, "en") == "2015-01-09"


def test_datetimes_are_shown_in_utc() -> None:
    moment = datetime(2015, 1, 9, 14, 3, 59, tzinfo=UTC)
    assert format_datetime(moment, "de") == "09.01.2015 14:03"
    assert format_datetime(moment, "en") == "2015-01-09 14:03"
    assert format_datetime("2015-01-09T15:03:00+01:00", "de") == "09.01.2015 14:03"
    assert format_datetime("2015-01-09T14:03:00Z", "en") == "2015-01-09 14:03"
    assert format_date("not a date", "de") == "not a date"

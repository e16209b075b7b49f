"""Numbers, amounts and dates in the company's locale: de 1.234,56 and 09.01.2015,
en 1,234.56 and 2015-01-09. Amounts arrive as Decimal text, numbers or Decimals."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal, InvalidOperation

DATE_FORMATS = {"de": "%d.%m.%Y", "en": "%Y-%m-%d"}
TIME_FORMAT = "%H:%M"


def to_decimal(value: object) -> Decimal | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, Decimal):
        return value if value.is_finite() else None
    if isinstance(value, int | float | str):
        try:
            number = Decimal(str(value).strip())
        except InvalidOperation:
            return None
        return number if number.is_finite() else None
    return None


def format_decimal(value: Decimal, locale: str, min_places: int = 0) -> str:
    exponent = value.as_tuple().exponent
    places = max(min_places, -exponent if isinstance(exponent, int) and exponent < 0 else 0)
    text = f"{value:,.{places}f}"
    if locale == "de":
        text = text.replace(",", "\0").replace(".", ",").replace("\0", ".")
    return text


def format_number(value: object, locale: str) -> str:
    number = to_decimal(value)
    return "" if number is None else format_decimal(number, locale)


def format_money(amount: object, currency: object, locale: str) -> str:
    number = to_decimal(amount)
    if number is None:
        return "" if amount is None else str(amount)
    text = format_decimal(number, locale, min_places=2)
    return f"{text} {currency}" if currency else text


def to_date(value: object) -> date | None:
    if isinstance(value, datetime):
        return value.astimezone(UTC).date() if value.tzinfo else value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip()[:10])
        except ValueError:
            return None
    return None


def format_date(value: object, locale: str) -> str:
    day = to_date(value)
    if day is None:
        return "" if value is None else str(value)
    return day.strftime(DATE_FORMATS.get(locale, DATE_FORMATS["de"]))


def format_datetime(value: object, locale: str) -> str:
    """UTC, to the minute (the page says times are UTC)."""
    moment = value
    if isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            return value
    if not isinstance(moment, datetime):
        return "" if value is None else str(value)
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    day_format = DATE_FORMATS.get(locale, DATE_FORMATS["de"])
    return moment.strftime(f"{day_format} {TIME_FORMAT}")

"""Numbers, amounts and dates in the company's locale: de 1.234,56 and 09.01.2015,
en 1,234.56 and 2015-01-09. Amounts arrive as Decimal text, numbers or Decimals. Times
are shown in the company's time zone (api/web/time_zones.py); sizes as 1,5 MB."""

from __future__ import annotations

from datetime import UTC, date, datetime, tzinfo
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


def to_date(value: object, zone: tzinfo = UTC) -> date | None:
    """A date, or a moment's day in `zone` (a naive moment is taken as UTC)."""
    if isinstance(value, datetime):
        return _aware(value).astimezone(zone).date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip()[:10])
        except ValueError:
            return None
    return None


def format_date(value: object, locale: str, zone: tzinfo = UTC) -> str:
    day = to_date(value, zone)
    if day is None:
        return "" if value is None else str(value)
    return day.strftime(DATE_FORMATS.get(locale, DATE_FORMATS["de"]))


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def format_datetime(value: object, locale: str, zone: tzinfo = UTC) -> str:
    """To the minute, in `zone` (stored times are UTC; a naive one is taken as UTC)."""
    moment = value
    if isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            return value
    if not isinstance(moment, datetime):
        return "" if value is None else str(value)
    day_format = DATE_FORMATS.get(locale, DATE_FORMATS["de"])
    return _aware(moment).astimezone(zone).strftime(f"{day_format} {TIME_FORMAT}")


SIZE_UNITS = ("KB", "MB", "GB", "TB")
SIZE_STEP = 1024  # as file managers count: 1.588.325 bytes are 1,5 MB


def format_size(value: object, locale: str) -> str:
    """A file size for people: 1.588.325 bytes as "1,5 MB" (de) or "1.5 MB" (en); one
    place below 10, whole numbers from there; under 1 KB in bytes."""
    number = to_decimal(value)
    if number is None:
        return "" if value is None else str(value)
    if abs(number) < SIZE_STEP:
        unit = "Byte" if locale == "de" else ("byte" if number == 1 else "bytes")
        return f"{format_decimal(number.quantize(Decimal(1)), locale)} {unit}"
    scaled = number
    for unit in SIZE_UNITS:
        scaled = scaled / SIZE_STEP
        if abs(scaled) < Decimal("999.5") or unit == SIZE_UNITS[-1]:
            break
    places = Decimal("0.1") if abs(scaled) < Decimal("9.95") else Decimal(1)
    return f"{format_decimal(scaled.quantize(places), locale)} {unit}"

"""The company's time zone: times on every page are shown in it (Europe/Berlin unless
the company chose another IANA zone in its settings). Stored times stay UTC."""

from __future__ import annotations

from datetime import date, datetime, time
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

DEFAULT_TIME_ZONE = "Europe/Berlin"


@cache
def time_zone_names() -> tuple[str, ...]:
    """The zones offered in the settings: region/city names and UTC, sorted."""
    names = {name for name in available_timezones() if "/" in name and _regional(name)}
    return tuple(sorted(names | {"UTC"}))


def _regional(name: str) -> bool:
    return not name.startswith(("Etc/", "SystemV/", "posix/", "right/"))


def known_time_zone(text: str) -> str | None:
    """The zone's proper name for `text` (case does not matter), None when unknown."""
    wanted = text.strip().casefold()
    return next((name for name in time_zone_names() if name.casefold() == wanted), None)


@cache
def zone(name: str | None) -> ZoneInfo:
    """The zone by name; an unknown or missing name (never stored, but a zone database
    can lose one) falls back to the default."""
    try:
        return ZoneInfo(name or DEFAULT_TIME_ZONE)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(DEFAULT_TIME_ZONE)


def start_of_day(day: date, zone_name: str | None) -> datetime:
    """Midnight of a day of the company's calendar, as an aware datetime."""
    return datetime.combine(day, time(), tzinfo=zone(zone_name))

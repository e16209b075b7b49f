"""Small typed readers for values inside an lxml tree."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from decimal import Decimal, InvalidOperation

from lxml import etree


def nodes(context: etree._Element, path: str, ns: Mapping[str, str]) -> list[etree._Element]:
    found = context.xpath(path, namespaces=dict(ns))
    assert isinstance(found, list)
    return [node for node in found if isinstance(node, etree._Element)]


def first(
    context: etree._Element | None, path: str, ns: Mapping[str, str]
) -> etree._Element | None:
    if context is None:
        return None
    found = nodes(context, path, ns)
    return found[0] if found else None


def text(context: etree._Element | None, path: str, ns: Mapping[str, str]) -> str | None:
    node = first(context, path, ns)
    if node is None or node.text is None:
        return None
    value = " ".join(node.text.split())
    return value or None


def amount(context: etree._Element | None, path: str, ns: Mapping[str, str]) -> Decimal | None:
    return to_decimal(text(context, path, ns))


def to_decimal(value: str | None) -> Decimal | None:
    if value is None:
        return None
    try:
        return Decimal(value.strip())
    except InvalidOperation:
        return None


def to_date(value: str | None) -> date | None:
    """ISO dates (UBL) and UN/CEFACT format 102 (CCYYMMDD)."""
    if value is None:
        return None
    digits = value.strip()
    try:
        if len(digits) == 8 and digits.isdigit():
            return date(int(digits[:4]), int(digits[4:6]), int(digits[6:]))
        return date.fromisoformat(digits[:10])
    except ValueError:
        return None

"""A line's unit code in words, in the page's language: `C62` with quantity 3 is "Stück"
in German and "units" in English (api/web/unit_codes.py, generated from
api/web/data/unit_codes.tsv). A code not in the list is shown as it is."""

from __future__ import annotations

from api.web.formats import to_decimal
from api.web.unit_codes import UNIT_NAMES


def unit_name(code: str | None, quantity: object, locale: str) -> str:
    if not code:
        return ""
    names = UNIT_NAMES.get(code.strip().upper())
    if names is None:
        return code
    en_one, en_other, de_one, de_other = names
    one = to_decimal(quantity) in (1, -1)
    if locale == "de":
        return de_one if one else de_other
    return en_one if one else en_other

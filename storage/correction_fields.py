"""The fields of a PDF invoice an accountant may correct, where each sits in the stored
result's data, how a typed-in value is read, and the data with the corrections applied
(pure: dicts in, dicts out). The stored data is never changed: it is the original
extraction; corrections are rows of their own (storage/repositories/invoice_corrections.py).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterable, Mapping
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from processors.invoice_model import PaymentMeans
from processors.json_fields import to_json
from processors.text_values import iban_valid
from storage.errors import ValidationFailed

MAX_TEXT = 200

# field -> (path in the result's data, kind of value)
FIELDS: dict[str, tuple[tuple[str, ...], str]] = {
    "number": (("invoice", "number"), "text"),
    "issue_date": (("invoice", "issueDate"), "date"),
    "due_date": (("invoice", "dueDate"), "date"),
    "seller_name": (("invoice", "seller", "name"), "text"),
    "seller_vat_id": (("invoice", "seller", "vatId"), "vat_id"),
    "buyer_name": (("invoice", "buyer", "name"), "text"),
    "buyer_vat_id": (("invoice", "buyer", "vatId"), "vat_id"),
    "net": (("invoice", "totals", "net"), "amount"),
    "vat": (("invoice", "totals", "vat"), "amount"),
    "gross": (("invoice", "totals", "gross"), "amount"),
    "amount_due": (("invoice", "totals", "amountDue"), "amount"),
    "iban": (("invoice", "paymentMeans", "0", "payeeIban"), "iban"),
}


def read_value(field: str, raw: str) -> str | None:
    """The typed-in value as stored (the data's own notation); empty clears the field.
    Raises ValidationFailed for an unknown field or a value that does not fit it."""
    if field not in FIELDS:
        raise ValidationFailed("unknown field")
    text = raw.strip()
    if not text:
        return None
    if len(text) > MAX_TEXT:
        raise ValidationFailed(f"at most {MAX_TEXT} characters")
    return _READERS[FIELDS[field][1]](text)


def _date(text: str) -> str:
    german = re.fullmatch(r"(\d{1,2})\.(\d{1,2})\.(\d{4})", text)
    try:
        if german:
            day, month, year = (int(part) for part in german.groups())
            return date(year, month, day).isoformat()
        return date.fromisoformat(text).isoformat()
    except ValueError:
        raise ValidationFailed("not a date (YYYY-MM-DD or DD.MM.YYYY)") from None


def _amount(text: str) -> str:
    cleaned = text.replace(" ", "")
    if "," in cleaned:  # German: 1.234,56
        cleaned = cleaned.replace(".", "").replace(",", ".")
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        raise ValidationFailed("not an amount") from None
    if not value.is_finite() or abs(value) >= Decimal(10) ** 15:
        raise ValidationFailed("not an amount")
    return str(value)


def _iban(text: str) -> str:
    compact = re.sub(r"\s", "", text).upper()
    if not iban_valid(compact):
        raise ValidationFailed("not a valid IBAN")
    return compact


def _vat_id(text: str) -> str:
    compact = re.sub(r"[\s.\-]", "", text).upper()
    if not re.fullmatch(r"[A-Z]{2}[0-9A-Z+*]{2,13}", compact):
        raise ValidationFailed("not a VAT id (country code and number)")
    return compact


_READERS: dict[str, Callable[[str], str]] = {
    "text": str,
    "date": _date,
    "amount": _amount,
    "iban": _iban,
    "vat_id": _vat_id,
}


def value_of(data: Mapping[str, Any], field: str) -> str | None:
    """The field's value in the data, as text (None when absent)."""
    node: Any = data
    for step in FIELDS[field][0]:
        if isinstance(node, list):
            node = node[int(step)] if step.isdigit() and int(step) < len(node) else None
        elif isinstance(node, Mapping):
            node = node.get(step)
        else:
            return None
    return None if node is None else str(node)


def corrected(data: Mapping[str, Any], values: Iterable[tuple[str, str | None]]) -> dict[str, Any]:
    """A copy of the data with each (field, value) set, in order (the last one wins)."""
    copied: dict[str, Any] = copy.deepcopy(dict(data))
    for field, value in values:
        *parents, last = FIELDS[field][0]
        node: Any = copied
        for step in parents:
            node = _child(node, step)
        node[last] = value
    return copied


def _child(node: Any, step: str) -> Any:
    if isinstance(node, list):  # the payment means: the first, made when there is none
        if not node:
            node.append(to_json(PaymentMeans()))
        return node[int(step)]
    if not isinstance(node.get(step), (dict, list)):
        node[step] = [] if step == "paymentMeans" else {}
    return node[step]

"""Frozen result dataclasses to the JSON stored with a result, and back.

A field's key is its name in camelCase unless it says otherwise (`json_key`). A field
marked `OMITTED_WHEN_NONE` leaves its key out while it holds None: keys only some
documents carry (an OCR summary, a template flag); one marked `omitted_with(other)`
leaves it out while `other` is None (a pair of keys that come together). Amounts are
Decimal text (no precision lost), dates ISO 8601, enums their value, tuples lists.

Reading back is lenient about what older results lack: a missing key takes the field's
default, or None where None is allowed. A missing required key, or a value of the wrong
kind, raises `ResultShapeError`.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Mapping
from datetime import date
from decimal import Decimal, InvalidOperation
from enum import Enum
from typing import Any, TypeVar, Union, get_args, get_origin, get_type_hints

T = TypeVar("T")

OMITTED_WHEN_NONE: Mapping[str, Any] = {"omitted_when_none": True}


def omitted_with(other: str) -> Mapping[str, Any]:
    """Field metadata: leave the key out while the field `other` holds None."""
    return {"omitted_with": other}


def json_key(key: str) -> Mapping[str, Any]:
    """Field metadata: store the field under `key` (older shapes use snake_case)."""
    return {"json_key": key}


class ResultShapeError(ValueError):
    """Stored result data that does not fit its type."""


def to_json(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            field_key(f): to_json(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if not _omitted(f, value)
        }
    if isinstance(value, tuple | list):
        return [to_json(item) for item in value]
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Enum):
        return value.value
    return value


def from_json(cls: type[T], raw: Any) -> T:
    if not isinstance(raw, Mapping):
        raise ResultShapeError(f"{cls.__name__}: expected an object, got {type(raw).__name__}")
    hints = _hints(cls)
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        key = field_key(f)
        if key in raw:
            values[f.name] = _read(hints[f.name], raw[key], f"{cls.__name__}.{key}")
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            if not _allows_none(hints[f.name]):
                raise ResultShapeError(f"{cls.__name__}: the key {key!r} is missing")
            values[f.name] = None
    return cls(**values)


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


def _omitted(f: dataclasses.Field[Any], value: Any) -> bool:
    if f.metadata.get("omitted_when_none"):
        return getattr(value, f.name) is None
    other = f.metadata.get("omitted_with")
    return other is not None and getattr(value, other) is None


def field_key(f: dataclasses.Field[Any]) -> str:
    """The field's key in the JSON."""
    return str(f.metadata.get("json_key") or camel(f.name))


def may_be_omitted(f: dataclasses.Field[Any]) -> bool:
    """Whether the field's key is left out of some results (every other key is always
    written, null or not)."""
    return bool(f.metadata.get("omitted_when_none") or f.metadata.get("omitted_with"))


_hints_of: dict[type[Any], dict[str, Any]] = {}


def _hints(cls: type[Any]) -> dict[str, Any]:
    if cls not in _hints_of:
        _hints_of[cls] = get_type_hints(cls)
    return _hints_of[cls]


def _allows_none(hint: Any) -> bool:
    return get_origin(hint) in (Union, types.UnionType) and type(None) in get_args(hint)


def _read(hint: Any, value: Any, where: str) -> Any:
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        if value is None:
            return None
        (inner,) = [arg for arg in get_args(hint) if arg is not type(None)]
        return _read(inner, value, where)
    if origin is tuple:
        if not isinstance(value, list):
            raise ResultShapeError(f"{where}: expected a list")
        return tuple(_read(get_args(hint)[0], item, where) for item in value)
    if value is None or hint is Any or origin is dict:
        return value
    return _read_scalar(hint, value, where)


def _read_scalar(hint: type[Any], value: Any, where: str) -> Any:
    try:
        if dataclasses.is_dataclass(hint):
            return from_json(hint, value)
        if hint is Decimal:
            return Decimal(str(value))
        if hint is date:
            return date.fromisoformat(str(value))
        if issubclass(hint, Enum):
            return hint(value)
    except (InvalidOperation, ValueError) as exc:
        raise ResultShapeError(f"{where}: {value!r} is not a {hint.__name__}") from exc
    if not isinstance(value, hint) and not (hint is float and isinstance(value, int)):
        raise ResultShapeError(f"{where}: {value!r} is not a {hint.__name__}")
    return value

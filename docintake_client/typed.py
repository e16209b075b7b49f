"""JSON to the generated result models (docintake_client/result_models.py), by their
own field types: `metadata["key"]` names the JSON key. Keys the models do not know are
ignored, so a client keeps reading results that gained fields (within a version)."""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Mapping
from datetime import date
from decimal import Decimal
from functools import cache
from typing import Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

T = TypeVar("T")


@cache
def _hints(cls: type[Any]) -> dict[str, Any]:
    return get_type_hints(cls)


def parse_object(cls: type[T], data: Mapping[str, Any]) -> T:
    hints = _hints(cls)  # type: ignore[arg-type]
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        key = f.metadata["key"]
        if key in data:
            values[f.name] = parse_as(hints[f.name], data[key])
        elif f.default is dataclasses.MISSING:
            raise ValueError(f"{cls.__name__}: the answer lacks {key!r}")
    return cls(**values)


def parse_as(hint: Any, value: Any) -> Any:
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        options = [arg for arg in get_args(hint) if arg is not type(None)]
        if value is None:
            return None
        return parse_as(options[0] if len(options) == 1 else _pick(options, value), value)
    if origin is tuple:
        return tuple(parse_as(get_args(hint)[0], item) for item in value)
    if dataclasses.is_dataclass(hint):
        return parse_object(hint, value)  # type: ignore[arg-type]
    if hint is Decimal:
        return Decimal(str(value))
    if hint is date:
        return date.fromisoformat(value)
    return value


def _pick(options: list[Any], value: Mapping[str, Any]) -> Any:
    """The model of a union that `value` is: the one its `type` names, else the one
    with all its required keys present and the most of its keys."""
    for option in options:
        wanted = _hints(option).get("type")
        if get_origin(wanted) is Literal and value.get("type") in get_args(wanted):
            return option
    fitting = [
        option
        for option in options
        if all(
            f.metadata["key"] in value
            for f in dataclasses.fields(option)
            if f.default is dataclasses.MISSING
        )
    ]
    if not fitting:
        raise ValueError(f"no model of {[o.__name__ for o in options]} fits the answer")
    return max(
        fitting, key=lambda o: sum(f.metadata["key"] in value for f in dataclasses.fields(o))
    )

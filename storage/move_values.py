"""The values a move (storage/upload_moves.py) gives a column, each readable two ways: in
Python from one row as it was (`of_row`), and as the SQL expression of a SET clause over
the same row (`sql`). Both ways compute from the row before the move, as SQL does."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import ColumnElement, String, Table, case, cast, func, literal
from sqlalchemy.types import Integer, TypeEngine

# A move's argument as SQL: its value, or one value per row (storage/repositories/upload_groups.py).
SqlArg = Callable[[str, TypeEngine[Any]], ColumnElement[Any]]


class Value(Protocol):
    def of_row(self, row: Any, args: Mapping[str, Any]) -> Any: ...

    def sql(self, table: Table, arg: SqlArg, type_: TypeEngine[Any]) -> ColumnElement[Any]: ...


@dataclass(frozen=True)
class Const:
    value: Any

    def of_row(self, row: Any, args: Mapping[str, Any]) -> Any:
        return self.value

    def sql(self, table: Table, arg: SqlArg, type_: TypeEngine[Any]) -> ColumnElement[Any]:
        # None through the column's type, as the ORM writes it (JSON: `null`, not NULL).
        return literal(self.value, type_)


NULL = Const(None)


@dataclass(frozen=True)
class Arg:
    """The move's argument of this name."""

    name: str

    def of_row(self, row: Any, args: Mapping[str, Any]) -> Any:
        return args[self.name]

    def sql(self, table: Table, arg: SqlArg, type_: TypeEngine[Any]) -> ColumnElement[Any]:
        return arg(self.name, type_)


@dataclass(frozen=True)
class Col:
    """The column's value before the move."""

    name: str

    def of_row(self, row: Any, args: Mapping[str, Any]) -> Any:
        return getattr(row, self.name)

    def sql(self, table: Table, arg: SqlArg, type_: TypeEngine[Any]) -> ColumnElement[Any]:
        return table.c[self.name]


@dataclass(frozen=True)
class Plus:
    value: Value
    add: int

    def of_row(self, row: Any, args: Mapping[str, Any]) -> Any:
        return self.value.of_row(row, args) + self.add

    def sql(self, table: Table, arg: SqlArg, type_: TypeEngine[Any]) -> ColumnElement[Any]:
        return self.value.sql(table, arg, Integer()) + self.add


@dataclass(frozen=True)
class Floor0:
    """The value, but never below 0."""

    value: Value

    def of_row(self, row: Any, args: Mapping[str, Any]) -> Any:
        return max(0, self.value.of_row(row, args))

    def sql(self, table: Table, arg: SqlArg, type_: TypeEngine[Any]) -> ColumnElement[Any]:
        inner = self.value.sql(table, arg, Integer())
        return case((inner > 0, inner), else_=literal(0, Integer()))


@dataclass(frozen=True)
class Text:
    """Words and values, joined into one string."""

    parts: tuple[str | Value, ...]

    def __init__(self, *parts: str | Value) -> None:
        object.__setattr__(self, "parts", parts)

    def of_row(self, row: Any, args: Mapping[str, Any]) -> Any:
        return "".join(p if isinstance(p, str) else str(p.of_row(row, args)) for p in self.parts)

    def sql(self, table: Table, arg: SqlArg, type_: TypeEngine[Any]) -> ColumnElement[Any]:
        pieces: list[ColumnElement[str]] = [
            literal(p, String())
            if isinstance(p, str)
            else cast(p.sql(table, arg, String()), String())
            for p in self.parts
        ]
        joined = pieces[0]
        for piece in pieces[1:]:
            joined = joined + piece
        return joined


@dataclass(frozen=True)
class Cut:
    """A string cut to at most `length` characters."""

    value: Value
    length: int

    def of_row(self, row: Any, args: Mapping[str, Any]) -> Any:
        value = self.value.of_row(row, args)
        return value[: self.length] if isinstance(value, str) else value

    def sql(self, table: Table, arg: SqlArg, type_: TypeEngine[Any]) -> ColumnElement[Any]:
        return func.substr(self.value.sql(table, arg, type_), 1, self.length, type_=type_)


@dataclass(frozen=True)
class Below:
    """A branch's guard: the value is below the limit."""

    value: Value
    limit: int

    def holds(self, row: Any, args: Mapping[str, Any]) -> bool:
        return bool(self.value.of_row(row, args) < self.limit)

    def sql(self, table: Table, arg: SqlArg) -> ColumnElement[bool]:
        return self.value.sql(table, arg, Integer()) < self.limit

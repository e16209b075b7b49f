"""What the inbox shows of each listed result: a few scalars of its data (supplier,
number, date, gross, what decides its verdict), picked out by the database in one
query for the page's results. The result's JSON never travels to Python: each row's
document is parsed once by the database (SQLite: one `json_extract` with every path,
Postgres: one cast to jsonb), and only the picked values come back."""

from __future__ import annotations

import json
import uuid
from collections.abc import Collection, Mapping
from typing import Any

from sqlalchemy import bindparam, text
from sqlalchemy.orm import Session

# The paths picked, in the order the values come back. Constants: the SQL is built once.
GLANCE_PATHS: tuple[tuple[str, ...], ...] = (
    ("direction",),
    ("directionUncertain",),
    ("directionMismatch",),
    ("invoice", "seller", "name"),
    ("invoice", "buyer", "name"),
    ("invoice", "number"),
    ("invoice", "issueDate"),
    ("invoice", "totals", "gross"),
    ("invoice", "currency"),
    ("validation", "valid"),
    ("checks", "totals"),
    ("checks", "needsReview"),
    ("hybridCheck", "mismatches"),
    ("statement", "accountIban"),
    ("statement", "number"),
    ("statement", "periodEnd"),
    ("statement", "closingBalance"),
    ("statement", "currency"),
    ("reconciled",),
    ("kind",),
    ("numberOfTransactions",),
    ("controlSum",),
    ("payments", "0", "currency"),
)
GLANCE_KEYS = tuple(".".join(path) for path in GLANCE_PATHS)


def _sqlite_path(path: tuple[str, ...]) -> str:
    return "'$" + "".join(f"[{p}]" if p.isdigit() else f".{p}" for p in path) + "'"


_SQLITE = text(
    "SELECT id, json_extract(data, "
    + ", ".join(_sqlite_path(path) for path in GLANCE_PATHS)
    + ") FROM results WHERE company_id = :company AND id IN :ids AND deleted_at IS NULL"
).bindparams(bindparam("ids", expanding=True))
# OFFSET 0 keeps the subquery from being folded into the outer one, which would cast
# the document once per path.
_POSTGRES = text(
    "SELECT id, jsonb_build_array("
    + ", ".join("d #> '{" + ",".join(path) + "}'" for path in GLANCE_PATHS)
    + ") FROM (SELECT id, data::jsonb AS d FROM results"
    " WHERE company_id = :company AND id IN :ids AND deleted_at IS NULL OFFSET 0) AS r"
).bindparams(bindparam("ids", expanding=True))


def result_glances(
    session: Session, company_id: uuid.UUID, result_ids: Collection[uuid.UUID]
) -> dict[uuid.UUID, Mapping[str, Any]]:
    """Result id -> {dotted path: value} for the company's live results among `result_ids`
    (a value is None where the result has no such path)."""
    if not result_ids:
        return {}
    postgres = session.get_bind().dialect.name == "postgresql"
    statement = _POSTGRES if postgres else _SQLITE
    ids = [key if postgres else key.hex for key in result_ids]
    rows = session.execute(statement, {"company": _key(company_id, postgres), "ids": ids})
    glances: dict[uuid.UUID, Mapping[str, Any]] = {}
    for row_id, values in rows:
        picked = json.loads(values) if isinstance(values, str) else values
        glances[uuid.UUID(str(row_id))] = dict(zip(GLANCE_KEYS, picked, strict=True))
    return glances


def _key(value: uuid.UUID, postgres: bool) -> uuid.UUID | str:
    # SQLAlchemy's Uuid type stores 32 hex digits on SQLite; a text() query binds raw.
    return value if postgres else value.hex

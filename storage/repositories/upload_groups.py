"""The named moves (storage/upload_moves.py) on a group of uploads at once, in Core: per
branch and starting state one `UPDATE uploads ... WHERE id IN (...) AND status = ...
RETURNING`, its history rows in one executemany, and the outbox notes of the rows that
reached a terminal status (written at commit, storage/webhook_outbox.py). No row is
loaded as an ORM object: the recorder books a group of outcomes and a claim takes a
group of uploads in a handful of statements, whatever the group's size.

A row that is not in a state the move starts from is left alone (the one-object form
raises InvalidTransition instead): the caller sees which rows moved in the answer.
Rows an ORM session holds are not refreshed; use this on rows the session has not
loaded.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import (
    ColumnElement,
    Row,
    Select,
    Table,
    case,
    insert,
    literal,
    not_,
    select,
    update,
)
from sqlalchemy.orm import Session
from sqlalchemy.types import TypeEngine

from storage.models import StatusChange, Upload, utcnow
from storage.states import UploadStatus
from storage.upload_moves import Branch, Move
from storage.webhook_outbox import UPLOAD_EVENTS, note_moved_uploads

_uploads = cast(Table, Upload.__table__)
_history = cast(Table, StatusChange.__table__)


@dataclass(frozen=True, slots=True)
class PerRow:
    """A move's argument with a value of its own for each upload (id -> value)."""

    values: Mapping[uuid.UUID, Any]


def _bound(value: Any, type_: TypeEngine[Any]) -> ColumnElement[Any]:
    # None through the column's type, as the ORM writes it (JSON: `null`, not NULL).
    return literal(value, type_)


def _sql_arg(args: Mapping[str, Any]) -> Any:
    def arg(name: str, type_: TypeEngine[Any]) -> ColumnElement[Any]:
        value = args[name]
        if not isinstance(value, PerRow):
            return _bound(value, type_)
        whens = {upload_id: _bound(each, type_) for upload_id, each in value.values.items()}
        return case(whens, value=_uploads.c.id, else_=_bound(None, type_))

    return arg


def move_group(
    session: Session,
    move: Move,
    ids: Collection[uuid.UUID] | Select[Any],
    *,
    sources: Sequence[UploadStatus] | None = None,
    returning: Sequence[ColumnElement[Any]] = (),
    **args: Any,
) -> list[Row[Any]]:
    """Run `move` on the uploads `ids` (a list, or a statement selecting them) that are
    in one of its starting states (`sources`: only some of them, one statement less
    each). Returns a row per upload moved: `id`, `company_id`, `status` (the new one)
    and the `returning` columns."""
    if not isinstance(ids, Select) and not ids:
        return []
    arg, now = _sql_arg(args), utcnow()
    if isinstance(ids, Select):
        # Chosen once, before the update: as a plain `IN (subquery)` Postgres may run a
        # subquery with LIMIT and SKIP LOCKED again for the rows it joins, and take more.
        chosen = ids.cte("chosen").prefix_with("MATERIALIZED", dialect="postgresql")
        ids = select(chosen.c[0])
    starts = move.sources if sources is None else sources
    assert set(starts) <= set(move.sources), (move.name, starts)
    moved: list[Row[Any]] = []
    taken: list[ColumnElement[bool]] = []  # the guards of the branches before
    for branch in move.branches:
        guard = branch.when.sql(_uploads, arg) if branch.when is not None else None
        for source in starts:
            where = [_uploads.c.id.in_(ids), _uploads.c.status == source]
            where += [not_(earlier) for earlier in taken]
            if guard is not None:
                where.append(guard)
            statement = (
                update(_uploads)
                .where(*where)
                .values(_values(branch, arg) | {"updated_at": now})
                .returning(_uploads.c.id, _uploads.c.company_id, _uploads.c.status, *returning)
            )
            rows = session.execute(statement).all()
            _note(session, branch, source, rows, now)
            moved += rows
        if guard is not None:
            taken.append(guard)
    return moved


def _values(branch: Branch, arg: Any) -> dict[str, Any]:
    values = {
        column: value.sql(_uploads, arg, _uploads.c[column].type)
        for column, value in branch.sets.items()
    }
    if branch.event is None:
        values["status"] = literal(branch.target.value, _uploads.c.status.type)
    return values


def _note(
    session: Session, branch: Branch, source: UploadStatus, rows: Sequence[Row[Any]], now: Any
) -> None:
    """The history rows of the moved uploads, and their outbox notes."""
    if not rows:
        return
    to_status = source if branch.event is not None else branch.target
    history = [
        {
            "upload_id": row.id,
            "from_status": source.value,
            "to_status": to_status.value,
            "at": now,
            "event": branch.event.value if branch.event is not None else None,
        }
        for row in rows
    ]
    session.execute(insert(_history), history)
    if branch.event is None and branch.target in UPLOAD_EVENTS:
        note_moved_uploads(session, {row.id: row.company_id for row in rows})

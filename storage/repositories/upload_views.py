"""What polling and the web's upload lists read: the columns an upload resource shows, in
one query with its result's type. No ORM objects and no result data (invoice JSON can be
large), so a batch of 100 uploads or an inbox page is one cheap query."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, FromClause, Row, Select, and_, bindparam, or_, select
from sqlalchemy.orm import Session

from storage.models import ApiKey, Batch, Result, Upload
from storage.repositories.api_keys import ActiveKey, find_active_key, hash_key
from storage.repositories.result_search import matching_results
from storage.search_text import SearchTerm
from storage.states import UploadStatus


@dataclass(frozen=True, slots=True)
class UploadView:
    id: uuid.UUID
    batch_id: uuid.UUID | None
    external_id: str | None
    file_name: str
    document_type: str
    status: str
    error_code: str | None
    error_message: str | None
    created_at: datetime
    result_id: uuid.UUID | None
    result_type: str | None

    @classmethod
    def of(cls, upload: Upload, result_type: str | None) -> UploadView:
        return cls(
            id=upload.id,
            batch_id=upload.batch_id,
            external_id=upload.external_id,
            file_name=upload.file_name,
            document_type=upload.document_type,
            status=upload.status,
            error_code=upload.error_code,
            error_message=upload.error_message,
            created_at=upload.created_at,
            result_id=upload.result_id,
            result_type=result_type,
        )


def _views() -> Select[tuple[Any, ...]]:
    return select(
        Upload.id,
        Upload.batch_id,
        Upload.external_id,
        Upload.file_name,
        Upload.document_type,
        Upload.status,
        Upload.error_code,
        Upload.error_message,
        Upload.created_at,
        Upload.result_id,
        Result.type,
    ).outerjoin(Result, Result.id == Upload.result_id)


# The polling reads run hundreds of times a second: built once, from the tables (Core,
# no ORM execution), with bound parameters, so each request only binds values instead
# of building, coercing and cache-keying a new statement (a third of a poll's CPU).
_uploads, _results, _batches = Upload.__table__, Result.__table__, Batch.__table__
_VIEWS = select(
    _uploads.c.id,
    _uploads.c.batch_id,
    _uploads.c.external_id,
    _uploads.c.file_name,
    _uploads.c.document_type,
    _uploads.c.status,
    _uploads.c.error_code,
    _uploads.c.error_message,
    _uploads.c.created_at,
    _uploads.c.result_id,
    _results.c.type,
).select_from(_uploads.outerjoin(_results, _results.c.id == _uploads.c.result_id))
# A poll's key and its resource in one statement (one round trip less): the active key's
# row, with the resource's columns when the key's company has it (NULL otherwise). No
# row: no such active key.
_keys = ApiKey.__table__
_ACTIVE_KEYS = _keys.c.key_hash == bindparam("key_hash"), _keys.c.revoked_at.is_(None)
_KEY_COLUMNS = _keys.c.id, _keys.c.company_id, _keys.c.last_used_at


def _of_the_key(table: FromClause, id_parameter: str) -> ColumnElement[bool]:
    """The row with this id, if it belongs to the API key's company."""
    return and_(table.c.id == bindparam(id_parameter), table.c.company_id == _keys.c.company_id)


_KEYED_UPLOAD_VIEW = (
    select(*_KEY_COLUMNS, *_VIEWS.selected_columns)
    .select_from(
        _keys.outerjoin(_uploads, _of_the_key(_uploads, "upload_id")).outerjoin(
            _results, _results.c.id == _uploads.c.result_id
        )
    )
    .where(*_ACTIVE_KEYS)
)
_BATCH_VIEWS = _VIEWS.where(_uploads.c.batch_id == bindparam("batch_id")).order_by(
    _uploads.c.position, _uploads.c.id
)
_KEYED_BATCH_HEAD = (
    select(
        *_KEY_COLUMNS,
        _batches.c.id,
        _batches.c.external_id,
        _batches.c.document_type,
        _batches.c.unpack_state,
        _batches.c.created_at,
        _batches.c.source_type,
        _batches.c.mail_from,
        _batches.c.mail_subject,
        _batches.c.message_id,
        _batches.c.received_at,
    )
    .select_from(_keys.outerjoin(_batches, _of_the_key(_batches, "batch_id")))
    .where(*_ACTIVE_KEYS)
)
_KEY_WIDTH = len(_KEY_COLUMNS)


def _key_and_rest(row: Row[Any] | None) -> tuple[ActiveKey | None, Sequence[Any] | None]:
    if row is None:
        return None, None
    rest = row[_KEY_WIDTH:]
    return ActiveKey(*row[:_KEY_WIDTH]), rest if rest[0] is not None else None


def keyed_upload_view(
    session: Session, api_key: str, upload_id: uuid.UUID | None
) -> tuple[ActiveKey | None, UploadView | None]:
    """The active key of `api_key` (None: unknown or revoked) and its company's upload
    `upload_id` (None: not there, or no id)."""
    if upload_id is None:
        return find_active_key(session, api_key), None
    parameters = {"key_hash": hash_key(api_key), "upload_id": upload_id}
    key, rest = _key_and_rest(session.execute(_KEYED_UPLOAD_VIEW, parameters).one_or_none())
    return key, UploadView(*rest) if rest is not None else None


def view_of(session: Session, upload: Upload) -> UploadView:
    """The view of an upload already in hand (just created or claimed)."""
    result_type = (
        session.scalar(select(Result.type).where(Result.id == upload.result_id))
        if upload.result_id
        else None
    )
    return UploadView.of(upload, result_type)


_VIEWS_BY_ID = _VIEWS.where(_uploads.c.id.in_(bindparam("ids", expanding=True))).order_by(
    _uploads.c.id
)


def views_by_id(
    session: Session, companies: Mapping[uuid.UUID, uuid.UUID]
) -> list[tuple[uuid.UUID, UploadView]]:
    """The uploads (id -> company id) as their company and view, in id order."""
    if not companies:
        return []
    rows = session.execute(_VIEWS_BY_ID, {"ids": list(companies)})
    return [(companies[row.id], UploadView(*row)) for row in rows]


def batch_views(session: Session, batch_id: uuid.UUID) -> list[UploadView]:
    return [UploadView(*row) for row in session.execute(_BATCH_VIEWS, {"batch_id": batch_id})]


@dataclass(frozen=True, slots=True)
class BatchHead:
    """The columns of a batch its resource shows besides its uploads."""

    id: uuid.UUID
    external_id: str | None
    document_type: str
    unpack_state: str
    created_at: datetime
    source_type: str = "api"
    mail_from: str | None = None
    mail_subject: str | None = None
    message_id: str | None = None
    received_at: datetime | None = None


def keyed_batch_head(
    session: Session, api_key: str, batch_id: uuid.UUID | None
) -> tuple[ActiveKey | None, BatchHead | None]:
    """The active key of `api_key` and its company's batch `batch_id`, as above."""
    if batch_id is None:
        return find_active_key(session, api_key), None
    parameters = {"key_hash": hash_key(api_key), "batch_id": batch_id}
    key, rest = _key_and_rest(session.execute(_KEYED_BATCH_HEAD, parameters).one_or_none())
    return key, BatchHead(*rest) if rest is not None else None


# The web application's inbox: newest first, keyset paging on (created_at, id), so a deep
# page costs what the first one does. The filters match the company-scoped indexes.


@dataclass(frozen=True, slots=True)
class InboxFilter:
    status: str | None = None
    document_type: str | None = None
    batch_id: uuid.UUID | None = None
    created_from: datetime | None = None  # inclusive
    # What a completed upload was read as (its result's type), not the type it was sent as.
    result_type: str | None = None
    created_before: datetime | None = None  # exclusive
    # The inbox's search: what the result's words must hold (storage/search_text.py).
    search: tuple[SearchTerm, ...] = ()


@dataclass(frozen=True, slots=True)
class PageCursor:
    created_at: datetime
    id: uuid.UUID


def inbox_page(
    session: Session,
    company_id: uuid.UUID,
    filters: InboxFilter,
    limit: int,
    older_than: PageCursor | None = None,
    newer_than: PageCursor | None = None,
) -> list[UploadView]:
    """Up to `limit` uploads, newest first: the newest ones, those just older than a
    cursor (next page) or just newer (previous page)."""
    if filters.batch_id:
        # A batch has at most a few hundred uploads: find them by the batch index, not by
        # scanning the company's uploads for the batch (SQLite would choose the latter).
        own_batch = select(Batch.id).where(
            Batch.id == filters.batch_id, Batch.company_id == company_id
        )
        statement = _views().where(Upload.batch_id.in_(own_batch))
    else:
        statement = _views().where(Upload.company_id == company_id)
    if filters.status:
        statement = statement.where(Upload.status == filters.status)
    if filters.document_type:
        statement = statement.where(Upload.document_type == filters.document_type)
    if filters.result_type:
        # Each candidate's result is found by its primary key while walking the
        # company's uploads newest first; the join makes it an inner one.
        statement = statement.where(
            Upload.status == UploadStatus.COMPLETED, Result.type == filters.result_type
        )
    if filters.search:
        postgres = session.get_bind().dialect.name == "postgresql"
        found = matching_results(company_id, filters.search, postgres)
        statement = statement.where(Upload.result_id.in_(found))
    if filters.created_from:
        statement = statement.where(Upload.created_at >= filters.created_from)
    if filters.created_before:
        statement = statement.where(Upload.created_at < filters.created_before)
    if newer_than is not None:
        # The range on created_at alone is what the index serves; id breaks ties.
        statement = statement.where(
            Upload.created_at >= newer_than.created_at,
            or_(Upload.created_at > newer_than.created_at, Upload.id > newer_than.id),
        ).order_by(Upload.created_at, Upload.id)
        rows = [UploadView(*row) for row in session.execute(statement.limit(limit))]
        return rows[::-1]
    if older_than is not None:
        statement = statement.where(
            Upload.created_at <= older_than.created_at,
            or_(Upload.created_at < older_than.created_at, Upload.id < older_than.id),
        )
    statement = statement.order_by(Upload.created_at.desc(), Upload.id.desc()).limit(limit)
    return [UploadView(*row) for row in session.execute(statement)]


def status_counts(statuses: Iterable[str]) -> dict[str, int]:
    """Uploads per status plus `total`, every status present (zero when none)."""
    counts = {status.value: 0 for status in UploadStatus}
    total = 0
    for status in statuses:
        counts[status] += 1
        total += 1
    counts["total"] = total
    return counts

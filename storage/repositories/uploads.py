from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from storage.models import Batch, Result, StatusChange, Upload
from storage.states import UploadStatus


def get_upload(session: Session, company_id: uuid.UUID, upload_id: uuid.UUID) -> Upload | None:
    statement = select(Upload).where(Upload.id == upload_id, Upload.company_id == company_id)
    return session.scalars(statement).one_or_none()


def find_by_external_id(session: Session, company_id: uuid.UUID, external_id: str) -> Upload | None:
    statement = select(Upload).where(
        Upload.company_id == company_id,
        Upload.batch_id.is_(None),
        Upload.external_id == external_id,
    )
    return session.scalars(statement).one_or_none()


def find_by_content(
    session: Session, company_id: uuid.UUID, sha256: str, document_type: str
) -> Upload | None:
    statement = select(Upload).where(
        Upload.company_id == company_id,
        Upload.batch_id.is_(None),
        Upload.external_id.is_(None),
        Upload.sha256 == sha256,
        Upload.document_type == document_type,
    )
    return session.scalars(statement).one_or_none()


FILE_TOO_LARGE_MESSAGE = "The file exceeds the size limit for one file."


def refused_at_intake(upload: Upload, code: str, message: str) -> UploadStatus:
    """Mark a new upload as refused before any processor read it; returns the state it
    starts in (`failed`, a failure a repeated request may retry)."""
    upload.error_code, upload.error_message = code, message
    return UploadStatus.FAILED


def add_upload(session: Session, upload: Upload, initial: UploadStatus) -> None:
    """Insert a new upload in its first state, with its first history row. Raises
    IntegrityError when an idempotency key is taken; the caller holds a savepoint."""
    change = upload.set_status(initial)
    session.add(upload)
    session.flush()
    session.add(change)
    session.flush()


def change_status(session: Session, upload: Upload, target: UploadStatus) -> None:
    session.add(upload.set_status(target))
    session.flush()


def count_with_status(session: Session, status: UploadStatus) -> int:
    statement = select(func.count()).select_from(Upload).where(Upload.status == status)
    return int(session.scalar(statement) or 0)


def get_result(session: Session, result_id: uuid.UUID) -> Result | None:
    return session.get(Result, result_id)


def results_by_id(session: Session, result_ids: set[uuid.UUID]) -> dict[uuid.UUID, Result]:
    if not result_ids:
        return {}
    rows = session.scalars(select(Result).where(Result.id.in_(result_ids)))
    return {row.id: row for row in rows}


def history(session: Session, upload_id: uuid.UUID) -> list[StatusChange]:
    statement = (
        select(StatusChange).where(StatusChange.upload_id == upload_id).order_by(StatusChange.id)
    )
    return list(session.scalars(statement))


# The web application's inbox: newest first, keyset paging on (created_at, id), so a deep
# page costs what the first one does. The filters match the company-scoped indexes.


@dataclass(frozen=True, slots=True)
class InboxFilter:
    status: str | None = None
    document_type: str | None = None
    batch_id: uuid.UUID | None = None
    created_from: datetime | None = None  # inclusive
    created_before: datetime | None = None  # exclusive


@dataclass(frozen=True, slots=True)
class PageCursor:
    created_at: datetime
    id: uuid.UUID


@dataclass(frozen=True, slots=True)
class InboxRow:
    id: uuid.UUID
    batch_id: uuid.UUID | None
    external_id: str | None
    file_name: str
    document_type: str
    status: str
    error_code: str | None
    error_message: str | None
    result_id: uuid.UUID | None
    created_at: datetime


_INBOX_COLUMNS = (
    Upload.id,
    Upload.batch_id,
    Upload.external_id,
    Upload.file_name,
    Upload.document_type,
    Upload.status,
    Upload.error_code,
    Upload.error_message,
    Upload.result_id,
    Upload.created_at,
)


def inbox_page(
    session: Session,
    company_id: uuid.UUID,
    filters: InboxFilter,
    limit: int,
    older_than: PageCursor | None = None,
    newer_than: PageCursor | None = None,
) -> list[InboxRow]:
    """Up to `limit` uploads, newest first: the newest ones, those just older than a
    cursor (next page) or just newer (previous page)."""
    if filters.batch_id:
        # A batch has at most a few hundred uploads: find them by the batch index, not by
        # scanning the company's uploads for the batch (SQLite would choose the latter).
        own_batch = select(Batch.id).where(
            Batch.id == filters.batch_id, Batch.company_id == company_id
        )
        statement = select(*_INBOX_COLUMNS).where(Upload.batch_id.in_(own_batch))
    else:
        statement = select(*_INBOX_COLUMNS).where(Upload.company_id == company_id)
    if filters.status:
        statement = statement.where(Upload.status == filters.status)
    if filters.document_type:
        statement = statement.where(Upload.document_type == filters.document_type)
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
        rows = [InboxRow(**row._mapping) for row in session.execute(statement.limit(limit))]
        return rows[::-1]
    if older_than is not None:
        statement = statement.where(
            Upload.created_at <= older_than.created_at,
            or_(Upload.created_at < older_than.created_at, Upload.id < older_than.id),
        )
    statement = statement.order_by(Upload.created_at.desc(), Upload.id.desc()).limit(limit)
    return [InboxRow(**row._mapping) for row in session.execute(statement)]


def result_types(session: Session, result_ids: set[uuid.UUID]) -> dict[uuid.UUID, str]:
    if not result_ids:
        return {}
    rows = session.execute(select(Result.id, Result.type).where(Result.id.in_(result_ids)))
    return {result_id: result_type for result_id, result_type in rows}

"""What polling reads: the columns an upload resource shows, in one query with its
result's type. No ORM objects and no result data (invoice JSON can be large), so a
batch of 100 uploads is one cheap query."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Select, select
from sqlalchemy.orm import Session

from storage.models import Result, Upload
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


def upload_view(session: Session, company_id: uuid.UUID, upload_id: uuid.UUID) -> UploadView | None:
    statement = _views().where(Upload.id == upload_id, Upload.company_id == company_id)
    row = session.execute(statement).one_or_none()
    return UploadView(*row) if row is not None else None


def view_of(session: Session, upload: Upload) -> UploadView:
    """The view of an upload already in hand (just created or claimed)."""
    result_type = (
        session.scalar(select(Result.type).where(Result.id == upload.result_id))
        if upload.result_id
        else None
    )
    return UploadView.of(upload, result_type)


def batch_views(session: Session, batch_id: uuid.UUID) -> list[UploadView]:
    statement = _views().where(Upload.batch_id == batch_id).order_by(Upload.position, Upload.id)
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

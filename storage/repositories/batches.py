from __future__ import annotations

import uuid

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from storage.models import Batch, Upload
from storage.states import UploadStatus


def get_batch(session: Session, company_id: uuid.UUID, batch_id: uuid.UUID) -> Batch | None:
    statement = select(Batch).where(Batch.id == batch_id, Batch.company_id == company_id)
    return session.scalars(statement).one_or_none()


def find_by_external_id(session: Session, company_id: uuid.UUID, external_id: str) -> Batch | None:
    statement = select(Batch).where(
        Batch.company_id == company_id, Batch.external_id == external_id
    )
    return session.scalars(statement).one_or_none()


def find_by_content(
    session: Session, company_id: uuid.UUID, sha256: str, document_type: str
) -> Batch | None:
    statement = select(Batch).where(
        Batch.company_id == company_id,
        Batch.external_id.is_(None),
        Batch.sha256 == sha256,
        Batch.document_type == document_type,
    )
    return session.scalars(statement).one_or_none()


def add_batch(session: Session, batch: Batch) -> None:
    session.add(batch)
    session.flush()


def uploads_of(session: Session, batch_id: uuid.UUID) -> list[Upload]:
    statement = (
        select(Upload).where(Upload.batch_id == batch_id).order_by(Upload.position, Upload.id)
    )
    return list(session.scalars(statement))


def status_counts(uploads: list[Upload]) -> dict[str, int]:
    counts = {status.value: 0 for status in UploadStatus}
    for upload in uploads:
        counts[upload.status] += 1
    counts["total"] = len(uploads)
    return counts


def count_uploads(session: Session, batch_id: uuid.UUID) -> int:
    statement = select(func.count()).select_from(Upload).where(Upload.batch_id == batch_id)
    return int(session.scalar(statement) or 0)

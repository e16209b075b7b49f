from __future__ import annotations

import uuid

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from storage.models import Result, StatusChange, Upload
from storage.states import UploadStatus
from storage.webhook_outbox import note_upload


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
    add_uploads(session, [(upload, initial)])


def add_uploads(session: Session, uploads: list[tuple[Upload, UploadStatus]]) -> None:
    """Insert several new uploads in their first states with their history rows: two
    statements in all, instead of two per upload."""
    changes = [upload.set_status(initial) for upload, initial in uploads]
    session.add_all([upload for upload, _ in uploads])
    session.flush()
    for upload, _ in uploads:
        note_upload(session, upload)
    session.add_all(changes)
    session.flush()


def record_move(session: Session, upload: Upload, change: StatusChange) -> None:
    """Add the history row of a move the upload just made (`upload.complete(...)`, see
    storage/upload_moves.py); the next flush writes both (one flush for many uploads
    costs a fraction of many). A terminal status is noted for the webhook outbox,
    written at commit."""
    session.add(change)
    note_upload(session, upload)


def change_status(session: Session, upload: Upload, target: UploadStatus) -> None:
    """Set a status through the guarded setter alone, no column but `status` changed:
    for setting up rows. The service moves uploads through the named moves."""
    record_move(session, upload, upload.set_status(target))


def count_with_status(session: Session, status: UploadStatus) -> int:
    statement = select(func.count()).select_from(Upload).where(Upload.status == status)
    return int(session.scalar(statement) or 0)


def get_result(session: Session, result_id: uuid.UUID) -> Result | None:
    return session.get(Result, result_id)


def history(session: Session, upload_id: uuid.UUID) -> list[StatusChange]:
    statement = (
        select(StatusChange).where(StatusChange.upload_id == upload_id).order_by(StatusChange.id)
    )
    return list(session.scalars(statement))

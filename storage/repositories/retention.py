"""What the retention purge reads and removes (storage/retention.py, docs/retention.md):
deleted uploads whose deletion is older than the retention period, the stored objects
rows still point at, and deleted results nothing needs any more."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from sqlalchemy import CursorResult, delete, exists, func, select
from sqlalchemy.orm import Session

from storage.db import locked
from storage.models import Batch, Result, StatusChange, TransactionConfirmation, Upload
from storage.states import UploadStatus


def deleted_uploads_due(session: Session, deleted_before: datetime, limit: int) -> list[Upload]:
    """Up to `limit` deleted uploads that still point at stored bytes and whose latest
    deletion (its history row) is older than `deleted_before`, locked; rows another
    transaction holds (a repeated request reading one again) are left for the next run."""
    deleted_at = (
        select(func.max(StatusChange.at))
        .where(
            StatusChange.upload_id == Upload.id,
            StatusChange.to_status == UploadStatus.DELETED,
            StatusChange.event.is_(None),
        )
        .scalar_subquery()
    )
    statement = (
        select(Upload)
        .where(
            Upload.status == UploadStatus.DELETED,
            Upload.object_key.is_not(None),
            deleted_at < deleted_before,
        )
        .order_by(Upload.id)
        .limit(limit)
    )
    return list(session.scalars(locked(session, statement, skip_locked=True)))


def objects_in_use(session: Session, object_keys: Collection[str]) -> set[str]:
    """The keys among these that an upload or a batch points at (the column has no
    index: asked once per purged chunk and after an error around a commit, never on the
    usual path)."""
    if not object_keys:
        return set()
    keys = list(object_keys)
    used: set[str] = set()
    for model in (Upload, Batch):
        statement = select(model.object_key).where(model.object_key.in_(keys)).distinct()
        used.update(key for key in session.scalars(statement) if key is not None)
    return used


def purge_deleted_results(session: Session, deleted_before: datetime) -> int:
    """Remove the results deleted before `deleted_before` that no upload points at and
    that have no confirmed transactions (a result with them cannot be deleted, so this
    is a guard); returns how many."""
    statement = delete(Result).where(
        Result.deleted_at.is_not(None),
        Result.deleted_at < deleted_before,
        ~exists().where(Upload.result_id == Result.id),
        ~exists().where(TransactionConfirmation.result_id == Result.id),
    )
    outcome = session.execute(statement)
    assert isinstance(outcome, CursorResult)
    return int(outcome.rowcount)

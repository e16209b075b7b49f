"""Deleted uploads made by hand for the retention tests that need them at a given age:
the history and result rows as the web application's delete leaves them, and the
stored bytes."""

from __future__ import annotations

import uuid
from datetime import timedelta

from storage.db import Database
from storage.models import Result, utcnow
from storage.objectstore import ObjectStore
from tests.storage.tables_data import add_upload

DELETED = (("queued", 0), ("processing", 1), ("completed", 2), ("deleted", 3))


def deleted_upload(
    db: Database, store: ObjectStore, company_id: uuid.UUID, days_ago: float
) -> tuple[uuid.UUID, str, uuid.UUID]:
    """An upload deleted `days_ago` days ago with its stored bytes, and its deleted
    result: (upload id, object key, result id)."""
    created_at = utcnow() - timedelta(days=days_ago, seconds=3)
    with db.session() as session:
        upload = add_upload(session, company_id, created_at=created_at, path=DELETED)
        result = Result(
            company_id=company_id,
            type="other_document",
            sha256=upload.sha256,
            data={"text": "the letter"},
            deleted_at=utcnow() - timedelta(days=days_ago),
        )
        session.add(result)
        session.commit()
    assert upload.object_key is not None
    writer = store.open_writer(upload.object_key)
    writer.write(b"%PDF-1.7 the letter")
    writer.commit()
    return upload.id, upload.object_key, result.id


def result_kept(db: Database, result_id: uuid.UUID) -> bool:
    with db.read_session() as session:
        return session.get(Result, result_id) is not None

"""The retention purge: what a user deleted is removed for good after the retention
period (`DOCINTAKE_PURGE_AFTER_DAYS`, docs/retention.md); nothing else is.

A deleted upload past the period loses its stored bytes and stays `deleted`: its status
history gets a row with the event `purged` (no content in it), beside the row of its
deletion. A deleted result past the period is removed with its data. Stored bytes that
another upload or a batch still points at are kept, and so is a result an upload points
at: only rows decide what is still needed.

Per chunk of uploads, the bytes are removed while their rows are locked and before the
commit: a purge that dies in between leaves rows pointing at removed bytes, which the
next run purges again (removing a missing object is no error). The other order would
leave bytes no row points at, kept forever.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime, timedelta

from storage.db import Database
from storage.models import utcnow
from storage.objectstore import ObjectStore
from storage.repositories import retention as repo

# Uploads per transaction. Their rows stay locked while their objects are removed (a few
# ms each on S3), so a repeated request for one of them waits that long at most.
PURGE_CHUNK = 200


@dataclass
class PurgeRun:
    uploads: int = 0  # deleted uploads purged
    objects: int = 0  # stored objects removed
    shared_objects: int = 0  # objects kept: another upload or a batch points at them
    results: int = 0  # deleted results removed

    def counts(self) -> dict[str, int]:
        return asdict(self)

    def summary(self) -> str:
        return (
            f"{self.uploads} deleted uploads purged ({self.objects} objects removed,"
            f" {self.shared_objects} kept for others), {self.results} deleted results removed"
        )


def purge_deleted(
    db: Database, store: ObjectStore, purge_after_days: int, now: datetime | None = None
) -> PurgeRun:
    """Purge what was deleted more than `purge_after_days` before `now`."""
    deleted_before = (now or utcnow()) - timedelta(days=purge_after_days)
    run = PurgeRun()
    while _purge_uploads(db, store, deleted_before, run) == PURGE_CHUNK:
        pass
    with db.session() as session:
        run.results = repo.purge_deleted_results(session, deleted_before)
        session.commit()
    return run


def _purge_uploads(
    db: Database, store: ObjectStore, deleted_before: datetime, run: PurgeRun
) -> int:
    """One chunk; returns how many uploads it purged."""
    with db.session() as session:
        uploads = repo.deleted_uploads_due(session, deleted_before, PURGE_CHUNK)
        keys = {upload.object_key for upload in uploads if upload.object_key is not None}
        session.add_all([upload.purge() for upload in uploads])
        session.flush()
        shared = repo.objects_in_use(session, keys)
        for key in sorted(keys - shared):
            store.delete(key)
        session.commit()
    run.uploads += len(uploads)
    run.objects += len(keys - shared)
    run.shared_objects += len(shared)
    return len(uploads)

"""The queue of record: claiming queued uploads and batches under a lease, extending
and releasing leases, and recovering the work of workers that died.

Claims are atomic: on Postgres `FOR UPDATE SKIP LOCKED`, so workers on many machines
never take the same row; on SQLite every write transaction starts with
`BEGIN IMMEDIATE` (storage/db.py), so claims are serialised by the database lock.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, Select, and_, bindparam, func, select, update
from sqlalchemy.orm import Session

from processors.base import Failure, FailureCode
from storage.column_types import UTCDateTime
from storage.db import locked
from storage.models import Batch, Company, Upload, utcnow
from storage.repositories import batch_work
from storage.repositories.upload_groups import PerRow, move_group
from storage.repositories.uploads import record_move
from storage.states import UploadStatus
from storage.upload_moves import COMPLETE, FAIL, TAKE
from storage.upload_moves import MAX_CRASHES as MAX_CRASHES
from storage.upload_moves import MAX_TAKES as MAX_TAKES

# The batches' half of the queue (storage/repositories/batch_work.py), named here too.
batch_progress = batch_work.batch_progress
charge_batch_crash = batch_work.charge_batch_crash
claim_batch = batch_work.claim_batch
extend_batch_lease = batch_work.extend_batch_lease
fail_batch = batch_work.fail_batch
fail_pending_batch = batch_work.fail_pending_batch
finish_batch = batch_work.finish_batch
give_back_batch_take = batch_work.give_back_batch_take
has_claimable_batch = batch_work.has_claimable_batch
mark_unpacked = batch_work.mark_unpacked
pending_batch = batch_work.pending_batch
positions_of = batch_work.positions_of
record_message_head = batch_work.record_message_head

# A company whose files the object store did not hand over waits this long before its
# uploads are claimed again, twice as long each time the trouble goes on, at most
# STORE_WAIT_MAX_SECONDS: an outage costs a fetch and two history rows per upload and
# wait, not a cycle as fast as the claims go.
STORE_WAIT_FIRST_SECONDS = 1.0
STORE_WAIT_MAX_SECONDS = 60.0


def _not_waiting_for_the_store(now: datetime | ColumnElement[datetime]) -> ColumnElement[bool]:
    """Uploads of companies that do not wait for the object store now."""
    waiting = select(Company.id).where(Company.store_wait_until > now)
    return Upload.company_id.not_in(waiting)


@dataclass(frozen=True, slots=True)
class ClaimedUpload:
    """The columns of a claimed upload its reading needs."""

    id: uuid.UUID
    company_id: uuid.UUID
    batch_id: uuid.UUID | None
    position: int | None
    file_name: str
    document_type: str
    sha256: str
    size_bytes: int
    object_key: str | None
    created_at: datetime


_CLAIMED = [
    Upload.__table__.c[name]
    for name in ClaimedUpload.__dataclass_fields__
    if name not in ("id", "company_id")
]


def claim_uploads(
    session: Session,
    owner: str,
    limit: int,
    lease: timedelta,
    batch_id: uuid.UUID | None = None,
) -> list[ClaimedUpload]:
    """Move up to `limit` queued uploads (single uploads, or those of one batch) to
    processing under a lease held by `owner`, in one UPDATE (the move `take` on a
    group). Single uploads are taken in turns per company: each company's oldest first,
    then each company's second oldest, and so on. A batch's files are taken largest
    first, the order they are read in: a scan costs seconds of OCR where a text PDF or an
    XML invoice costs milliseconds, and scans are large, so a batch no longer ends with
    one reading process on its last scan while the others sit idle (docs/throughput.md,
    ninth round)."""
    now = utcnow()
    if batch_id is None:
        chosen = select(Upload.id).where(Upload.id.in_(_singles_in_turns(limit, now)))
    else:
        chosen = (
            select(Upload.id)
            .where(
                Upload.status == UploadStatus.QUEUED,
                Upload.batch_id == batch_id,
                _not_waiting_for_the_store(now),
            )
            .order_by(Upload.size_bytes.desc(), Upload.position)
            .limit(limit)
        )
    rows = move_group(
        session,
        TAKE,
        locked(session, chosen, skip_locked=True),
        returning=_CLAIMED,
        owner=owner,
        expires_at=now + lease,
    )
    claimed = [
        ClaimedUpload(**{name: getattr(row, name) for name in ClaimedUpload.__dataclass_fields__})
        for row in rows
    ]
    if batch_id is None:
        return sorted(claimed, key=lambda upload: (upload.created_at, upload.id))
    return sorted(claimed, key=lambda upload: (-upload.size_bytes, upload.position or 0))


def _singles_in_turns(limit: int, now: datetime) -> Select[tuple[uuid.UUID]]:
    turn = (
        func.row_number()
        .over(partition_by=Upload.company_id, order_by=(Upload.created_at, Upload.id))
        .label("turn")
    )
    queued = (
        select(Upload.id, Upload.created_at, turn)
        .where(_queued_single(), _not_waiting_for_the_store(now))
        .subquery()
    )
    return select(queued.c.id).order_by(queued.c.turn, queued.c.created_at).limit(limit)


def extend_upload_leases(
    session: Session, owner: str, upload_ids: Sequence[uuid.UUID], lease: timedelta
) -> None:
    if not upload_ids:
        return
    # Rows are locked in id order, as held_uploads locks them: two transactions that
    # lock several of the same rows in the same order cannot deadlock.
    mine = and_(Upload.id.in_(upload_ids), Upload.lease_owner == owner)
    ids = list(session.scalars(locked(session, select(Upload.id).where(mine).order_by(Upload.id))))
    if ids:
        session.execute(
            update(Upload).where(Upload.id.in_(ids)).values(lease_expires_at=utcnow() + lease)
        )


def held_upload_ids(
    session: Session, upload_ids: Sequence[uuid.UUID], owner: str
) -> set[uuid.UUID]:
    """Those of the uploads that `owner` still holds in processing, locked in id order
    (not loaded); the others' leases were lost (another worker took them over)."""
    return set(
        session.scalars(
            locked(session, _HELD_UPLOAD_IDS), {"ids": list(upload_ids), "owner": owner}
        )
    )


def complete_uploads(session: Session, results: Mapping[uuid.UUID, uuid.UUID]) -> None:
    """Complete held uploads (upload id -> result id), in one statement."""
    move_group(session, COMPLETE, list(results), result_id=PerRow(results))


def fail_uploads(session: Session, failures: Mapping[uuid.UUID, Failure]) -> None:
    """Fail held uploads in processing (upload id -> failure), in one statement."""
    move_group(
        session,
        FAIL,
        list(failures),
        sources=(UploadStatus.PROCESSING,),
        code=PerRow({upload_id: failure.code for upload_id, failure in failures.items()}),
        message=PerRow({upload_id: failure.message for upload_id, failure in failures.items()}),
        details=PerRow({upload_id: failure.details for upload_id, failure in failures.items()}),
    )


def held_upload(session: Session, upload_id: uuid.UUID, owner: str) -> Upload | None:
    """The upload, locked, if `owner` still holds it in processing; None if the lease
    was lost (another worker took it over)."""
    return held_uploads(session, [upload_id], owner).get(upload_id)


def held_uploads(
    session: Session, upload_ids: Sequence[uuid.UUID], owner: str
) -> dict[uuid.UUID, Upload]:
    """Those of the uploads that `owner` still holds in processing, locked in id order;
    the others' leases were lost (another worker took them over)."""
    statement = locked(session, _HELD_UPLOADS)
    found = session.scalars(statement, {"ids": list(upload_ids), "owner": owner})
    return {upload.id: upload for upload in found}


def _held(*columns: Any) -> Select[Any]:
    return (
        select(*columns)
        .where(
            Upload.id.in_(bindparam("ids", expanding=True)),
            Upload.status == UploadStatus.PROCESSING,
            Upload.lease_owner == bindparam("owner"),
        )
        .order_by(Upload.id)
    )


# Built once (the recorder asks in every transaction).
_HELD_UPLOAD_IDS = _held(Upload.id)
_HELD_UPLOADS = _held(Upload)


def release_upload(session: Session, upload: Upload) -> None:
    """Give an upload back without blaming it (an infrastructure error, a shutdown)."""
    record_move(session, upload, upload.release())


def fail_upload(
    session: Session,
    upload: Upload,
    code: FailureCode,
    message: str,
    details: dict[str, Any] | None = None,
) -> None:
    record_move(session, upload, upload.fail(code, message, details))


def complete_upload(session: Session, upload: Upload, result_id: uuid.UUID) -> None:
    record_move(session, upload, upload.complete(result_id))


def _expired(now: datetime, batch_id: uuid.UUID | None) -> ColumnElement[bool]:
    """Uploads in processing whose worker's lease ran out: single uploads, or one batch's."""
    scope = Upload.batch_id.is_(None) if batch_id is None else Upload.batch_id == batch_id
    return and_(Upload.status == UploadStatus.PROCESSING, Upload.lease_expires_at < now, scope)


def recover_expired_uploads(
    session: Session, now: datetime, batch_id: uuid.UUID | None = None
) -> tuple[int, int]:
    """Uploads whose worker died: back to queued, uncharged (the worker's death is not
    the document's fault: reading happens in other processes). Only an upload taken
    MAX_TAKES times fails. Returns (requeued, failed)."""
    statement = select(Upload).where(_expired(now, batch_id))
    requeued = failed = 0
    for upload in session.scalars(locked(session, statement, skip_locked=True)):
        record_move(session, upload, upload.requeue_or_give_up())
        if upload.status == UploadStatus.FAILED:
            failed += 1
        else:
            requeued += 1
    session.flush()
    return requeued, failed


def charge_crash(session: Session, upload: Upload, reason: str) -> bool:
    """The process reading `upload` died: count it against the upload alone, and fail
    the upload at MAX_CRASHES, else give it back. True if it failed."""
    record_move(session, upload, upload.charge_crash(reason))
    return upload.status == UploadStatus.FAILED


def wait_for_the_store(session: Session, company_id: uuid.UUID, now: datetime) -> float:
    """The store did not hand over one of the company's files: its uploads are not
    claimed for a while. The wait is STORE_WAIT_FIRST_SECONDS, or twice the last one
    when the last one ended less than STORE_WAIT_MAX_SECONDS ago; a company that waits
    already (its other files in flight fail at the same time) waits no longer. Returns
    the wait in seconds."""
    statement = select(Company).where(Company.id == company_id)
    company = session.scalars(locked(session, statement)).one()
    until, last = company.store_wait_until, company.store_wait_seconds
    if until is not None and now < until:
        return last
    recent = until is not None and now - until < timedelta(seconds=STORE_WAIT_MAX_SECONDS)
    seconds = min(2 * last, STORE_WAIT_MAX_SECONDS) if recent else STORE_WAIT_FIRST_SECONDS
    company.store_wait_until, company.store_wait_seconds = now + timedelta(seconds=seconds), seconds
    session.flush()
    return seconds


def _queued_single() -> ColumnElement[bool]:
    return and_(Upload.status == UploadStatus.QUEUED, Upload.batch_id.is_(None))


def has_queued_singles(session: Session, now: datetime) -> bool:
    """Queued single uploads that may be claimed now."""
    claimable = and_(_queued_single(), _not_waiting_for_the_store(now))
    return session.scalars(select(Upload.id).where(claimable).limit(1)).first() is not None


@dataclass(frozen=True, slots=True)
class Waiting:
    """What a worker's loops may claim right now."""

    singles: bool
    batch: bool


def _waiting_statement() -> Select[tuple[bool, bool]]:
    now = bindparam("now", type_=UTCDateTime())
    singles = select(Upload.id).where(_queued_single(), _not_waiting_for_the_store(now)).exists()
    batch = select(Batch.id).where(batch_work.claimable(now)).exists()
    return select(singles.label("singles"), batch.label("batch"))


# Built once: building it took a third of each poll's CPU.
_WAITING = _waiting_statement()


def waiting_work(session: Session, now: datetime) -> Waiting:
    """Queued single uploads and a claimable batch, asked in one statement: a worker's
    idle loops ask ten times a second."""
    found = session.execute(_WAITING, {"now": now}).one()
    return Waiting(singles=bool(found.singles), batch=bool(found.batch))


def has_waiting_work(session: Session, now: datetime) -> bool:
    """Anything a pipeline run should pick up: queued single uploads, a batch nobody holds
    (or whose holder died), or single uploads whose worker died (expired leases)."""
    orphaned_single = select(Upload.id).where(_expired(now, None)).limit(1)
    if has_queued_singles(session, now) or has_claimable_batch(session, now):
        return True
    return session.scalars(orphaned_single).first() is not None


def has_live_leases(session: Session, now: datetime) -> bool:
    """Whether any worker holds any work right now (its heartbeat keeps leases current)."""
    held_upload = select(Upload.id).where(Upload.lease_expires_at > now)
    held_batch = select(Batch.id).where(Batch.lease_expires_at > now)
    return any(
        session.scalars(statement.limit(1)).first() is not None
        for statement in (held_upload, held_batch)
    )

"""Batches as work: claiming one under a lease, extending and ending the lease,
charging a failed unpack, the batch's progress. storage/repositories/work.py re-exports
these beside the uploads' queue."""

from __future__ import annotations

import uuid
from collections.abc import Collection
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, and_, func, or_, select, update
from sqlalchemy.orm import Session, aliased

from processors.email_message import MessageHead
from storage.db import locked
from storage.models import Batch, Upload, utcnow
from storage.states import ACTIVE_STATUSES, UnpackState
from storage.webhook_outbox import note_batch_finished


def claimable(now: datetime | ColumnElement[datetime]) -> ColumnElement[bool]:
    """Batches not finished that nobody holds, or whose holder died."""
    return and_(
        Batch.finished_at.is_(None),
        or_(Batch.lease_expires_at.is_(None), Batch.lease_expires_at < now),
    )


def pending_batch(session: Session, batch_id: uuid.UUID) -> Batch | None:
    """The batch, locked, while its archive waits to be unpacked; None once it is
    unpacked or failed (by another worker whose lease had run out meanwhile)."""
    batch = session.scalars(locked(session, select(Batch).where(Batch.id == batch_id))).one()
    return batch if batch.unpack_state == UnpackState.PENDING else None


def charge_batch_crash(session: Session, batch_id: uuid.UUID) -> int | None:
    """One more failed or dead unpack of the batch; returns the count, None if the
    batch is no longer pending."""
    batch = pending_batch(session, batch_id)
    if batch is None:
        return None
    batch.crashes += 1
    session.flush()
    return batch.crashes


def give_back_batch_take(session: Session, batch_id: uuid.UUID) -> None:
    """The unpack met store trouble: this claim does not count towards MAX_TAKES."""
    session.execute(
        update(Batch)
        .where(Batch.id == batch_id, Batch.attempts > 0)
        .values(attempts=Batch.attempts - 1)
    )


def has_claimable_batch(session: Session, now: datetime) -> bool:
    """Whether a batch waits for a worker. A read: workers polling an idle queue take
    no write lock (SQLite) and no row locks (Postgres) until there is one to claim."""
    return session.scalars(select(Batch.id).where(claimable(now)).limit(1)).first() is not None


def claim_batch(
    session: Session, owner: str, lease: timedelta, excluding: Collection[uuid.UUID] = ()
) -> Batch | None:
    """The oldest unfinished batch that nobody holds (or whose holder died), of the
    companies with the fewest batches in hand: one company's many batches take turns
    with another company's one. None of the companies in `excluding` (they read as many
    batches as they may in the claiming worker)."""
    now = utcnow()
    held = aliased(Batch)
    in_hand = (
        select(func.count())
        .where(
            held.company_id == Batch.company_id,
            held.finished_at.is_(None),
            held.lease_expires_at > now,
        )
        .scalar_subquery()
    )
    statement = select(Batch).where(claimable(now)).order_by(in_hand, Batch.created_at).limit(1)
    if excluding:
        statement = statement.where(Batch.company_id.not_in(excluding))
    batch = session.scalars(locked(session, statement, skip_locked=True)).one_or_none()
    if batch is not None:
        batch.lease_owner = owner
        batch.lease_expires_at = now + lease
        batch.attempts += 1
        session.flush()
    return batch


def extend_batch_lease(session: Session, batch_id: uuid.UUID, owner: str, lease: timedelta) -> bool:
    result = session.execute(
        update(Batch)
        .where(Batch.id == batch_id, Batch.lease_owner == owner)
        .values(lease_expires_at=utcnow() + lease)
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


def finish_batch(session: Session, batch_id: uuid.UUID, owner: str) -> None:
    result = session.execute(
        update(Batch)
        .where(Batch.id == batch_id, Batch.lease_owner == owner)
        .values(finished_at=utcnow(), lease_owner=None, lease_expires_at=None)
    )
    if result.rowcount:  # type: ignore[attr-defined]
        note_batch_finished(session, batch_id)


def mark_unpacked(session: Session, batch_id: uuid.UUID) -> None:
    """The batch's uploads exist: set in the transaction that inserts them."""
    session.execute(
        update(Batch)
        .where(Batch.id == batch_id, Batch.unpack_state == UnpackState.PENDING)
        .values(unpack_state=UnpackState.DONE)
    )


def record_message_head(session: Session, batch_id: uuid.UUID, head: MessageHead) -> None:
    """An e-mail batch's sender, subject, Message-ID and Authentication-Results, as its
    message's header says (read when it was unpacked)."""
    session.execute(
        update(Batch)
        .where(Batch.id == batch_id)
        .values(
            mail_from=head.sender or Batch.mail_from,
            mail_subject=head.subject,
            message_id=head.message_id,
            authentication_results=head.authentication_results,
        )
    )


def fail_batch(session: Session, batch: Batch, code: str, message: str) -> None:
    batch.unpack_state = UnpackState.FAILED
    batch.error_code, batch.error_message = code, message
    batch.finished_at = utcnow()
    batch.lease_owner = batch.lease_expires_at = None
    note_batch_finished(session, batch.id)


def fail_pending_batch(session: Session, batch_id: uuid.UUID, code: str, message: str) -> bool:
    """Fail the batch if it is still pending; False (nothing changed) otherwise."""
    batch = pending_batch(session, batch_id)
    if batch is not None:
        fail_batch(session, batch, code, message)
    return batch is not None


def positions_of(session: Session, batch_id: uuid.UUID) -> set[int]:
    statement = select(Upload.position).where(Upload.batch_id == batch_id)
    return {position for position in session.scalars(statement) if position is not None}


def batch_progress(session: Session, batch_id: uuid.UUID) -> tuple[int, int]:
    """(uploads in a terminal state, all uploads) of a batch."""
    active = Upload.status.in_(ACTIVE_STATUSES)
    statement = select(func.count(), func.count().filter(active)).where(Upload.batch_id == batch_id)
    total, still_active = session.execute(statement).one()
    return int(total) - int(still_active), int(total)

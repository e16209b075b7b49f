"""What the web application's result pages read and change: results scoped to a company,
the uploads behind them, bank transaction confirmations, deleting
a result and retrying a failed upload.

Every status change is a named move of the upload (storage/upload_moves.py) and leaves
a status history row. Nothing here commits; the request boundary does.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from processors.base import FailureCode, ResultType
from storage.db import locked
from storage.errors import DomainError, ValidationFailed
from storage.models import Batch, Result, TransactionConfirmation, Upload, User, utcnow
from storage.repositories import payment_matches
from storage.repositories.uploads import record_move
from storage.result_changes import note_confirmed
from storage.states import UploadStatus


class ResultLocked(DomainError):
    status, code, title = 409, "result_locked", "The result has confirmed transactions"


class NotRetryable(DomainError):
    status, code, title = 409, "not_retryable", "The upload cannot be retried"


class NotDeletable(DomainError):
    status, code, title = 409, "not_deletable", "The upload cannot be deleted"


# --- reading ---------------------------------------------------------------------------


def live_result(
    session: Session, company_id: uuid.UUID, result_id: uuid.UUID, *, lock: bool = False
) -> Result | None:
    """The company's result, unless it was deleted."""
    statement = select(Result).where(
        Result.id == result_id, Result.company_id == company_id, Result.deleted_at.is_(None)
    )
    if lock:
        statement = locked(session, statement)
    return session.scalars(statement).one_or_none()


def uploads_of_result(
    session: Session, result_id: uuid.UUID, *, lock: bool = False
) -> list[Upload]:
    """The uploads that completed with this result, the first one first."""
    statement = (
        select(Upload).where(Upload.result_id == result_id).order_by(Upload.created_at, Upload.id)
    )
    if lock:
        statement = locked(session, statement)
    return list(session.scalars(statement))


def confirmations(session: Session, result_id: uuid.UUID) -> dict[int, TransactionConfirmation]:
    statement = select(TransactionConfirmation).where(
        TransactionConfirmation.result_id == result_id
    )
    return {row.position: row for row in session.scalars(statement)}


# --- confirming bank transactions ------------------------------------------------------


def transaction_count(result: Result) -> int:
    transactions = result.data.get("transactions")
    return len(transactions) if isinstance(transactions, list) else 0


def confirm_transactions(
    session: Session, result: Result, positions: Iterable[int], user_id: uuid.UUID | None
) -> list[int]:
    """Confirm transactions of a bank statement by position; returns the positions
    confirmed now. Confirming a confirmed one again changes nothing (its first
    confirmation, who and when, stays), also when two requests race."""
    if result.type != ResultType.BANK_STATEMENT:
        raise ValidationFailed("only bank statement transactions can be confirmed")
    wanted = sorted(set(positions))
    count = transaction_count(result)
    if any(position < 0 or position >= count for position in wanted):
        raise ValidationFailed(f"the statement has transactions 0 to {count - 1} only")
    if not wanted:
        return []
    rows = [
        {"result_id": result.id, "position": p, "confirmed_by": user_id, "confirmed_at": utcnow()}
        for p in wanted
    ]
    dialect = session.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    statement = (
        insert(TransactionConfirmation)
        .values(rows)
        .on_conflict_do_nothing(index_elements=["result_id", "position"])
        .returning(TransactionConfirmation.position)
    )
    confirmed = sorted(session.scalars(statement))
    if confirmed:
        note_confirmed(session, result)
        payment_matches.match_statement(session, result)
    return confirmed


# --- deleting a result -----------------------------------------------------------------


def delete_result(
    session: Session, company_id: uuid.UUID, result_id: uuid.UUID
) -> list[Upload] | None:
    """Delete a live result: every upload pointing to it becomes `deleted` (result and
    error cleared, a history row each) and the result gets `deleted_at`, which frees its
    content for a new read. Returns the uploads changed, or None when the company has no
    such live result. A bank statement with confirmed transactions is locked."""
    result = live_result(session, company_id, result_id, lock=True)
    if result is None:
        return None
    if confirmations(session, result.id):
        raise ResultLocked(
            "The statement has confirmed transactions; confirmed transactions are locked."
        )
    uploads = uploads_of_result(session, result.id, lock=True)
    for upload in uploads:
        record_move(session, upload, upload.mark_deleted())
    result.deleted_at = utcnow()
    session.flush()
    return uploads


# --- retrying a failed upload ----------------------------------------------------------


def retry_upload(session: Session, company_id: uuid.UUID, upload_id: uuid.UUID) -> Upload | None:
    """Put an upload that failed `processing_failed` back to `queued`, as new: attempts,
    error and lease cleared, so a worker claims and reads it again. An upload of a batch
    reopens its batch (a worker claims unfinished batches); while a worker still holds
    the batch, the retry waits for it to finish. None when there is no such upload."""
    statement = locked(
        session, select(Upload).where(Upload.id == upload_id, Upload.company_id == company_id)
    )
    upload = session.scalars(statement).one_or_none()
    if upload is None:
        return None
    if upload.status != UploadStatus.FAILED or upload.error_code != FailureCode.PROCESSING_FAILED:
        raise NotRetryable("Only uploads that failed with processing_failed can be retried.")
    if upload.batch_id is not None:
        reopen_batch(session, upload.batch_id)
    record_move(session, upload, upload.retry())
    session.flush()
    return upload


def delete_failed_upload(
    session: Session, company_id: uuid.UUID, upload_id: uuid.UUID
) -> Upload | None:
    """A failed upload becomes `deleted` (its error cleared, a history row); its stored
    bytes go at the end of the retention period, like a deleted result's
    (storage/retention.py). None when the company has no such upload."""
    statement = locked(
        session, select(Upload).where(Upload.id == upload_id, Upload.company_id == company_id)
    )
    upload = session.scalars(statement).one_or_none()
    if upload is None:
        return None
    if upload.status != UploadStatus.FAILED:
        raise NotDeletable("Only failed uploads can be deleted here.")
    record_move(session, upload, upload.mark_deleted())
    session.flush()
    return upload


def reopen_batch(
    session: Session, batch_id: uuid.UUID, refusal: type[DomainError] = NotRetryable
) -> None:
    """An upload of the batch is read again: the batch is unfinished until it is (a
    worker claims unfinished batches). Refused with `refusal` while a worker holds it."""
    batch = session.scalars(locked(session, select(Batch).where(Batch.id == batch_id))).one()
    held = batch.lease_owner is not None and (
        batch.lease_expires_at is not None and batch.lease_expires_at > utcnow()
    )
    if held:
        raise refusal("The batch is still being read; retry once it has finished.")
    batch.finished_at = None


def user_emails(session: Session, user_ids: Iterable[uuid.UUID]) -> dict[uuid.UUID, str]:
    """Who confirmed what: the e-mail addresses of users, by id."""
    wanted = set(user_ids)
    if not wanted:
        return {}
    rows = session.execute(select(User.id, User.email).where(User.id.in_(wanted)))
    return {user_id: email for user_id, email in rows}

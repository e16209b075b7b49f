"""Approving invoices (issue 43), like confirming a statement's transactions: who
approved and when. A withdrawal is recorded too; nothing is ever overwritten, so the
rows are the trail. Approving fires the `result.confirmed` webhook in the same commit
(storage/result_changes.py); a withdrawal is a change of the result, without an event.
Nothing here commits; the request boundary does."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from processors.base import ResultType
from storage.approval_models import InvoiceApprovalRow
from storage.errors import ValidationFailed
from storage.models import Result, User, utcnow
from storage.result_changes import note_changed, note_confirmed


@dataclass(frozen=True, slots=True)
class ApprovalStep:
    """One approval or withdrawal: `by` is the user's e-mail (None once deleted)."""

    approved: bool
    by: str | None
    at: datetime


def history(session: Session, result_id: uuid.UUID) -> list[ApprovalStep]:
    """The invoice's approvals and withdrawals, oldest first."""
    return histories(session, [result_id]).get(result_id, [])


def histories(
    session: Session, result_ids: Iterable[uuid.UUID]
) -> dict[uuid.UUID, list[ApprovalStep]]:
    wanted = list(set(result_ids))
    if not wanted:
        return {}
    statement = (
        select(InvoiceApprovalRow, User.email)
        .outerjoin(User, User.id == InvoiceApprovalRow.user_id)
        .where(InvoiceApprovalRow.result_id.in_(wanted))
        .order_by(InvoiceApprovalRow.at, InvoiceApprovalRow.id)
    )
    found: dict[uuid.UUID, list[ApprovalStep]] = {}
    for row, email in session.execute(statement):
        found.setdefault(row.result_id, []).append(ApprovalStep(row.approved, email, row.at))
    return found


def current(steps: list[ApprovalStep]) -> ApprovalStep | None:
    """The approval in force: the latest step, when it approves."""
    return steps[-1] if steps and steps[-1].approved else None


def approvals_of(
    session: Session, result_ids: Iterable[uuid.UUID]
) -> dict[uuid.UUID, ApprovalStep]:
    """The approvals in force of these results (only approved ones are keys)."""
    found = {}
    for result_id, steps in histories(session, result_ids).items():
        approval = current(steps)
        if approval is not None:
            found[result_id] = approval
    return found


def set_approval(
    session: Session, result: Result, approved: bool, user_id: uuid.UUID | None
) -> bool:
    """Approve the invoice (or withdraw its approval); False when it already was so
    (then nothing is recorded: the first approval, who and when, stays). The caller
    holds the result's row lock, so two requests do not both approve."""
    if result.type != ResultType.INVOICE:
        raise ValidationFailed("only invoices can be approved")
    is_approved = current(history(session, result.id)) is not None
    if is_approved == approved:
        return False
    session.add(
        InvoiceApprovalRow(result_id=result.id, approved=approved, user_id=user_id, at=utcnow())
    )
    if approved:
        note_confirmed(session, result)
    else:
        note_changed(session, result)
    session.flush()
    return True

"""Correcting a PDF invoice's fields (issue 43): the stored extraction stays as read;
each correction is a row with the field, the value before and after, who and when (the
audit trail GoBD expects). An e-invoice's XML is the original and is not corrected.
A correction is a change of the result (its `changeSequence`, the tables' next export),
without a webhook event. Nothing here commits; the request boundary does."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, select
from sqlalchemy.orm import Session

from processors.base import ResultType
from storage.approval_models import InvoiceCorrectionRow
from storage.correction_fields import corrected, read_value, value_of
from storage.errors import DomainError
from storage.models import Result, User, utcnow
from storage.repositories import invoice_approvals
from storage.result_changes import note_changed


class NotCorrectable(DomainError):
    status, code, title = 409, "not_correctable", "The result cannot be corrected"


class InvoiceApproved(NotCorrectable):
    """An approved invoice is what was approved: its approval is withdrawn first."""


@dataclass(frozen=True, slots=True)
class Correction:
    """One corrected field: `by` is the user's e-mail (None once deleted)."""

    field: str
    old: str | None
    new: str | None
    by: str | None
    at: datetime


def is_e_invoice(data: dict[str, Any]) -> bool:
    return data.get("validation") is not None


def corrections_of(
    session: Session, result_ids: Iterable[uuid.UUID]
) -> dict[uuid.UUID, list[Correction]]:
    """The results' corrections, oldest first."""
    wanted = list(set(result_ids))
    if not wanted:
        return {}
    return _corrections(session, InvoiceCorrectionRow.result_id.in_(wanted))


def corrections_of_company(
    session: Session, company_id: uuid.UUID
) -> dict[uuid.UUID, list[Correction]]:
    """Every correction of the company's results, by result, oldest first."""
    of_company = InvoiceCorrectionRow.result_id.in_(
        select(Result.id).where(Result.company_id == company_id)
    )
    return _corrections(session, of_company)


def _corrections(
    session: Session, condition: ColumnElement[bool]
) -> dict[uuid.UUID, list[Correction]]:
    statement = (
        select(InvoiceCorrectionRow, User.email)
        .outerjoin(User, User.id == InvoiceCorrectionRow.user_id)
        .where(condition)
        .order_by(InvoiceCorrectionRow.at, InvoiceCorrectionRow.id)
    )
    found: dict[uuid.UUID, list[Correction]] = {}
    for row, email in session.execute(statement):
        step = Correction(row.field, row.old_value, row.new_value, email, row.at)
        found.setdefault(row.result_id, []).append(step)
    return found


def corrected_data(data: dict[str, Any], corrections: list[Correction]) -> dict[str, Any]:
    """The stored data with the corrections applied (the data itself when there are none)."""
    if not corrections:
        return data
    return corrected(data, ((c.field, c.new) for c in corrections))


def original_values(corrections: list[Correction]) -> dict[str, str | None]:
    """Each corrected field's value as extracted: the old value of its first correction."""
    found: dict[str, str | None] = {}
    for correction in corrections:
        found.setdefault(correction.field, correction.old)
    return found


def correct_field(
    session: Session, result: Result, field: str, raw: str, user_id: uuid.UUID | None
) -> bool:
    """Set a field of a PDF invoice to the typed-in value; False when it already has it
    (nothing is recorded). Raises ValidationFailed for a value that does not fit, and
    NotCorrectable for an e-invoice or another type, InvoiceApproved while the invoice
    is approved. The caller holds the row lock."""
    if result.type != ResultType.INVOICE or is_e_invoice(result.data):
        raise NotCorrectable("Only invoices read from a PDF's text can be corrected.")
    if invoice_approvals.current(invoice_approvals.history(session, result.id)):
        raise InvoiceApproved("Withdraw the approval before correcting the invoice.")
    new = read_value(field, raw)
    history = corrections_of(session, [result.id]).get(result.id, [])
    old = value_of(corrected_data(result.data, history), field)
    if old == new:
        return False
    row = InvoiceCorrectionRow(
        result_id=result.id, field=field, old_value=old, new_value=new, user_id=user_id
    )
    row.at = utcnow()
    session.add(row)
    note_changed(session, result)
    session.flush()
    return True

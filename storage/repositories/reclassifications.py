"""Reclassifying a result (issue 43, part 6): an "other document" is read again as an
invoice (a supplier or a customer invoice, the accountant's choice), and an invoice back
as an other document. Each upload behind the result takes the named move `reclassify`
(storage/upload_moves.py: completed -> queued with the new document type), a worker
reads it again as a retry is read, and the result is deleted (its content freed for the
new read). Every reclassification is a row (who, when, from what it was read as, to what
it is read as now) kept with the upload for good: the trail the upload page, the result
page and the results API show. Nothing here commits; the request boundary does."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from processors.base import DocumentType, ResultType
from storage.approval_models import UploadReclassificationRow
from storage.errors import DomainError
from storage.models import Result, Upload, User, utcnow
from storage.repositories import invoice_approvals
from storage.repositories.uploads import find_by_content, record_move
from storage.repositories.web_results import live_result, reopen_batch, uploads_of_result
from storage.states import UploadStatus

# What a result of each type may be read as instead.
TARGETS: dict[str, tuple[DocumentType, ...]] = {
    ResultType.OTHER_DOCUMENT: (DocumentType.SUPPLIER_INVOICE, DocumentType.CUSTOMER_INVOICE),
    ResultType.INVOICE: (DocumentType.OTHER_DOCUMENT,),
}


class NotReclassifiable(DomainError):
    status, code, title = 409, "not_reclassifiable", "The result cannot be reclassified"


@dataclass(frozen=True, slots=True)
class Reclassification:
    """One reclassification: `by` is the user's e-mail (None once deleted)."""

    upload_id: uuid.UUID
    from_type: str  # the result type it was read as
    to_type: str  # the document type it is read as now
    by: str | None
    at: datetime


def reclassify(
    session: Session,
    company_id: uuid.UUID,
    result_id: uuid.UUID,
    to_type: str,
    user_id: uuid.UUID | None,
) -> list[Upload] | None:
    """Read the uploads behind the company's live result again as `to_type`; returns
    them (the first one first), or None when there is no such live result."""
    result = live_result(session, company_id, result_id, lock=True)
    if result is None:
        return None
    _check(session, result, to_type)
    uploads = uploads_of_result(session, result.id, lock=True)
    for upload in uploads:
        _check_no_twin(session, upload, to_type)
        if upload.batch_id is not None:
            reopen_batch(session, upload.batch_id, NotReclassifiable)
        row = UploadReclassificationRow(
            upload_id=upload.id,
            from_type=result.type,
            to_type=to_type,
            user_id=user_id,
            at=utcnow(),
        )
        session.add(row)
        record_move(session, upload, upload.reclassify(to_type))
    result.deleted_at = utcnow()
    session.flush()
    return uploads


def _check(session: Session, result: Result, to_type: str) -> None:
    if to_type not in TARGETS.get(result.type, ()):
        raise NotReclassifiable(
            "Only an other document can be read as an invoice, and an invoice as an other document."
        )
    if result.type == ResultType.INVOICE and invoice_approvals.approvals_of(session, [result.id]):
        raise NotReclassifiable("The invoice is approved: withdraw the approval to reclassify it.")


def _check_no_twin(session: Session, upload: Upload, to_type: str) -> None:
    """An upload sent without a batch or externalId is the one of its content and type
    (uq_uploads_company_content): when the same file was sent as `to_type` too, that
    upload is the one to open, and this one stays."""
    if upload.batch_id is not None or upload.external_id is not None:
        return
    twin = find_by_content(session, upload.company_id, upload.sha256, to_type)
    if twin is not None and twin.id != upload.id:
        raise NotReclassifiable(
            "The same file was also sent as this document type: open that upload instead."
        )


def of_uploads(
    session: Session, upload_ids: Iterable[uuid.UUID]
) -> dict[uuid.UUID, list[Reclassification]]:
    """The uploads' reclassifications, oldest first."""
    wanted = list(set(upload_ids))
    if not wanted:
        return {}
    statement = (
        select(UploadReclassificationRow, User.email)
        .outerjoin(User, User.id == UploadReclassificationRow.user_id)
        .where(UploadReclassificationRow.upload_id.in_(wanted))
        .order_by(UploadReclassificationRow.at, UploadReclassificationRow.id)
    )
    found: dict[uuid.UUID, list[Reclassification]] = {}
    for row, email in session.execute(statement):
        step = Reclassification(row.upload_id, row.from_type, row.to_type, email, row.at)
        found.setdefault(row.upload_id, []).append(step)
    return found


def of_results(
    session: Session, result_ids: Iterable[uuid.UUID]
) -> dict[uuid.UUID, list[Reclassification]]:
    """The reclassifications that led to these results: those of the uploads completed
    with them, oldest first."""
    wanted = list(set(result_ids))
    if not wanted:
        return {}
    statement = select(Upload.id, Upload.result_id).where(
        Upload.result_id.in_(wanted), Upload.status == UploadStatus.COMPLETED
    )
    result_of = {upload_id: result_id for upload_id, result_id in session.execute(statement)}
    found: dict[uuid.UUID, list[Reclassification]] = {}
    for upload_id, steps in of_uploads(session, result_of).items():
        found.setdefault(result_of[upload_id], []).extend(steps)
    for steps in found.values():
        steps.sort(key=lambda step: step.at)
    return found

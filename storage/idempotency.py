"""Claiming uploads and batches by externalId or by content, race-safe; and which booked
result a new upload of the same content may complete with instead of being read.

The database decides: a unique index (externalId, or sha256 plus documentType, scoped to
the company) refuses the second of two racing requests, which then answers with the
winner's record. No check-then-insert. A new single upload is inserted first with ON
CONFLICT DO NOTHING (storage/repositories/intake.py), a batch or a refused upload inside
a savepoint.
Results are booked once per content and result type the same way
(storage/repositories/results.py).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Generic, TypeVar

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from processors.base import DocumentType, FailureCode, ResultType
from storage.db import Database
from storage.errors import ExternalIdConflict
from storage.models import Batch, Upload
from storage.repositories import batches as batch_repo
from storage.repositories import retention as retention_repo
from storage.repositories import uploads as upload_repo
from storage.repositories.intake import NewUpload, insert_queued, insert_queued_rows
from storage.repositories.news import announce_committed, announce_work
from storage.repositories.results import LiveResult
from storage.repositories.upload_views import UploadView, view_of
from storage.states import INTAKE_FAILURE_CODES, UnpackState, UploadStatus
from storage.work_news import BATCH, SINGLE

T = TypeVar("T", UploadView, Batch)


@dataclass(frozen=True, slots=True)
class StoredFile:
    """A request body already in the object store (object_key None: nothing was kept)."""

    object_key: str | None
    sha256: str
    size_bytes: int
    too_large: bool = False


@dataclass(frozen=True, slots=True)
class IntakeRequest:
    company_id: uuid.UUID
    file_name: str
    document_type: str
    external_id: str | None
    file: StoredFile


@dataclass(frozen=True, slots=True)
class Claim(Generic[T]):
    record: T
    replayed: bool
    # False when the record already owns its bytes: the new object can be deleted.
    uses_new_object: bool


def _find_upload(session: Session, request: IntakeRequest) -> Upload | None:
    if request.external_id is not None:
        return upload_repo.find_by_external_id(session, request.company_id, request.external_id)
    return upload_repo.find_by_content(
        session, request.company_id, request.file.sha256, request.document_type
    )


def _new_upload(request: IntakeRequest) -> tuple[Upload, UploadStatus]:
    upload = Upload(
        id=uuid.uuid4(),
        company_id=request.company_id,
        external_id=request.external_id,
        file_name=request.file_name,
        document_type=request.document_type,
        sha256=request.file.sha256,
        size_bytes=request.file.size_bytes,
        object_key=request.file.object_key,
        attempts=0,
    )
    if request.file.too_large:
        return upload, upload_repo.refused_at_intake(
            upload, FailureCode.FILE_TOO_LARGE, upload_repo.FILE_TOO_LARGE_MESSAGE
        )
    return upload, UploadStatus.QUEUED


def _check_same_request(record: Upload | Batch, request: IntakeRequest) -> None:
    if request.external_id is None:
        return
    if record.sha256 != request.file.sha256 or record.document_type != request.document_type:
        raise ExternalIdConflict(
            f"externalId {request.external_id!r} was already used with a different file"
            " or documentType"
        )


def _may_read_again(upload: Upload) -> bool:
    if upload.status == UploadStatus.DELETED:
        return True
    return upload.status == UploadStatus.FAILED and upload.error_code in INTAKE_FAILURE_CODES


def _read_again(session: Session, upload: Upload, request: IntakeRequest) -> bool:
    """Put a repeated upload back to queued; returns whether it now owns the new object."""
    uses_new_object = upload.object_key is None and request.file.object_key is not None
    upload_repo.record_move(session, upload, upload.retry())
    if uses_new_object:
        upload.object_key = request.file.object_key
    return uses_new_object


def _replay_upload(session: Session, upload: Upload, request: IntakeRequest) -> bool:
    """Answer a repeat with its upload, read again if it may be; returns whether the
    upload now owns the new object."""
    _check_same_request(upload, request)
    uses_new_object = False
    if _may_read_again(upload) and not request.file.too_large:
        # Lock the row, so two repeats racing each other requeue it once.
        session.refresh(upload, with_for_update=True)
        if _may_read_again(upload):
            uses_new_object = _read_again(session, upload, request)
            announce_work(session, SINGLE)
    return uses_new_object


def _claim_refused(session: Session, request: IntakeRequest) -> Claim[UploadView] | None:
    """A file over the size limit starts `failed`, a terminal state with a webhook event:
    through the ORM, whose session writes that event at commit (rare, so its cost stays)."""
    upload, initial = _new_upload(request)
    try:
        with session.begin_nested():
            upload_repo.add_upload(session, upload, initial)
    except IntegrityError:
        return None
    return Claim(record=UploadView.of(upload, None), replayed=False, uses_new_object=True)


def _new_queued(request: IntakeRequest) -> NewUpload | None:
    """The row of a new queued upload; None for a file that starts `failed`."""
    if request.file.too_large or request.file.object_key is None:
        return None
    return NewUpload(
        company_id=request.company_id,
        file_name=request.file_name,
        document_type=request.document_type,
        external_id=request.external_id,
        sha256=request.file.sha256,
        size_bytes=request.file.size_bytes,
        object_key=request.file.object_key,
    )


def _claim_new(session: Session, request: IntakeRequest) -> Claim[UploadView] | None:
    """The new upload, or None when an idempotency key is already taken."""
    new = _new_queued(request)
    if new is None:
        return _claim_refused(session, request)
    view = insert_queued(session, new)  # announces it too
    if view is None:
        return None
    return Claim(record=view, replayed=False, uses_new_object=True)


def claim_new_upload(db: Database, request: IntakeRequest) -> Claim[UploadView] | None:
    """Nearly every single upload: a new queued one, in a Core transaction of its own
    (no ORM session), announced once committed. None for anything else (a file that
    starts `failed`, a repeat): `claim_upload` answers those, in a session."""
    new = _new_queued(request)
    if new is None:
        return None
    with db.transaction() as connection:
        view = insert_queued_rows(connection, new)
    if view is None:
        return None
    announce_committed(db.engine, SINGLE)
    return Claim(record=view, replayed=False, uses_new_object=True)


def claim_upload(session: Session, request: IntakeRequest) -> Claim[UploadView]:
    """Insert first: the unique indexes refuse a repeat, which then answers with the
    upload it repeats (a new upload, nearly every request, is two statements)."""
    claim = _claim_new(session, request)
    if claim is not None:
        return claim
    existing = _find_upload(session, request)
    if existing is None:
        raise RuntimeError("an idempotency key was taken, but its upload is not found")
    uses_new_object = _replay_upload(session, existing, request)
    return Claim(record=view_of(session, existing), replayed=True, uses_new_object=uses_new_object)


def _find_batch(session: Session, request: IntakeRequest) -> Batch | None:
    if request.external_id is not None:
        return batch_repo.find_by_external_id(session, request.company_id, request.external_id)
    return batch_repo.find_by_content(
        session, request.company_id, request.file.sha256, request.document_type
    )


def claim_batch(session: Session, request: IntakeRequest) -> Claim[Batch]:
    """A repeated batch request answers with the original batch as it is."""
    existing = _find_batch(session, request)
    if existing is None:
        assert request.file.object_key is not None, "a batch is stored before it is claimed"
        batch = Batch(
            id=uuid.uuid4(),
            company_id=request.company_id,
            external_id=request.external_id,
            document_type=request.document_type,
            file_name=request.file_name,
            sha256=request.file.sha256,
            size_bytes=request.file.size_bytes,
            object_key=request.file.object_key,
            unpack_state=UnpackState.PENDING,
            attempts=0,
        )
        try:
            with session.begin_nested():
                batch_repo.add_batch(session, batch)
            announce_work(session, BATCH)
            return Claim(record=batch, replayed=False, uses_new_object=True)
        except IntegrityError:
            existing = _find_batch(session, request)
            if existing is None:
                raise
    _check_same_request(existing, request)
    return Claim(record=existing, replayed=True, uses_new_object=False)


def object_in_use(session: Session, object_key: str) -> bool:
    """Whether a committed upload or batch points at the object (asked after an error
    around a commit)."""
    return bool(retention_repo.objects_in_use(session, [object_key]))


# --- content duplicates across documentTypes -------------------------------------------

# The result types each documentType can end in (the spec's document types, decisions.md).
VALID_RESULT_TYPES: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        DocumentType.AUTO: frozenset(
            {ResultType.INVOICE, ResultType.OTHER_DOCUMENT, ResultType.PAYMENT_FILE}
        ),
        DocumentType.SUPPLIER_INVOICE: frozenset({ResultType.INVOICE, ResultType.OTHER_DOCUMENT}),
        DocumentType.CUSTOMER_INVOICE: frozenset({ResultType.INVOICE, ResultType.OTHER_DOCUMENT}),
        DocumentType.BANK_STATEMENT: frozenset({ResultType.BANK_STATEMENT}),
        DocumentType.OTHER_DOCUMENT: frozenset({ResultType.OTHER_DOCUMENT}),
    }
)
# documentTypes whose reads of one file end alike. "Not an invoice" is a verdict of the
# read it came from: `auto` makes a SEPA file a payment file and a blank PDF an other
# document, where an explicit invoice type files the one and fails the other; and an
# `other_document` read files without looking at all.
_SAME_READ: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        DocumentType.AUTO: frozenset({DocumentType.AUTO}),
        DocumentType.SUPPLIER_INVOICE: frozenset(
            {DocumentType.SUPPLIER_INVOICE, DocumentType.CUSTOMER_INVOICE}
        ),
        DocumentType.CUSTOMER_INVOICE: frozenset(
            {DocumentType.SUPPLIER_INVOICE, DocumentType.CUSTOMER_INVOICE}
        ),
    }
)


def may_reuse(result: LiveResult, document_type: str) -> bool:
    """Whether an upload sent as `document_type` may complete with `result`, booked for
    the same content, instead of being read: only when the result is a valid outcome for
    that documentType, and, for an other document sent as an invoice type, only when a
    read of the same kind filed it."""
    if result.type not in VALID_RESULT_TYPES.get(document_type, frozenset()):
        return False
    if result.type != ResultType.OTHER_DOCUMENT or document_type == DocumentType.OTHER_DOCUMENT:
        return True
    return not result.read_as.isdisjoint(_SAME_READ[document_type])


def reusable_result(results: list[LiveResult], document_type: str) -> LiveResult | None:
    """The booked result an upload of this content completes with, None when it must be
    read: one it may reuse, read as the same documentType if there is one, else the
    oldest."""
    usable = [result for result in results if may_reuse(result, document_type)]
    same = [result for result in usable if document_type in result.read_as]
    candidates = same or usable
    return candidates[0] if candidates else None

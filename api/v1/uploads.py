"""The four /v1 endpoints of the contract."""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from typing import Annotated

import anyio
from fastapi import APIRouter, Path, Request, Response, Security
from starlette.concurrency import run_in_threadpool

from api.body_limits import BodyKind, body_limit
from api.deps import (
    CompanyIdDep,
    Services,
    ServicesDep,
    api_key_scheme,
)
from api.errors import problem_responses
from api.intake import ReceivedForm, receive_file
from api.multipart import FormStream
from api.v1.forms import BATCH_FORM, UPLOAD_FORM, created_links
from api.v1.polling import answer_poll, batch_response, resource_response, upload_response
from api.v1.schemas import BatchOut, UploadOut
from processors.archive import (
    ArchiveLimits,
    ArchiveProblem,
    ArchiveRejected,
    inspect_central_directory,
)
from processors.base import DocumentType
from storage import errors
from storage.idempotency import (
    Claim,
    IntakeRequest,
    StoredFile,
    claim_batch,
    claim_new_upload,
    claim_upload,
    object_in_use,
)
from storage.models import Batch
from storage.resources import present_batch, upload_out
from storage.states import ACTIVE_STATUSES, BatchStatus

router = APIRouter(prefix="/v1", tags=["uploads"], dependencies=[Security(api_key_scheme)])

log = logging.getLogger(__name__)

UploadId = Annotated[str, Path(description="Upload ID (uuid)")]
BatchId = Annotated[str, Path(description="Batch ID (uuid)")]

_ARCHIVE_ERRORS: dict[ArchiveProblem, type[errors.DomainError]] = {
    ArchiveProblem.INVALID: errors.InvalidArchive,
    ArchiveProblem.TOO_MANY_FILES: errors.ArchiveTooManyFiles,
    ArchiveProblem.TOO_LARGE: errors.ArchiveTooLarge,
}


def _clean_file_name(raw: str | None) -> str:
    """Keep the base name a client sent; the name is a label, never a path."""
    if raw is None or raw == "":
        return "upload"
    if "\0" in raw or any(ord(char) < 32 for char in raw):
        raise errors.ValidationFailed("the file name contains control characters")
    base = raw.replace("\\", "/").rsplit("/", 1)[-1].strip()
    if base in ("", ".", ".."):
        raise errors.ValidationFailed("the file name is empty after removing directories")
    return base[:1024]


@dataclass(frozen=True, slots=True)
class _Fields:
    file_name: str
    document_type: str
    external_id: str | None

    def request(self, company_id: uuid.UUID, file: StoredFile) -> IntakeRequest:
        return IntakeRequest(
            company_id=company_id,
            file_name=self.file_name,
            document_type=self.document_type,
            external_id=self.external_id,
            file=file,
        )


def _fields(form: FormStream, services: Services) -> _Fields:
    raw_type = form.field("documentType")
    try:
        document_type = DocumentType.AUTO if raw_type is None else DocumentType(raw_type)
    except ValueError:
        allowed = ", ".join(t.value for t in DocumentType)
        raise errors.ValidationFailed(f"documentType must be one of: {allowed}") from None
    external_id = form.field("externalId")
    if external_id is not None:
        limit = services.settings.max_external_id_length
        if len(external_id) > limit:
            raise errors.ValidationFailed(f"externalId is longer than {limit} characters")
        if external_id == "" or "\0" in external_id:
            raise errors.ValidationFailed("externalId must be a non-empty string without NUL")
    return _Fields(_clean_file_name(form.file_name), document_type.value, external_id)


def _accepted(body: UploadOut | BatchOut, replayed: bool, retry_after: int | None) -> Response:
    headers = {"Retry-After": str(retry_after)} if retry_after is not None else {}
    if replayed:
        headers["Idempotent-Replayed"] = "true"
    return resource_response(body, 202, headers)


async def _receive(
    request: Request, services: Services, key: str, max_file_bytes: int
) -> tuple[ReceivedForm, _Fields]:
    """The form read and its fields checked; a file of the form may still be in hand
    (`ReceivedForm.stored_file`). A refused form keeps nothing."""
    received = await receive_file(request, services.store, key, max_file_bytes)
    try:
        return received, _fields(received.form, services)
    except BaseException:
        await received.discard()
        raise


def _in_use_or_unknown(services: Services, key: str) -> bool:
    try:
        with services.db.read_session() as session:
            return object_in_use(session, key)
    except Exception:
        log.warning("kept %s: the database could not say whether a row points at it", key)
        return True


async def _drop_unless_committed(services: Services, key: str) -> None:
    """After an error around the commit, delete the stored file only when the database
    says that no row points at it. The commit may have happened before the error: a
    database that cannot be asked keeps the object (an orphan object is harmless, a row
    pointing at nothing is not)."""
    with anyio.CancelScope(shield=True):
        if not await run_in_threadpool(_in_use_or_unknown, services, key):
            await run_in_threadpool(services.store.delete, key)


@dataclass(frozen=True, slots=True)
class _Accepted:
    body: UploadOut
    replayed: bool
    retry_after: int | None


def _store_and_claim_upload(
    services: Services, received: ReceivedForm, fields: _Fields, company_id: uuid.UUID
) -> _Accepted:
    """Everything of a single upload that blocks, in one trip to the thread pool: store
    the file (if it is still in hand), claim it in one transaction, drop the new object
    if a repeat does not need it, and count the queue for Retry-After."""
    file = received.stored_file()
    request = fields.request(company_id, file)
    claim = claim_new_upload(services.db, request)
    if claim is None:  # a repeat, or a file that starts failed
        with services.db.session() as session:
            claim = claim_upload(session, request)
            session.commit()
    if file.object_key and not claim.uses_new_object:
        services.store.delete(file.object_key)
    body = upload_out(claim.record, services.settings.public_base_url)
    active = body.status in ACTIVE_STATUSES
    return _Accepted(body, claim.replayed, services.retry_after.seconds() if active else None)


@router.post(
    "/uploads",
    status_code=202,
    response_model=UploadOut,
    operation_id="createUpload",
    openapi_extra=UPLOAD_FORM,
    responses={
        **created_links("getUpload", "upload_id"),
        **problem_responses(401, 409, 413, 422, 429, 500, 503),
    },
    summary="Upload one document",
)
@body_limit(BodyKind.UPLOAD)
async def create_upload(
    request: Request, services: ServicesDep, company_id: CompanyIdDep
) -> Response:
    return await upload_answer(request, services, company_id)


async def upload_answer(request: Request, services: Services, company_id: uuid.UUID) -> Response:
    """A single upload of an authenticated company: the route's answer, and that of the
    path in front of FastAPI (api/v1/upload_path.py)."""
    key = f"uploads/{uuid.uuid4()}"
    received, fields = await _receive(request, services, key, services.settings.max_file_bytes)
    try:
        accepted = await run_in_threadpool(
            _store_and_claim_upload, services, received, fields, company_id
        )
    except BaseException:
        await _drop_unless_committed(services, key)
        raise
    return _accepted(accepted.body, accepted.replayed, accepted.retry_after)


def _check_archive(services: Services, key: str) -> None:
    limits = ArchiveLimits(
        max_files=services.settings.max_archive_files,
        max_total_bytes=services.settings.max_archive_bytes,
    )
    with services.store.open_reader(key) as reader:
        try:
            inspect_central_directory(reader, limits)
        except ArchiveRejected as exc:
            raise _ARCHIVE_ERRORS[exc.problem](exc.message) from exc


def _store_and_check_archive(services: Services, received: ReceivedForm) -> StoredFile:
    file = received.stored_file()
    assert file.object_key is not None, "an archive is never over the request's own cap"
    _check_archive(services, file.object_key)
    return file


def _claim_and_present_batch(
    services: Services, intake: IntakeRequest
) -> tuple[BatchOut, Claim[Batch]]:
    with services.db.session() as session:
        claim = claim_batch(session, intake)
        session.commit()
        body = present_batch(session, claim.record, services.settings.public_base_url)
    return body, claim


@router.post(
    "/uploads/batches",
    status_code=202,
    response_model=BatchOut,
    operation_id="createBatch",
    openapi_extra=BATCH_FORM,
    responses={
        **created_links("getBatch", "batch_id"),
        **problem_responses(401, 409, 413, 422, 429, 500, 503),
    },
    summary="Upload a ZIP archive of documents",
)
@body_limit(BodyKind.UPLOAD)
async def create_batch(
    request: Request, services: ServicesDep, company_id: CompanyIdDep
) -> Response:
    key = f"batches/{uuid.uuid4()}.zip"
    # The archive is bounded by the request cap and the archive limits, not the per-file one.
    received, fields = await _receive(request, services, key, services.settings.max_request_bytes)
    try:
        file = await run_in_threadpool(_store_and_check_archive, services, received)
    except BaseException:
        with anyio.CancelScope(shield=True):
            await run_in_threadpool(services.store.delete, key)
        raise
    intake = fields.request(company_id, file)
    try:
        body, claim = await run_in_threadpool(_claim_and_present_batch, services, intake)
    except BaseException:
        await _drop_unless_committed(services, key)
        raise
    if not claim.uses_new_object:
        await run_in_threadpool(services.store.delete, key)
    retry = services.retry_after.seconds() if body.status is BatchStatus.PROCESSING else None
    return _accepted(body, claim.replayed, retry)


# The two polling GETs are answered by api/v1/polling.py's PollingPath in front of the
# app; these routes are their operations in the OpenAPI document and answer the same.


@router.get(
    "/uploads/{upload_id}",
    response_model=UploadOut,
    operation_id="getUpload",
    responses=problem_responses(401, 404, 429, 500, 503),
    summary="Get one upload",
)
@body_limit(BodyKind.NONE)
async def get_upload(upload_id: UploadId, request: Request, services: ServicesDep) -> Response:
    return await answer_poll(upload_response, services, request, upload_id)


@router.get(
    "/uploads/batches/{batch_id}",
    response_model=BatchOut,
    operation_id="getBatch",
    responses=problem_responses(401, 404, 429, 500, 503),
    summary="Get one upload batch with its uploads",
)
@body_limit(BodyKind.NONE)
async def get_batch(batch_id: BatchId, request: Request, services: ServicesDep) -> Response:
    return await answer_poll(batch_response, services, request, batch_id)

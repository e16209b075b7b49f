"""The Upload and Upload batch resources as the API returns them: camelCase, every field
always present. They live here, below the API, because webhook events carry the same
resources, frozen in the outbox in the transaction of the state change
(storage/repositories/webhooks.py); api/v1 serves them from here too."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_serializer
from pydantic.alias_generators import to_camel
from sqlalchemy.orm import Session

from processors.base import DocumentType, FailureCode, ResultType
from storage.links import result_url
from storage.models import Batch
from storage.repositories.upload_views import BatchHead, UploadView, batch_views, status_counts
from storage.states import BatchStatus, UnpackState, UploadStatus, derive_batch_status


class WireModel(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)


def utc_z(value: datetime) -> str:
    """ISO 8601 UTC with milliseconds and a `Z` (decisions.md: timestamps)."""
    return value.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


class ResultRef(WireModel):
    type: ResultType
    id: uuid.UUID
    url: str


class UploadError(WireModel):
    code: FailureCode
    message: str


class UploadOut(WireModel):
    id: uuid.UUID
    batch_id: uuid.UUID | None
    external_id: str | None
    file_name: str
    document_type: DocumentType
    status: UploadStatus
    result: ResultRef | None
    error: UploadError | None
    created_at: datetime

    @field_serializer("created_at")
    def _created_at(self, value: datetime) -> str:
        return utc_z(value)


class BatchCounts(WireModel):
    total: int
    queued: int
    processing: int
    completed: int
    failed: int
    deleted: int


class ApiSource(WireModel):
    """A batch posted to the API (an extension of the spec's batch: docs/email.md)."""

    type: Literal["api"] = "api"


class EmailSource(WireModel):
    """A batch made of an e-mail: its sender, subject and Message-ID as its header says
    them (null until the message is unpacked, the sender then the envelope's)."""

    type: Literal["email"] = "email"
    sender: str | None = Field(alias="from")
    subject: str | None
    message_id: str | None
    received_at: datetime | None

    @field_serializer("received_at")
    def _received_at(self, value: datetime | None) -> str | None:
        return None if value is None else utc_z(value)


class BatchOut(WireModel):
    id: uuid.UUID
    external_id: str | None
    document_type: DocumentType
    status: BatchStatus
    counts: BatchCounts
    uploads: list[UploadOut]
    created_at: datetime
    source: ApiSource | EmailSource = Field(discriminator="type")

    @field_serializer("created_at")
    def _created_at(self, value: datetime) -> str:
        return utc_z(value)


def upload_out(view: UploadView, base_url: str) -> UploadOut:
    status = UploadStatus(view.status)
    result_ref = None
    if status is UploadStatus.COMPLETED and view.result_id and view.result_type:
        result_type = ResultType(view.result_type)
        result_ref = ResultRef(
            type=result_type,
            id=view.result_id,
            url=result_url(base_url, result_type, view.result_id),
        )
    error = None
    if status is UploadStatus.FAILED and view.error_code:
        error = UploadError(code=FailureCode(view.error_code), message=view.error_message or "")
    return UploadOut(
        id=view.id,
        batch_id=view.batch_id,
        external_id=view.external_id,
        file_name=view.file_name,
        document_type=DocumentType(view.document_type),
        status=status,
        result=result_ref,
        error=error,
        created_at=view.created_at,
    )


def batch_source(batch: Batch | BatchHead) -> ApiSource | EmailSource:
    if batch.source_type != "email":
        return ApiSource()
    return EmailSource(
        sender=batch.mail_from,
        subject=batch.mail_subject,
        message_id=batch.message_id,
        received_at=batch.received_at,
    )


def present_batch(session: Session, batch: Batch | BatchHead, base_url: str) -> BatchOut:
    views = batch_views(session, batch.id)
    counts = status_counts(view.status for view in views)
    return BatchOut(
        id=batch.id,
        external_id=batch.external_id,
        document_type=DocumentType(batch.document_type),
        status=derive_batch_status(UnpackState(batch.unpack_state), counts),
        counts=BatchCounts.model_validate(counts),
        uploads=[upload_out(view, base_url) for view in views],
        created_at=batch.created_at,
        source=batch_source(batch),
    )


# Frozen resources keep result URLs as paths (`/app/invoices/<id>`): the public base URL
# is the sender's setting, put in front when the event is sent.


def frozen(resource: UploadOut | BatchOut) -> dict[str, Any]:
    """The resource as JSON-ready data, rendered with an empty base URL."""
    data: dict[str, Any] = resource.model_dump(mode="json", by_alias=True)
    return data


def with_base_url(data: dict[str, Any], base_url: str) -> dict[str, Any]:
    """A frozen Upload or Upload batch with its result URLs made absolute."""
    base = base_url.rstrip("/")

    def upload(item: dict[str, Any]) -> dict[str, Any]:
        result = item.get("result")
        if not isinstance(result, dict) or not str(result.get("url", "")).startswith("/"):
            return item
        return {**item, "result": {**result, "url": base + result["url"]}}

    if isinstance(data.get("uploads"), list):
        return {**data, "uploads": [upload(item) for item in data["uploads"]]}
    return upload(data)

"""The wire format of the /v1 resources: camelCase, every field always present."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_serializer
from pydantic.alias_generators import to_camel

from processors.base import DocumentType, FailureCode, ResultType
from storage.states import BatchStatus, UploadStatus


class WireModel(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)


def _utc_z(value: datetime) -> str:
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
        return _utc_z(value)


class BatchCounts(WireModel):
    total: int
    queued: int
    processing: int
    completed: int
    failed: int
    deleted: int


class BatchOut(WireModel):
    id: uuid.UUID
    external_id: str | None
    document_type: DocumentType
    status: BatchStatus
    counts: BatchCounts
    uploads: list[UploadOut]
    created_at: datetime

    @field_serializer("created_at")
    def _created_at(self, value: datetime) -> str:
        return _utc_z(value)


class Problem(BaseModel):
    """RFC 9457 problem details, with a machine-readable `code`."""

    type: str = Field(examples=["https://docintake.dev/problems/not_found"])
    title: str
    status: int
    detail: str
    code: str
    errors: list[dict[str, object]] | None = None


class Health(BaseModel):
    status: Literal["ok", "unavailable"]
    database: str
    objectStore: str

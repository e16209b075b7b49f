"""The wire format of /v1: the resources (defined in storage/resources.py, which webhook
events share), problem details and health."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from storage.resources import BatchCounts, BatchOut, ResultRef, UploadError, UploadOut, WireModel

__all__ = [
    "BatchCounts",
    "BatchOut",
    "Health",
    "Problem",
    "ResultRef",
    "UploadError",
    "UploadOut",
    "WireModel",
]


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

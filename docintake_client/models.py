"""What the API answers, as frozen types: the wire fields in snake_case.

`Upload` and `Batch` also carry two response headers: `replayed`
(`Idempotent-Replayed: true`, the answer to a repeated request) and `retry_after`
(`Retry-After`, when to poll again, or when to send again after a 429 or 503).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

TERMINAL_UPLOAD_STATUSES = frozenset({"completed", "failed", "deleted"})
TERMINAL_BATCH_STATUSES = frozenset({"completed", "completed_with_errors", "failed"})


@dataclass(frozen=True, slots=True)
class Result:
    type: str
    id: str
    url: str


@dataclass(frozen=True, slots=True)
class Error:
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class Upload:
    id: str
    batch_id: str | None
    external_id: str | None
    file_name: str
    document_type: str
    status: str
    result: Result | None
    error: Error | None
    created_at: str
    # From the response headers, not the body.
    replayed: bool = False
    retry_after: int | None = None

    @property
    def is_terminal(self) -> bool:
        return self.status in TERMINAL_UPLOAD_STATUSES


@dataclass(frozen=True, slots=True)
class BatchCounts:
    total: int
    queued: int
    processing: int
    completed: int
    failed: int
    deleted: int


@dataclass(frozen=True, slots=True)
class Batch:
    id: str
    external_id: str | None
    document_type: str
    status: str
    counts: BatchCounts
    uploads: tuple[Upload, ...]
    created_at: str
    replayed: bool = False
    retry_after: int | None = None

    @property
    def is_terminal(self) -> bool:
        return self.status in TERMINAL_BATCH_STATUSES and len(self.uploads) == self.counts.total


@dataclass(frozen=True, slots=True)
class Original:
    """A result's original file, as uploaded."""

    content: bytes
    content_type: str
    file_name: str | None


def file_name_of(disposition: str) -> str | None:
    """The name in `Content-Disposition`: RFC 5987 `filename*` first, else `filename`."""
    encoded = re.search(r"filename\*=UTF-8''([^;]+)", disposition)
    if encoded:
        return unquote(encoded.group(1))
    plain = re.search(r'filename="([^"]*)"', disposition)
    return plain.group(1) if plain else None


def _optional_str(value: object) -> str | None:
    return None if value is None else str(value)


def parse_upload(
    body: Mapping[str, Any], replayed: bool = False, retry_after: int | None = None
) -> Upload:
    result = body.get("result")
    error = body.get("error")
    return Upload(
        id=str(body["id"]),
        batch_id=_optional_str(body.get("batchId")),
        external_id=_optional_str(body.get("externalId")),
        file_name=str(body["fileName"]),
        document_type=str(body["documentType"]),
        status=str(body["status"]),
        result=Result(str(result["type"]), str(result["id"]), str(result["url"]))
        if result
        else None,
        error=Error(str(error["code"]), str(error["message"])) if error else None,
        created_at=str(body["createdAt"]),
        replayed=replayed,
        retry_after=retry_after,
    )


def parse_batch(
    body: Mapping[str, Any], replayed: bool = False, retry_after: int | None = None
) -> Batch:
    counts = body["counts"]
    return Batch(
        id=str(body["id"]),
        external_id=_optional_str(body.get("externalId")),
        document_type=str(body["documentType"]),
        status=str(body["status"]),
        counts=BatchCounts(**{name: int(counts[name]) for name in BatchCounts.__slots__}),
        uploads=tuple(parse_upload(upload) for upload in body["uploads"]),
        created_at=str(body["createdAt"]),
        replayed=replayed,
        retry_after=retry_after,
    )

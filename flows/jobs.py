"""What the pipeline hands around: a claimed upload (`Job`) and what came of it
(`JobResult`), plain frozen data detached from any session."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from storage.models import Upload


@dataclass(frozen=True, slots=True)
class Job:
    """A claimed upload, detached from the session that claimed it."""

    upload_id: uuid.UUID
    company_id: uuid.UUID
    batch_id: uuid.UUID | None
    file_name: str
    document_type: str
    sha256: str
    object_key: str | None
    # The live result (id, type) of the same content in the same company that answers
    # the upload's documentType (storage/idempotency.py, `may_reuse`), found when the
    # upload was claimed: the upload completes with it instead of being read.
    booked: tuple[uuid.UUID, str] | None = None

    @classmethod
    def of(cls, upload: Upload, booked: tuple[uuid.UUID, str] | None = None) -> Job:
        return cls(
            upload.id,
            upload.company_id,
            upload.batch_id,
            upload.file_name,
            upload.document_type,
            upload.sha256,
            upload.object_key,
            booked,
        )


@dataclass(frozen=True, slots=True)
class JobResult:
    upload_id: uuid.UUID
    file_name: str
    status: str
    result_id: uuid.UUID | None = None
    result_type: str | None = None
    error_code: str | None = None

    def __str__(self) -> str:
        outcome = self.error_code or self.result_type or ""
        return f"upload {self.upload_id} ({self.file_name}): {self.status} {outcome}".rstrip()

"""What the pipeline hands around: a claimed upload (`Job`) and what came of it
(`JobEnd`), plain frozen data detached from any session."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from processors.base import FailureCode, ResultType
from storage.repositories.work import ClaimedUpload
from storage.states import UploadStatus

# A result as it is booked: its id and type.
Booked = tuple[uuid.UUID, ResultType]


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
    # The live result of the same content in the same company that answers the upload's
    # documentType (storage/idempotency.py, `may_reuse`), found when the upload was
    # claimed: the upload completes with it instead of being read.
    booked: Booked | None = None

    @classmethod
    def of(cls, upload: ClaimedUpload, booked: Booked | None = None) -> Job:
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
class JobEnd:
    """What came of a job: the upload's status as this worker left it (completed with
    `result`, failed with `failure`, or queued: given back), or None when its lease was
    lost (another worker has the upload now)."""

    job: Job
    status: UploadStatus | None
    result: Booked | None = None
    failure: FailureCode | None = None

    def __str__(self) -> str:
        job, status = self.job, "lost" if self.status is None else self.status.value
        what = self.failure or (self.result[1] if self.result else "")
        return f"upload {job.upload_id} ({job.file_name}): {status} {what}".rstrip()

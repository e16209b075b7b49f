"""The upload state machine: one transition table and the guard every status change passes.

`queued -> processing -> completed | failed` is the normal path. The other moves:
- `queued -> failed`: intake checks refused the file before any processor read it.
- `processing -> queued`: a worker's lease expired (it died); the upload is handed out again.
- `completed -> deleted`: the result was deleted in the web application.
- `failed -> queued`: a repeated request for an intake failure, or a retry of
  `processing_failed` from the web application.
- `deleted -> queued`: a repeated request reads the stored file again (once purged,
  the file it sends).
- `completed -> queued`: the accountant reclassified it in the web application (an
  "other document" to be read as an invoice, or back; issue 43).

A deleted upload is purged after the retention period without a status change: its
history gets a row `deleted -> deleted` with the event `purged` (HistoryEvent).
"""

from __future__ import annotations

from enum import StrEnum

from processors.base import FailureCode
from storage.errors import InvalidTransition


class UploadStatus(StrEnum):
    QUEUED = "queued"
    PROCESSING = "processing"
    COMPLETED = "completed"
    FAILED = "failed"
    DELETED = "deleted"


class HistoryEvent(StrEnum):
    """What a status history row records besides status changes; the status stays."""

    # A deleted upload's stored bytes and its result data were removed after the
    # retention period (docs/retention.md). The upload stays `deleted`.
    PURGED = "purged"


ALLOWED_TRANSITIONS: dict[UploadStatus | None, frozenset[UploadStatus]] = {
    None: frozenset({UploadStatus.QUEUED, UploadStatus.FAILED}),
    UploadStatus.QUEUED: frozenset({UploadStatus.PROCESSING, UploadStatus.FAILED}),
    UploadStatus.PROCESSING: frozenset(
        {UploadStatus.COMPLETED, UploadStatus.FAILED, UploadStatus.QUEUED}
    ),
    UploadStatus.COMPLETED: frozenset({UploadStatus.DELETED, UploadStatus.QUEUED}),
    UploadStatus.FAILED: frozenset({UploadStatus.QUEUED, UploadStatus.DELETED}),
    UploadStatus.DELETED: frozenset({UploadStatus.QUEUED}),
}

ACTIVE_STATUSES = frozenset({UploadStatus.QUEUED, UploadStatus.PROCESSING})

# "Failed before reading started": refused by the intake checks, so a repeat may retry it.
INTAKE_FAILURE_CODES = frozenset({FailureCode.UNSUPPORTED_FILE_TYPE, FailureCode.FILE_TOO_LARGE})


def check_transition(current: UploadStatus | None, target: UploadStatus) -> None:
    if target not in ALLOWED_TRANSITIONS[current]:
        raise InvalidTransition(f"an upload cannot move from {current} to {target}")


class BatchStatus(StrEnum):
    PROCESSING = "processing"
    COMPLETED = "completed"
    COMPLETED_WITH_ERRORS = "completed_with_errors"
    FAILED = "failed"


class UnpackState(StrEnum):
    """Where the batch's archive is: waiting to be unpacked, unpacked, or refused."""

    PENDING = "pending"
    DONE = "done"
    FAILED = "failed"


def derive_batch_status(unpack_state: UnpackState, counts: dict[str, int]) -> BatchStatus:
    """The spec's batch states, derived from the uploads. A deleted upload was completed
    before its result was deleted, so it does not make the batch erroneous."""
    if unpack_state is UnpackState.FAILED:
        return BatchStatus.FAILED
    active = counts.get(UploadStatus.QUEUED, 0) + counts.get(UploadStatus.PROCESSING, 0)
    if unpack_state is UnpackState.PENDING or active:
        return BatchStatus.PROCESSING
    failed, total = counts.get(UploadStatus.FAILED, 0), counts.get("total", 0)
    if failed == 0:
        return BatchStatus.COMPLETED
    if failed == total:
        return BatchStatus.FAILED
    return BatchStatus.COMPLETED_WITH_ERRORS

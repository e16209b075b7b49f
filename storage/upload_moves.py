"""The named moves of an upload: every status change, and exactly what each sets and clears.

`Upload` (storage/models.py) mixes these in, so a move reads `upload.complete(result_id)`.
The transition table and its guard stay in storage/states.py. A move names the states it
may start from (the table allows `failed -> queued` to a retry, not to a release) and
passes the table's guard (`Upload.set_status`) before it touches a column: a refused move
raises InvalidTransition and changes nothing.
A move returns the history row; repositories find and lock the rows, call the move and
hand the row to their session (`uploads.record_move`). They set no upload column
themselves.

Each status carries its own columns and none of the others', and every move leaves the
row so:
- processing: the lease (owner and expiry);
- completed: the result;
- failed: the error (code, message, details);
- queued and deleted: none of them (and a purged deleted upload no stored bytes either).
`attempts` counts takes (the MAX_TAKES safety net) and `crashes` the reading processes
that died while reading the upload (MAX_CRASHES); only a retry sets them back to 0.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import TYPE_CHECKING, Any

from processors.base import FailureCode
from storage.errors import InvalidTransition
from storage.states import HistoryEvent, UploadStatus

if TYPE_CHECKING:
    from sqlalchemy.orm import Mapped

    from storage.models import StatusChange

# A document (or archive) whose reading process died twice is not tried a third time.
MAX_CRASHES = 2
# A safety net, not a blame: a document taken in hand this often without an outcome
# (every worker holding it died, for whatever reason) is not taken again.
MAX_TAKES = 10
MAX_ERROR_MESSAGE = 4000


class UploadMoves:
    """The moves of `Upload`; the columns below are declared on it."""

    if TYPE_CHECKING:
        status: Mapped[str]
        result_id: Mapped[uuid.UUID | None]
        error_code: Mapped[str | None]
        error_message: Mapped[str | None]
        error_details: Mapped[dict[str, Any] | None]
        attempts: Mapped[int]
        crashes: Mapped[int]
        lease_owner: Mapped[str | None]
        lease_expires_at: Mapped[datetime | None]

        object_key: Mapped[str | None]

        def set_status(self, target: UploadStatus) -> StatusChange: ...

        def note_event(self, event: HistoryEvent) -> StatusChange: ...

    def take(self, owner: str, expires_at: datetime) -> StatusChange:
        """queued -> processing: sets the lease and counts one more take; clears the
        result and the error."""
        change = self._move(UploadStatus.QUEUED, to=UploadStatus.PROCESSING)
        self._clear_result()
        self._clear_error()
        self.lease_owner, self.lease_expires_at = owner, expires_at
        self.attempts += 1
        return change

    def complete(self, result_id: uuid.UUID) -> StatusChange:
        """processing -> completed: sets the result; clears the error and the lease."""
        change = self._move(UploadStatus.PROCESSING, to=UploadStatus.COMPLETED)
        self.result_id = result_id
        self._clear_error()
        self._clear_lease()
        return change

    def fail(
        self, code: FailureCode, message: str, details: dict[str, Any] | None = None
    ) -> StatusChange:
        """queued or processing -> failed: sets the error (the message cut to
        MAX_ERROR_MESSAGE characters); clears the result and the lease."""
        change = self._move(UploadStatus.QUEUED, UploadStatus.PROCESSING, to=UploadStatus.FAILED)
        self._clear_result()
        self.error_code, self.error_message = code, message[:MAX_ERROR_MESSAGE]
        self.error_details = details
        self._clear_lease()
        return change

    def release(self) -> StatusChange:
        """processing -> queued without blame (an infrastructure error, a shutdown): the
        take is not counted. Clears the result, the error and the lease."""
        change = self._back_to_queue(UploadStatus.PROCESSING)
        self.attempts = max(0, self.attempts - 1)
        return change

    def requeue(self) -> StatusChange:
        """processing -> queued after the worker holding it died: the take still counts
        towards MAX_TAKES. Clears the result, the error and the lease."""
        return self._back_to_queue(UploadStatus.PROCESSING)

    def requeue_or_give_up(self) -> StatusChange:
        """Its worker died (the lease expired): requeue, or, once taken MAX_TAKES times
        without an outcome, fail `processing_failed`."""
        self._require(UploadStatus.PROCESSING)
        if self.attempts < MAX_TAKES:
            return self.requeue()
        message = (
            f"The document was taken in hand {self.attempts} times without an outcome;"
            " retry it in the web application."
        )
        return self.fail(FailureCode.PROCESSING_FAILED, message)

    def charge_crash(self, reason: str) -> StatusChange:
        """The process reading it died while reading it (a crash, or a kill such as the
        OOM killer's): one more crash, counted against this upload alone. Fails
        `processing_failed` at MAX_CRASHES, else releases it."""
        self._require(UploadStatus.PROCESSING)
        crashes = self.crashes + 1
        if crashes < MAX_CRASHES:
            change = self.release()
        else:
            message = (
                f"The process reading the document died {crashes} times while reading it"
                f" ({reason}); retry it in the web application."
            )
            change = self.fail(FailureCode.PROCESSING_FAILED, message)
        self.crashes = crashes
        return change

    def mark_deleted(self) -> StatusChange:
        """completed -> deleted (its result was deleted): clears the result, the error and
        the lease."""
        change = self._move(UploadStatus.COMPLETED, to=UploadStatus.DELETED)
        self._clear_result()
        self._clear_error()
        self._clear_lease()
        return change

    def purge(self) -> StatusChange:
        """deleted, and stays so: its stored bytes are about to be removed (retention,
        storage/retention.py), so it no longer points at them. A history row with the
        event `purged`; a repeated request afterwards reads the file it brings."""
        self._require(UploadStatus.DELETED)
        self.object_key = None
        return self.note_event(HistoryEvent.PURGED)

    def retry(self) -> StatusChange:
        """failed or deleted -> queued, as new: clears the result, the error and the
        lease, and sets attempts and crashes back to 0."""
        change = self._back_to_queue(UploadStatus.FAILED, UploadStatus.DELETED)
        self.attempts = self.crashes = 0
        return change

    def _move(self, *sources: UploadStatus, to: UploadStatus) -> StatusChange:
        """The status change of a move that starts only in one of `sources`."""
        self._require(*sources)
        return self.set_status(to)

    def _require(self, *sources: UploadStatus) -> None:
        if self.status not in sources:
            allowed = " or ".join(sources)
            raise InvalidTransition(f"this move starts from {allowed}, not from {self.status}")

    def _back_to_queue(self, *sources: UploadStatus) -> StatusChange:
        change = self._move(*sources, to=UploadStatus.QUEUED)
        self._clear_result()
        self._clear_error()
        self._clear_lease()
        return change

    def _clear_result(self) -> None:
        self.result_id = None

    def _clear_error(self) -> None:
        self.error_code = self.error_message = self.error_details = None

    def _clear_lease(self) -> None:
        self.lease_owner = self.lease_expires_at = None

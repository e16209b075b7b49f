"""The named moves of an upload: every status change, and exactly what each sets and clears.

Each move is declared once, as data (`Move`: the states it may start from, and a
`Branch` per outcome: the target status and the value of every column it sets or
clears). The declaration runs two ways:
- on one ORM object: `Upload` (storage/models.py) mixes `UploadMoves` in, so a move
  reads `upload.complete(result_id)`; it returns the history row, and repositories hand
  it to their session (`uploads.record_move`);
- on a group of rows: storage/repositories/upload_groups.py compiles it into one Core
  `UPDATE ... WHERE id IN (...) AND status = ...` per starting state, with its history
  rows and outbox notes, without loading the rows.
Every value is computed from the row as it was before the move, as SQL computes a SET
clause, so both ways write the same row (tests/storage/test_upload_moves.py runs every
move both ways).
The transition table and its guard stay in storage/states.py. A move names the states it
may start from (the table allows `failed -> queued` to a retry, not to a release) and
passes the table's guard before it touches a column: on one object a refused move raises
InvalidTransition and changes nothing; in a group a row in another state is left alone.

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
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from processors.base import FailureCode
from storage.errors import InvalidTransition
from storage.move_values import NULL, Arg, Below, Col, Const, Cut, Floor0, Plus, Text, Value
from storage.states import HistoryEvent, UploadStatus, check_transition

if TYPE_CHECKING:
    from sqlalchemy.orm import Mapped

    from storage.models import StatusChange

# A document (or archive) whose reading process died twice is not tried a third time.
MAX_CRASHES = 2
# A safety net, not a blame: a document taken in hand this often without an outcome
# (every worker holding it died, for whatever reason) is not taken again.
MAX_TAKES = 10
MAX_ERROR_MESSAGE = 4000

S = UploadStatus


@dataclass(frozen=True)
class Branch:
    """One way a move can end: the status it reaches (`event`: a history event that keeps
    the status) and the columns it sets, for the rows that meet `when` (None: every row
    the branches before it did not take)."""

    target: UploadStatus
    sets: Mapping[str, Value]
    when: Below | None = None
    event: HistoryEvent | None = None


@dataclass(frozen=True)
class Move:
    name: str
    sources: tuple[UploadStatus, ...]
    branches: tuple[Branch, ...]

    def __post_init__(self) -> None:
        for branch in self.branches:
            for source in self.sources:
                if branch.event is None:
                    check_transition(source, branch.target)
            # A row a guarded branch moved must not match the next branch's start.
            assert len(self.branches) == 1 or branch.target not in self.sources, self.name
        assert self.branches[-1].when is None, self.name

    def branch_for(self, row: Any, args: Mapping[str, Any]) -> Branch:
        """The branch a row takes (`row`: anything with the columns as attributes)."""
        return next(b for b in self.branches if b.when is None or b.when.holds(row, args))


_NO_RESULT: dict[str, Value] = {"result_id": NULL}
_NO_ERROR: dict[str, Value] = {"error_code": NULL, "error_message": NULL, "error_details": NULL}
_NO_LEASE: dict[str, Value] = {"lease_owner": NULL, "lease_expires_at": NULL}
_BACK_IN_QUEUE = _NO_RESULT | _NO_ERROR | _NO_LEASE
_UNCOUNTED_TAKE: dict[str, Value] = {"attempts": Floor0(Plus(Col("attempts"), -1))}
_ONE_MORE_CRASH = Plus(Col("crashes"), 1)


def _failed(code: Value, message: Value, details: Value = NULL) -> dict[str, Value]:
    error = {"error_code": code, "error_message": Cut(message, MAX_ERROR_MESSAGE)}
    return _NO_RESULT | _NO_LEASE | error | {"error_details": details}


_TAKEN_TOO_OFTEN = Text(
    "The document was taken in hand ",
    Col("attempts"),
    " times without an outcome; retry it in the web application.",
)
_CRASHED_TOO_OFTEN = Text(
    "The process reading the document died ",
    _ONE_MORE_CRASH,
    " times while reading it (",
    Arg("reason"),
    "); retry it in the web application.",
)
_PROCESSING_FAILED = Const(FailureCode.PROCESSING_FAILED)

TAKE = Move(
    "take",
    (S.QUEUED,),
    (
        Branch(
            S.PROCESSING,
            _NO_RESULT
            | _NO_ERROR
            | {
                "lease_owner": Arg("owner"),
                "lease_expires_at": Arg("expires_at"),
                "attempts": Plus(Col("attempts"), 1),
            },
        ),
    ),
)
COMPLETE = Move(
    "complete",
    (S.PROCESSING,),
    (Branch(S.COMPLETED, {"result_id": Arg("result_id")} | _NO_ERROR | _NO_LEASE),),
)
FAIL = Move(
    "fail",
    (S.QUEUED, S.PROCESSING),
    (Branch(S.FAILED, _failed(Arg("code"), Arg("message"), Arg("details"))),),
)
RELEASE = Move("release", (S.PROCESSING,), (Branch(S.QUEUED, _BACK_IN_QUEUE | _UNCOUNTED_TAKE),))
REQUEUE = Move("requeue", (S.PROCESSING,), (Branch(S.QUEUED, _BACK_IN_QUEUE),))
REQUEUE_OR_GIVE_UP = Move(
    "requeue_or_give_up",
    (S.PROCESSING,),
    (
        Branch(S.QUEUED, _BACK_IN_QUEUE, when=Below(Col("attempts"), MAX_TAKES)),
        Branch(S.FAILED, _failed(_PROCESSING_FAILED, _TAKEN_TOO_OFTEN)),
    ),
)
CHARGE_CRASH = Move(
    "charge_crash",
    (S.PROCESSING,),
    (
        Branch(
            S.QUEUED,
            _BACK_IN_QUEUE | _UNCOUNTED_TAKE | {"crashes": _ONE_MORE_CRASH},
            when=Below(_ONE_MORE_CRASH, MAX_CRASHES),
        ),
        Branch(
            S.FAILED,
            _failed(_PROCESSING_FAILED, _CRASHED_TOO_OFTEN) | {"crashes": _ONE_MORE_CRASH},
        ),
    ),
)
MARK_DELETED = Move("mark_deleted", (S.COMPLETED, S.FAILED), (Branch(S.DELETED, _BACK_IN_QUEUE),))
PURGE = Move(
    "purge",
    (S.DELETED,),
    (Branch(S.DELETED, {"object_key": NULL}, event=HistoryEvent.PURGED),),
)
RETRY = Move(
    "retry",
    (S.FAILED, S.DELETED),
    (Branch(S.QUEUED, _BACK_IN_QUEUE | {"attempts": Const(0), "crashes": Const(0)}),),
)
# Read again as another document type (the web application's reclassification): the
# type it was sent as changes, and it is read as new.
RECLASSIFY = Move(
    "reclassify",
    (S.COMPLETED,),
    (
        Branch(
            S.QUEUED,
            _BACK_IN_QUEUE
            | {"document_type": Arg("document_type"), "attempts": Const(0), "crashes": Const(0)},
        ),
    ),
)

MOVES = {
    move.name: move
    for move in (
        TAKE,
        COMPLETE,
        FAIL,
        RELEASE,
        REQUEUE,
        REQUEUE_OR_GIVE_UP,
        CHARGE_CRASH,
        MARK_DELETED,
        PURGE,
        RETRY,
        RECLASSIFY,
    )
}


class UploadMoves:
    """The moves of `Upload` on one ORM object; the columns below are declared on it."""

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
        document_type: Mapped[str]

        def set_status(self, target: UploadStatus) -> StatusChange: ...

        def note_event(self, event: HistoryEvent) -> StatusChange: ...

    def take(self, owner: str, expires_at: datetime) -> StatusChange:
        """queued -> processing: sets the lease and counts one more take; clears the
        result and the error."""
        return self._apply(TAKE, owner=owner, expires_at=expires_at)

    def complete(self, result_id: uuid.UUID) -> StatusChange:
        """processing -> completed: sets the result; clears the error and the lease."""
        return self._apply(COMPLETE, result_id=result_id)

    def fail(
        self, code: FailureCode, message: str, details: dict[str, Any] | None = None
    ) -> StatusChange:
        """queued or processing -> failed: sets the error (the message cut to
        MAX_ERROR_MESSAGE characters); clears the result and the lease."""
        return self._apply(FAIL, code=code, message=message, details=details)

    def release(self) -> StatusChange:
        """processing -> queued without blame (an infrastructure error, a shutdown): the
        take is not counted. Clears the result, the error and the lease."""
        return self._apply(RELEASE)

    def requeue(self) -> StatusChange:
        """processing -> queued after the worker holding it died: the take still counts
        towards MAX_TAKES. Clears the result, the error and the lease."""
        return self._apply(REQUEUE)

    def requeue_or_give_up(self) -> StatusChange:
        """Its worker died (the lease expired): requeue, or, once taken MAX_TAKES times
        without an outcome, fail `processing_failed`."""
        return self._apply(REQUEUE_OR_GIVE_UP)

    def charge_crash(self, reason: str) -> StatusChange:
        """The process reading it died while reading it (a crash, or a kill such as the
        OOM killer's): one more crash, counted against this upload alone. Fails
        `processing_failed` at MAX_CRASHES, else releases it (the take not counted)."""
        return self._apply(CHARGE_CRASH, reason=reason)

    def mark_deleted(self) -> StatusChange:
        """completed -> deleted (its result was deleted), or failed -> deleted (the user
        deleted the failed upload): clears the result, the error and the lease."""
        return self._apply(MARK_DELETED)

    def purge(self) -> StatusChange:
        """deleted, and stays so: its stored bytes are about to be removed (retention,
        storage/retention.py), so it no longer points at them. A history row with the
        event `purged`; a repeated request afterwards reads the file it brings."""
        return self._apply(PURGE)

    def retry(self) -> StatusChange:
        """failed or deleted -> queued, as new: clears the result, the error and the
        lease, and sets attempts and crashes back to 0."""
        return self._apply(RETRY)

    def reclassify(self, document_type: str) -> StatusChange:
        """completed -> queued, to be read again as `document_type` (the accountant's
        reclassification): clears the result, the error and the lease, and sets attempts
        and crashes back to 0."""
        return self._apply(RECLASSIFY, document_type=document_type)

    def _apply(self, move: Move, **args: Any) -> StatusChange:
        """Run a declared move on this object: every value from the row as it was."""
        if self.status not in move.sources:
            allowed = " or ".join(move.sources)
            raise InvalidTransition(f"this move starts from {allowed}, not from {self.status}")
        branch = move.branch_for(self, args)
        values = {column: value.of_row(self, args) for column, value in branch.sets.items()}
        if branch.event is not None:
            change = self.note_event(branch.event)
        else:
            change = self.set_status(branch.target)
        for column, value in values.items():
            setattr(self, column, value)
        return change

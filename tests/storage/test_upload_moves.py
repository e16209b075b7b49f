"""The named moves of an upload, column by column, from a row with every column filled:
what each move sets and clears, and that a move from the wrong state changes nothing."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest

from processors.base import FailureCode
from storage.errors import InvalidTransition
from storage.models import StatusChange, Upload
from storage.states import UploadStatus
from storage.upload_moves import MAX_CRASHES, MAX_ERROR_MESSAGE, MAX_TAKES, UploadMoves

OLD_RESULT, NEW_RESULT = uuid.uuid4(), uuid.uuid4()
CREATED = datetime(2024, 1, 1, tzinfo=UTC)
UPDATED = datetime(2024, 1, 2, tzinfo=UTC)
OLD_EXPIRY = datetime(2024, 1, 3, tzinfo=UTC)
NEW_EXPIRY = datetime(2024, 1, 4, tzinfo=UTC)
DETAILS = {"findings": [{"rule": "BR-01"}]}
LONG_MESSAGE = "x" * (MAX_ERROR_MESSAGE + 10)
STORED = "uploads/stored"

Move = Callable[[Upload], StatusChange]


def _full_row(status: UploadStatus | None, **overrides: Any) -> Upload:
    """A row with every column a move may touch filled, whatever the state."""
    columns: dict[str, Any] = {
        "status": status,
        "result_id": OLD_RESULT,
        "error_code": "old_code",
        "error_message": "old message",
        "error_details": {"old": True},
        "attempts": 3,
        "crashes": 1,
        "lease_owner": "old-worker",
        "lease_expires_at": OLD_EXPIRY,
        "object_key": STORED,
        "created_at": CREATED,
        "updated_at": UPDATED,
    }
    return Upload(id=uuid.uuid4(), **(columns | overrides))


def _columns(
    status: UploadStatus,
    *,
    result: uuid.UUID | None = None,
    error: tuple[str, str, dict[str, Any] | None] | None = None,
    lease: tuple[str, datetime] | None = None,
    attempts: int = 3,
    crashes: int = 1,
    object_key: str | None = STORED,
) -> dict[str, Any]:
    code, message, details = error or (None, None, None)
    owner, expires = lease or (None, None)
    return {
        "status": status,
        "result_id": result,
        "error_code": code,
        "error_message": message,
        "error_details": details,
        "attempts": attempts,
        "crashes": crashes,
        "lease_owner": owner,
        "lease_expires_at": expires,
        "object_key": object_key,
        "created_at": CREATED,
    }


def _read(upload: Upload) -> dict[str, Any]:
    return {column: getattr(upload, column) for column in _columns(UploadStatus.QUEUED)}


TAKEN_TOO_OFTEN = (
    f"The document was taken in hand {MAX_TAKES} times without an outcome;"
    " retry it in the web application."
)
CRASHED = (
    f"The process reading the document died {MAX_CRASHES} times while reading it (killed);"
    " retry it in the web application."
)
PROCESSING_FAILED = FailureCode.PROCESSING_FAILED


@dataclass(frozen=True)
class Case:
    move: str
    start: UploadStatus
    expected: dict[str, Any]
    row: dict[str, Any] = field(default_factory=dict)


# How each move is called in the tests.
MOVES: dict[str, Move] = {
    "take": lambda upload: upload.take("new-worker", NEW_EXPIRY),
    "complete": lambda upload: upload.complete(NEW_RESULT),
    "fail": lambda upload: upload.fail(FailureCode.INVALID_E_INVOICE, "bad", DETAILS),
    "release": lambda upload: upload.release(),
    "requeue": lambda upload: upload.requeue(),
    "requeue_or_give_up": lambda upload: upload.requeue_or_give_up(),
    "charge_crash": lambda upload: upload.charge_crash("killed"),
    "mark_deleted": lambda upload: upload.mark_deleted(),
    "retry": lambda upload: upload.retry(),
    "purge": lambda upload: upload.purge(),
    "reclassify": lambda upload: upload.reclassify("supplier_invoice"),
}

S = UploadStatus
INVALID_E_INVOICE = (FailureCode.INVALID_E_INVOICE, "bad", DETAILS)
CASES = [
    Case("take", S.QUEUED, _columns(S.PROCESSING, lease=("new-worker", NEW_EXPIRY), attempts=4)),
    Case("complete", S.PROCESSING, _columns(S.COMPLETED, result=NEW_RESULT)),
    Case("fail", S.PROCESSING, _columns(S.FAILED, error=INVALID_E_INVOICE)),
    Case("fail", S.QUEUED, _columns(S.FAILED, error=INVALID_E_INVOICE)),
    Case("release", S.PROCESSING, _columns(S.QUEUED, attempts=2)),
    Case("release", S.PROCESSING, _columns(S.QUEUED, attempts=0), row={"attempts": 0}),
    Case("requeue", S.PROCESSING, _columns(S.QUEUED)),
    Case("requeue_or_give_up", S.PROCESSING, _columns(S.QUEUED)),
    Case(
        "requeue_or_give_up",
        S.PROCESSING,
        _columns(S.FAILED, error=(PROCESSING_FAILED, TAKEN_TOO_OFTEN, None), attempts=MAX_TAKES),
        row={"attempts": MAX_TAKES},
    ),
    Case("charge_crash", S.PROCESSING, _columns(S.QUEUED, attempts=2), row={"crashes": 0}),
    Case(
        "charge_crash",
        S.PROCESSING,
        _columns(S.FAILED, error=(PROCESSING_FAILED, CRASHED, None), crashes=MAX_CRASHES),
        row={"crashes": MAX_CRASHES - 1},
    ),
    Case("mark_deleted", S.COMPLETED, _columns(S.DELETED)),
    Case("mark_deleted", S.FAILED, _columns(S.DELETED)),
    Case("retry", S.FAILED, _columns(S.QUEUED, attempts=0, crashes=0)),
    Case("retry", S.DELETED, _columns(S.QUEUED, attempts=0, crashes=0)),
    Case("reclassify", S.COMPLETED, _columns(S.QUEUED, attempts=0, crashes=0)),
    # Only the stored bytes go; a deleted upload has no result, error or lease anyway.
    Case(
        "purge",
        S.DELETED,
        _columns(
            S.DELETED,
            result=OLD_RESULT,
            error=("old_code", "old message", {"old": True}),
            lease=("old-worker", OLD_EXPIRY),
            object_key=None,
        ),
    ),
]


def _case_id(case: Case) -> str:
    return f"{case.move}-from-{case.start}-{'-'.join(f'{k}={v}' for k, v in case.row.items())}"


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_a_move_sets_and_clears_exactly_its_columns(case: Case) -> None:
    upload = _full_row(case.start, **case.row)

    change = MOVES[case.move](upload)

    assert _read(upload) == case.expected
    assert (change.upload_id, change.from_status, change.to_status) == (
        upload.id,
        case.start,
        case.expected["status"],
    )
    assert upload.updated_at > UPDATED
    assert change.at == upload.updated_at


def test_every_move_has_a_case() -> None:
    moves = {name for name in vars(UploadMoves) if not name.startswith("_")}
    assert moves == set(MOVES) == {case.move for case in CASES}


def test_a_failure_message_is_cut_to_the_column_size() -> None:
    upload = _full_row(S.PROCESSING)
    upload.fail(FailureCode.PROCESSING_FAILED, LONG_MESSAGE)
    assert upload.error_message == LONG_MESSAGE[:MAX_ERROR_MESSAGE]


# A move may start from exactly the states its cases start from.
STARTS = {move: {case.start for case in CASES if case.move == move} for move in MOVES}
INVALID = [
    (move, start) for move in MOVES for start in [None, *UploadStatus] if start not in STARTS[move]
]


@pytest.mark.parametrize(("move", "start"), INVALID)
def test_a_move_from_any_other_state_is_refused_and_changes_nothing(
    move: str, start: UploadStatus | None
) -> None:
    # At the crash and take limits, so that the moves that may fail would fail.
    upload = _full_row(start, attempts=MAX_TAKES, crashes=MAX_CRASHES - 1)
    before = _read(upload) | {"updated_at": upload.updated_at}

    with pytest.raises(InvalidTransition):
        MOVES[move](upload)

    assert _read(upload) | {"updated_at": upload.updated_at} == before

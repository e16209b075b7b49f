"""The upload state machine: the table is the whole truth."""

from __future__ import annotations

import uuid

import pytest

from storage.errors import InvalidTransition
from storage.models import Upload
from storage.states import ALLOWED_TRANSITIONS, UploadStatus, check_transition

ALLOWED = {
    (None, "queued"),
    (None, "failed"),
    ("queued", "processing"),
    ("queued", "failed"),
    ("processing", "completed"),
    ("processing", "failed"),
    ("processing", "queued"),
    ("completed", "deleted"),
    ("completed", "queued"),  # reclassified: read again as another type (issue 43)
    ("failed", "queued"),
    ("failed", "deleted"),  # the user deleted the failed upload (issue 43)
    ("deleted", "queued"),
}
ALL_PAIRS = [(a, b) for a in [None, *UploadStatus] for b in UploadStatus]


@pytest.mark.parametrize(("current", "target"), ALL_PAIRS)
def test_every_pair_is_allowed_exactly_when_the_table_says(
    current: UploadStatus | None, target: UploadStatus
) -> None:
    if (current, target) in ALLOWED:
        check_transition(current, target)
    else:
        with pytest.raises(InvalidTransition):
            check_transition(current, target)


def test_table_covers_every_state() -> None:
    assert set(ALLOWED_TRANSITIONS) == {None, *UploadStatus}


def test_guarded_setter_returns_a_history_row_and_refuses_bad_moves() -> None:
    upload = Upload(id=uuid.uuid4())
    first = upload.set_status(UploadStatus.QUEUED)
    assert (first.from_status, first.to_status) == (None, "queued")

    with pytest.raises(InvalidTransition):
        upload.set_status(UploadStatus.COMPLETED)
    assert upload.status == "queued"

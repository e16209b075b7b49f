"""`DocintakeClient.wait` over a swapped transport: polls as Retry-After says, stops at a
terminal state, gives up at its timeout."""

from __future__ import annotations

from collections.abc import Iterator

import httpx2 as httpx
import pytest

from docintake_client import Batch, DocintakeClient, RetryPolicy, Upload, WaitTimeout
from docintake_client.models import parse_batch, parse_upload

UPLOAD_ID = "6a1f0000-0000-4000-8000-000000000001"
BATCH_ID = "6a1f0000-0000-4000-8000-0000000000b1"


def _upload_body(status: str) -> dict[str, object]:
    done = status == "completed"
    return {
        "id": UPLOAD_ID,
        "batchId": None,
        "externalId": "inv-1",
        "fileName": "a.pdf",
        "documentType": "auto",
        "status": status,
        "result": {"type": "invoice", "id": "r1", "url": "http://docintake.test/app/r1"}
        if done
        else None,
        "error": None,
        "createdAt": "2026-01-01T00:00:00.000Z",
    }


def _batch_body(status: str, listed: int) -> dict[str, object]:
    counts = {"total": 2, "queued": 0, "processing": 0, "completed": listed, "failed": 0}
    return {
        "id": BATCH_ID,
        "externalId": None,
        "documentType": "auto",
        "status": status,
        "counts": {**counts, "deleted": 0},
        "uploads": [_upload_body("completed") for _ in range(listed)],
        "createdAt": "2026-01-01T00:00:00.000Z",
    }


def _answer(body: dict[str, object], retry_after: int | None) -> httpx.Response:
    headers = {} if retry_after is None else {"Retry-After": str(retry_after)}
    return httpx.Response(200, headers=headers, json=body)


def _client(answers: Iterator[httpx.Response], pauses: list[float]) -> DocintakeClient:
    transport = httpx.MockTransport(lambda _request: next(answers))
    policy = RetryPolicy(sleep=pauses.append)
    return DocintakeClient("http://docintake.test", "key", retry=policy, transport=transport)


def test_an_upload_is_polled_as_its_retry_after_says() -> None:
    answers = iter(
        [_answer(_upload_body("processing"), 2), _answer(_upload_body("completed"), None)]
    )
    pauses: list[float] = []
    queued = parse_upload(_upload_body("queued"), retry_after=3)

    with _client(answers, pauses) as client:
        done = client.wait(queued)

    assert isinstance(done, Upload) and done.status == "completed" and done.result is not None
    assert pauses == [3.0, 2.0]


def test_a_batch_is_finished_only_when_every_upload_is_listed() -> None:
    answers = iter(
        [
            _answer(_batch_body("completed", listed=1), 1),
            _answer(_batch_body("completed", listed=2), None),
        ]
    )
    pauses: list[float] = []
    accepted = parse_batch(_batch_body("processing", listed=0), retry_after=1)

    with _client(answers, pauses) as client:
        done = client.wait(accepted)

    assert isinstance(done, Batch) and done.is_terminal and len(done.uploads) == 2
    assert pauses == [1.0, 1.0]


def test_a_terminal_item_is_returned_without_a_request() -> None:
    finished = parse_upload(_upload_body("completed"))
    with _client(iter([]), []) as client:
        assert client.wait(finished) is finished


def test_a_long_retry_after_is_capped_at_30_seconds() -> None:
    answers = iter([_answer(_upload_body("completed"), None)])
    pauses: list[float] = []
    with _client(answers, pauses) as client:
        client.wait(parse_upload(_upload_body("queued"), retry_after=600))
    assert pauses == [30.0]


def test_wait_gives_up_at_its_timeout_with_the_last_state() -> None:
    with (
        _client(iter([]), []) as client,
        pytest.raises(WaitTimeout) as timed_out,
    ):
        client.wait(parse_upload(_upload_body("queued"), retry_after=1), timeout=0)

    assert isinstance(timed_out.value, TimeoutError)
    assert timed_out.value.last.status == "queued" and timed_out.value.last.id == UPLOAD_ID

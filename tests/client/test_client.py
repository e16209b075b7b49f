"""docintake_client against a real uvicorn and a real worker."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx
import pytest

from api.ratelimit import RateLimiter
from docintake_client import (
    Batch,
    DocintakeClient,
    ProblemError,
    Result,
    RetryNotice,
    RetryPolicy,
    Upload,
)
from testkit.samples import blank_pdf, corpus_file
from testkit.seaweed import free_port
from tests.api.helpers import make_zip
from tests.client.support import Stack


@pytest.fixture
def client(stack: Stack) -> Iterator[DocintakeClient]:
    with DocintakeClient(stack.base_url, stack.company.api_key, timeout=30) as docintake:
        yield docintake


def _until_done(client: DocintakeClient, upload: Upload, seconds: float = 60) -> Upload:
    return client.wait(upload, timeout=seconds)


def _batch_done(client: DocintakeClient, batch: Batch, seconds: float = 60) -> Batch:
    return client.wait(batch, timeout=seconds)


def test_upload_from_a_path_completes_with_a_typed_result(
    client: DocintakeClient, tmp_path: Path
) -> None:
    name, content = corpus_file("accept", ".xml")
    path = tmp_path / name
    path.write_bytes(content)

    accepted = client.upload(path, "auto", "inv-1")

    assert (accepted.status, accepted.file_name, accepted.external_id) == ("queued", name, "inv-1")
    assert accepted.batch_id is None and accepted.result is None and not accepted.replayed
    assert accepted.retry_after is not None and accepted.retry_after >= 1
    done = _until_done(client, accepted)
    assert done.status == "completed" and isinstance(done.result, Result)
    assert done.result.type == "invoice" and done.error is None


def test_a_repeated_upload_is_replayed_and_a_conflict_raises(client: DocintakeClient) -> None:
    first = client.upload(blank_pdf("once"), "other_document", "doc-1", file_name="a.pdf")

    again = client.upload(blank_pdf("once"), "other_document", "doc-1", file_name="b.pdf")

    assert again.replayed and again.id == first.id
    with pytest.raises(ProblemError) as conflict:
        client.upload(blank_pdf("other"), "other_document", "doc-1")
    assert (conflict.value.status, conflict.value.code) == (409, "external_id_conflict")


def test_a_failed_upload_carries_its_error(client: DocintakeClient) -> None:
    name, png = corpus_file("unsupported_file_type")

    done = _until_done(client, client.upload(png, file_name=name))

    assert done.status == "failed" and done.result is None
    assert done.error is not None and done.error.code == "unsupported_file_type"


def test_batch_round_trip(client: DocintakeClient) -> None:
    archive = make_zip({"a.pdf": blank_pdf("a"), "b.pdf": blank_pdf("b")})

    created = client.upload_batch(archive, "auto", "batch-1")
    replay = client.upload_batch(archive, "auto", "batch-1")
    done = _batch_done(client, created)

    assert created.external_id == "batch-1" and replay.replayed and replay.id == created.id
    assert done.status == "completed" and done.counts.total == done.counts.completed == 2
    assert {upload.file_name for upload in done.uploads} == {"a.pdf", "b.pdf"}
    assert all(upload.batch_id == created.id for upload in done.uploads)


def test_problems_carry_status_and_code(stack: Stack, client: DocintakeClient) -> None:
    with pytest.raises(ProblemError) as missing:
        client.get_upload("00000000-0000-0000-0000-000000000000")
    assert (missing.value.status, missing.value.code) == (404, "not_found")
    with pytest.raises(ProblemError) as invalid:
        client.upload_batch(b"not a zip")
    assert (invalid.value.status, invalid.value.code) == (422, "invalid_archive")
    with (
        DocintakeClient(stack.base_url, "wrong-key") as stranger,
        pytest.raises(ProblemError) as denied,
    ):
        stranger.get_batch("00000000-0000-0000-0000-000000000000")
    assert (denied.value.status, denied.value.code) == (401, "unauthorized")


def test_429_is_retried_after_retry_after(stack: Stack) -> None:
    # 4 s a token: the poll finds none even on a slow machine (a 1 s refill can pass
    # between a slow upload's token and the poll).
    stack.services.rate_limiter = RateLimiter(per_second=0.25, burst=1)
    notices: list[RetryNotice] = []
    with DocintakeClient(stack.base_url, stack.company.api_key, on_retry=notices.append) as client:
        upload = client.upload(blank_pdf("limited"))
        started = time.monotonic()
        again = client.get_upload(upload.id)

    assert again.id == upload.id
    assert [(n.reason, n.attempt) for n in notices] == [("rate_limited", 1)]
    assert notices[0].wait_seconds in (1.0, 2.0, 3.0, 4.0)
    assert time.monotonic() - started >= notices[0].wait_seconds - 0.1


def test_429_raises_when_the_retries_are_spent(stack: Stack) -> None:
    # A token comes back every 50 s, so no retry of this test can find one, however slow
    # the machine (at 0.5/s one CI run took 2 s between the first upload and the retry).
    stack.services.rate_limiter = RateLimiter(per_second=0.02, burst=1)
    waits: list[float] = []
    policy = RetryPolicy(max_attempts=2, sleep=waits.append)
    with DocintakeClient(stack.base_url, stack.company.api_key, retry=policy) as client:
        client.upload(blank_pdf("first"))
        with pytest.raises(ProblemError) as limited:
            client.upload(blank_pdf("second"))

    assert (limited.value.status, limited.value.code) == (429, "rate_limited")
    assert limited.value.retry_after is not None and 40 <= limited.value.retry_after <= 50
    assert waits == [policy.max_wait_seconds]


def test_connection_errors_back_off_then_raise() -> None:
    waits: list[float] = []
    policy = RetryPolicy(max_attempts=3, sleep=waits.append)
    client = DocintakeClient(f"http://127.0.0.1:{free_port()}", "key", retry=policy)
    with client, pytest.raises(ProblemError) as refused:
        client.get_upload("00000000-0000-0000-0000-000000000000")

    assert (refused.value.status, refused.value.code) == (0, "connection_error")
    assert waits == [0.5, 1.0]


def test_503_is_retried_with_its_retry_after() -> None:
    answers = iter(
        [
            httpx.Response(
                503,
                headers={"Retry-After": "3"},
                json={"code": "service_unavailable", "detail": "database down"},
            ),
            httpx.Response(200, json=_upload_body()),
        ]
    )
    waits: list[float] = []
    transport = httpx.MockTransport(lambda _request: next(answers))
    with DocintakeClient(
        "http://docintake.test", "key", retry=RetryPolicy(sleep=waits.append), transport=transport
    ) as client:
        upload = client.get_upload("6a1f0000-0000-4000-8000-000000000001")

    assert upload.status == "completed" and waits == [3.0]


def _upload_body() -> dict[str, object]:
    return {
        "id": "6a1f0000-0000-4000-8000-000000000001",
        "batchId": None,
        "externalId": None,
        "fileName": "a.pdf",
        "documentType": "auto",
        "status": "completed",
        "result": {
            "type": "other_document",
            "id": "x",
            "url": "http://docintake.test/app/documents/x",
        },
        "error": None,
        "createdAt": "2026-01-01T00:00:00.000Z",
    }

"""`DocintakeClient`: the public API (/v1) over HTTP, with retries and polling.

Every request error raises `ProblemError`. Answers 429 and 503, and connection errors,
are retried a bounded number of times, after `Retry-After` when the server sends one.
Sending an upload again is safe: the server answers a repeat with the original resource
(`replayed` is then True). `wait` polls an upload or batch until it is finished, as
often as its `Retry-After` suggests.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Literal, Self, overload

import httpx2 as httpx

from docintake_client.errors import ProblemError, WaitTimeout
from docintake_client.models import (
    Batch,
    Original,
    Upload,
    file_name_of,
    parse_batch,
    parse_upload,
)
from docintake_client.result_models import AnyResult, ResultPage
from docintake_client.retry import (
    RETRYABLE_STATUSES,
    RetryNotice,
    RetryPolicy,
    poll_delay,
    retry_after_seconds,
)
from docintake_client.typed import parse_as, parse_object

Content = bytes | Path

# The version of the results' representation these models are (docs/results_api.md).
RESULTS_VERSION = {"Accept": "application/json; version=1"}

# The longest pause between two polls, whatever Retry-After says.
MAX_POLL_SECONDS = 30.0


def problem_from(response: httpx.Response) -> ProblemError:
    try:
        body = response.json()
    except ValueError:
        body = {}
    if not isinstance(body, dict):
        body = {}
    return ProblemError(
        status=response.status_code,
        code=str(body.get("code") or f"http_{response.status_code}"),
        detail=str(body.get("detail") or response.reason_phrase or response.text[:200]),
        retry_after=retry_after_seconds(response.headers),
        title=str(body.get("title") or ""),
    )


def _meta(response: httpx.Response) -> tuple[bool, int | None]:
    replayed = response.headers.get("Idempotent-Replayed", "").lower() == "true"
    return replayed, retry_after_seconds(response.headers)


@contextmanager
def _opened(content: Content) -> Iterator[IO[bytes] | bytes]:
    if isinstance(content, Path):
        with content.open("rb") as handle:
            yield handle
    else:
        yield content


class DocintakeClient:
    """One company's view of a docintake server, by its API key.

    with DocintakeClient("http://127.0.0.1:8000", api_key) as client:
        upload = client.wait(client.upload(Path("invoice.pdf"), "auto", "inv-1"))
    """

    def __init__(
        self,
        base_url: str,
        api_key: str,
        timeout: float = 60.0,
        retry: RetryPolicy | None = None,
        on_retry: Callable[[RetryNotice], None] | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self._http = httpx.Client(
            base_url=base_url.rstrip("/"),
            headers={"Authorization": f"Bearer {api_key}", "Accept": "application/json"},
            timeout=timeout,
            transport=transport,
        )
        self._retry = retry or RetryPolicy()
        self._on_retry = on_retry

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def upload(
        self,
        content: Content,
        document_type: str = "auto",
        external_id: str | None = None,
        file_name: str | None = None,
    ) -> Upload:
        name = file_name or (content.name if isinstance(content, Path) else "upload")
        response = self._send_file("/v1/uploads", content, name, document_type, external_id)
        return parse_upload(response.json(), *_meta(response))

    def upload_batch(
        self,
        archive: Content,
        document_type: str = "auto",
        external_id: str | None = None,
        file_name: str | None = None,
    ) -> Batch:
        name = file_name or (archive.name if isinstance(archive, Path) else "documents.zip")
        response = self._send_file("/v1/uploads/batches", archive, name, document_type, external_id)
        return parse_batch(response.json(), *_meta(response))

    def get_upload(self, upload_id: str) -> Upload:
        response = self._request("GET", f"/v1/uploads/{upload_id}")
        return parse_upload(response.json(), *_meta(response))

    def get_batch(self, batch_id: str) -> Batch:
        response = self._request("GET", f"/v1/uploads/batches/{batch_id}")
        return parse_batch(response.json(), *_meta(response))

    def result(self, result_id: str) -> AnyResult:
        """What was read, as data: one model per result type (an upload's `result.id`)."""
        response = self._request("GET", f"/v1/results/{result_id}", headers=RESULTS_VERSION)
        found: AnyResult = parse_as(AnyResult, response.json())
        return found

    def results(
        self,
        type: str | None = None,
        updated_since: str | None = None,
        cursor: str | None = None,
        page_size: int = 50,
    ) -> Iterator[ResultPage]:
        """The company's results in change order, a page at a time, until `has_more` is
        false. Keep the last page's `next_cursor` and pass it as `cursor` to sync on."""
        while True:
            params = {"type": type, "updatedSince": updated_since, "cursor": cursor}
            query = {k: v for k, v in params.items() if v is not None} | {"limit": page_size}
            response = self._request("GET", "/v1/results", query, RESULTS_VERSION)
            page = parse_object(ResultPage, response.json())
            yield page
            if not page.has_more:
                return
            cursor = page.next_cursor

    def original(self, result_id: str) -> Original:
        """The original file of a result: its bytes, content type and name."""
        response = self._request("GET", f"/v1/results/{result_id}/original")
        return Original(
            content=response.content,
            content_type=response.headers.get("content-type", "application/octet-stream"),
            file_name=file_name_of(response.headers.get("content-disposition", "")),
        )

    @overload
    def wait(self, item: Upload, timeout: float | None = None) -> Upload: ...

    @overload
    def wait(self, item: Batch, timeout: float | None = None) -> Batch: ...

    def wait(self, item: Upload | Batch, timeout: float | None = None) -> Upload | Batch:
        """Poll until `item` is finished, pausing as its `Retry-After` suggests (at most
        30 s); raises `WaitTimeout` when `timeout` seconds pass first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not item.is_terminal:
            pause = poll_delay(item.retry_after, MAX_POLL_SECONDS)
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise WaitTimeout(item, timeout or 0.0)
                pause = min(pause, left)
            self._retry.sleep(pause)
            item = self._refresh(item)
        return item

    def _refresh(self, item: Upload | Batch) -> Upload | Batch:
        return self.get_upload(item.id) if isinstance(item, Upload) else self.get_batch(item.id)

    def _send_file(
        self,
        path: str,
        content: Content,
        file_name: str,
        document_type: str,
        external_id: str | None,
    ) -> httpx.Response:
        data = {"documentType": document_type}
        if external_id is not None:
            data["externalId"] = external_id

        def send() -> httpx.Response:
            with _opened(content) as body:
                files = {"file": (file_name, body, "application/octet-stream")}
                return self._http.post(path, data=data, files=files)

        return self._with_retries("POST", path, send)

    def _request(
        self,
        method: Literal["GET"],
        path: str,
        params: dict[str, str | int] | None = None,
        headers: dict[str, str] | None = None,
    ) -> httpx.Response:
        return self._with_retries(
            method, path, lambda: self._http.request(method, path, params=params, headers=headers)
        )

    def _with_retries(
        self, method: str, path: str, send: Callable[[], httpx.Response]
    ) -> httpx.Response:
        attempt = 1
        while True:
            try:
                response = send()
            except httpx.TransportError as exc:
                if attempt >= self._retry.max_attempts:
                    raise ProblemError(
                        0, "connection_error", str(exc) or type(exc).__name__
                    ) from exc
                self._pause(method, path, attempt, None, f"connection error: {exc!r}")
            else:
                if response.is_success:
                    return response
                problem = problem_from(response)
                if response.status_code not in RETRYABLE_STATUSES:
                    raise problem
                if attempt >= self._retry.max_attempts:
                    raise problem
                self._pause(method, path, attempt, problem.retry_after, problem.code)
            attempt += 1

    def _pause(
        self, method: str, path: str, attempt: int, retry_after: int | None, reason: str
    ) -> None:
        wait = self._retry.wait_for(attempt, retry_after)
        if self._on_retry is not None:
            self._on_retry(RetryNotice(method, path, attempt, wait, reason))
        self._retry.sleep(wait)

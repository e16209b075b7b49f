"""A thin typed client for the public docintake API (/v1), usable as a library.

    with DocintakeClient("http://127.0.0.1:8000", api_key) as client:
        upload = client.upload(Path("invoice.pdf"), "auto", "inv-2026-001")
        upload = client.get_upload(upload.id)

Every request error raises `ProblemError` (the problem+json body: status, code, detail,
Retry-After). Answers 429 and 503, and connection errors, are retried with back-off that
honours Retry-After, a bounded number of times. Sending an upload again is safe: the
server answers a repeat with the original resource (`replayed` is then True).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Literal, Self

import httpx

RETRYABLE_STATUSES = frozenset({429, 503})
TERMINAL_UPLOAD_STATUSES = frozenset({"completed", "failed", "deleted"})
TERMINAL_BATCH_STATUSES = frozenset({"completed", "completed_with_errors", "failed"})

Content = bytes | Path


@dataclass(frozen=True, slots=True)
class Result:
    type: str
    id: str
    url: str


@dataclass(frozen=True, slots=True)
class Error:
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class Upload:
    id: str
    batch_id: str | None
    external_id: str | None
    file_name: str
    document_type: str
    status: str
    result: Result | None
    error: Error | None
    created_at: str
    # From the response headers, not the body.
    replayed: bool = False
    retry_after: int | None = None

    @property
    def is_terminal(self) -> bool:
        return self.status in TERMINAL_UPLOAD_STATUSES


@dataclass(frozen=True, slots=True)
class BatchCounts:
    total: int
    queued: int
    processing: int
    completed: int
    failed: int
    deleted: int


@dataclass(frozen=True, slots=True)
class Batch:
    id: str
    external_id: str | None
    document_type: str
    status: str
    counts: BatchCounts
    uploads: tuple[Upload, ...]
    created_at: str
    replayed: bool = False
    retry_after: int | None = None

    @property
    def is_terminal(self) -> bool:
        return self.status in TERMINAL_BATCH_STATUSES and len(self.uploads) == self.counts.total


class ProblemError(Exception):
    """A request the server refused (RFC 9457 problem+json), or that could not be sent."""

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        retry_after: int | None = None,
        title: str = "",
    ) -> None:
        super().__init__(f"{status} {code}: {detail}")
        self.status = status
        self.code = code
        self.detail = detail
        self.retry_after = retry_after
        self.title = title


@dataclass(frozen=True, slots=True)
class RetryNotice:
    """Told to `on_retry` before each wait: why, which attempt, how long."""

    method: str
    path: str
    attempt: int
    wait_seconds: float
    reason: str


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    max_attempts: int = 6
    first_wait_seconds: float = 0.5
    max_wait_seconds: float = 30.0
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)

    def wait_for(self, attempt: int, retry_after: int | None) -> float:
        if retry_after is not None:
            return min(float(retry_after), self.max_wait_seconds)
        return min(self.first_wait_seconds * 2.0 ** (attempt - 1), self.max_wait_seconds)


def _retry_after(response: httpx.Response) -> int | None:
    raw = response.headers.get("Retry-After")
    if raw is None:
        return None
    try:
        return max(0, int(raw.strip()))
    except ValueError:
        return None


def _optional_str(value: object) -> str | None:
    return None if value is None else str(value)


def parse_upload(
    body: Mapping[str, Any], replayed: bool = False, retry_after: int | None = None
) -> Upload:
    result = body.get("result")
    error = body.get("error")
    return Upload(
        id=str(body["id"]),
        batch_id=_optional_str(body.get("batchId")),
        external_id=_optional_str(body.get("externalId")),
        file_name=str(body["fileName"]),
        document_type=str(body["documentType"]),
        status=str(body["status"]),
        result=Result(str(result["type"]), str(result["id"]), str(result["url"]))
        if result
        else None,
        error=Error(str(error["code"]), str(error["message"])) if error else None,
        created_at=str(body["createdAt"]),
        replayed=replayed,
        retry_after=retry_after,
    )


def parse_batch(
    body: Mapping[str, Any], replayed: bool = False, retry_after: int | None = None
) -> Batch:
    counts = body["counts"]
    return Batch(
        id=str(body["id"]),
        external_id=_optional_str(body.get("externalId")),
        document_type=str(body["documentType"]),
        status=str(body["status"]),
        counts=BatchCounts(**{name: int(counts[name]) for name in BatchCounts.__slots__}),
        uploads=tuple(parse_upload(upload) for upload in body["uploads"]),
        created_at=str(body["createdAt"]),
        replayed=replayed,
        retry_after=retry_after,
    )


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
        retry_after=_retry_after(response),
        title=str(body.get("title") or ""),
    )


@contextmanager
def _opened(content: Content) -> Iterator[IO[bytes] | bytes]:
    if isinstance(content, Path):
        with content.open("rb") as handle:
            yield handle
    else:
        yield content


class DocintakeClient:
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
        return parse_upload(response.json(), *self._meta(response))

    def upload_batch(
        self,
        archive: Content,
        document_type: str = "auto",
        external_id: str | None = None,
        file_name: str | None = None,
    ) -> Batch:
        name = file_name or (archive.name if isinstance(archive, Path) else "documents.zip")
        response = self._send_file("/v1/uploads/batches", archive, name, document_type, external_id)
        return parse_batch(response.json(), *self._meta(response))

    def get_upload(self, upload_id: str) -> Upload:
        response = self._request("GET", f"/v1/uploads/{upload_id}")
        return parse_upload(response.json(), *self._meta(response))

    def get_batch(self, batch_id: str) -> Batch:
        response = self._request("GET", f"/v1/uploads/batches/{batch_id}")
        return parse_batch(response.json(), *self._meta(response))

    @staticmethod
    def _meta(response: httpx.Response) -> tuple[bool, int | None]:
        replayed = response.headers.get("Idempotent-Replayed", "").lower() == "true"
        return replayed, _retry_after(response)

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

    def _request(self, method: Literal["GET"], path: str) -> httpx.Response:
        return self._with_retries(method, path, lambda: self._http.request(method, path))

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

"""The two polling GETs, `GET /v1/uploads/{id}` and `GET /v1/uploads/batches/{id}`, and
the ASGI path that answers them in front of FastAPI.

Clients poll these hundreds of times a second (issue 13, target 5). Through FastAPI's
middleware, routing and request handling a poll cost about 1.1 ms of the API's CPU in
process, of which about 0.45 ms was those layers (docs/throughput.md, thirteenth round).
`PollingPath` answers the two paths with the same functions as the routes, renders their
errors with the one problem renderer, and hands every other request to the app. The
routes in api/v1/uploads.py stay: they are the operations of the OpenAPI document and
answer where this path is not in front (tests/api/test_polling_path.py compares them).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable

from sqlalchemy.exc import DBAPIError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from api.deps import Services, admit, bearer_token, note_use
from api.errors import problem_of
from api.v1.schemas import BatchOut, UploadOut
from storage import errors
from storage.repositories.upload_views import keyed_batch_head, keyed_upload_view
from storage.resources import present_batch, upload_out
from storage.states import ACTIVE_STATUSES, BatchStatus, UploadStatus

Answer = Callable[[Services, str, str], Response]

UPLOADS_PATH = "/v1/uploads/"
BATCHES_PATH = "/v1/uploads/batches/"


def resource_response(
    body: UploadOut | BatchOut, status_code: int, headers: dict[str, str] | None = None
) -> Response:
    """The resource as JSON, serialized once. Returning the model instead would have
    FastAPI validate and serialize it again: a third of a batch GET's time."""
    return Response(
        body.model_dump_json(by_alias=True), status_code, headers, media_type="application/json"
    )


def _maybe_id(raw: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(raw)
    except ValueError:
        return None


def _retry_after(services: Services) -> dict[str, str]:
    return {"Retry-After": str(services.retry_after.seconds())}


def upload_response(services: Services, token: str, raw_id: str) -> Response:
    """One upload of the key's company, read with its key in one statement."""
    with services.db.standalone_reads() as session:
        found, view = keyed_upload_view(session, token, _maybe_id(raw_id))
    key = admit(services, found)
    note_use(services, key)
    if view is None:
        raise errors.NotFound("upload not found")
    body = upload_out(view, services.settings.public_base_url)
    active = UploadStatus(view.status) in ACTIVE_STATUSES
    return resource_response(body, 200, _retry_after(services) if active else None)


def batch_response(services: Services, token: str, raw_id: str) -> Response:
    """One batch of the key's company with its uploads; the rate limit is checked before
    the uploads are read."""
    base_url = services.settings.public_base_url
    with services.db.standalone_reads() as session:
        found, batch = keyed_batch_head(session, token, _maybe_id(raw_id))
        key = admit(services, found)
        body = present_batch(session, batch, base_url) if batch is not None else None
    note_use(services, key)
    if body is None:
        raise errors.NotFound("batch not found")
    processing = body.status is BatchStatus.PROCESSING
    return resource_response(body, 200, _retry_after(services) if processing else None)


def polled(scope: Scope) -> tuple[Answer, str] | None:
    """The answer for a polling GET and the id in its path; None for any other request
    (a HEAD, a trailing slash, a longer path: the app answers those as before)."""
    if scope["type"] != "http" or scope["method"] != "GET":
        return None
    path: str = scope["path"]
    if path.startswith(BATCHES_PATH):
        answer, raw_id = batch_response, path[len(BATCHES_PATH) :]
    elif path.startswith(UPLOADS_PATH):
        answer, raw_id = upload_response, path[len(UPLOADS_PATH) :]
    else:
        return None
    if not raw_id or "/" in raw_id:
        return None
    return answer, raw_id


def _answered(answer: Answer, services: Services, request: Request, raw_id: str) -> Response:
    try:
        return answer(services, bearer_token(request), raw_id)
    except (errors.DomainError, DBAPIError) as exc:
        return problem_of(exc)


async def answer_poll(
    answer: Answer, services: Services, request: Request, raw_id: str
) -> Response:
    """A poll's response, its errors as problems, in one thread hop: the same for the
    path below and for the routes."""
    return await run_in_threadpool(_answered, answer, services, request, raw_id)


class PollingPath:
    """ASGI middleware: the polling GETs in one thread hop, everything else to the app.
    An unexpected error propagates to Starlette's outermost middleware, which renders it
    with the app's handler for 500s, as it does for any route."""

    def __init__(self, app: ASGIApp, services: Services) -> None:
        self.app = app
        self.services = services

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = polled(scope)
        if found is None:
            await self.app(scope, receive, send)
            return
        answer, raw_id = found
        response = await answer_poll(answer, self.services, Request(scope, receive), raw_id)
        await response(scope, receive, send)

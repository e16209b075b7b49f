"""`POST /v1/uploads` answered in front of FastAPI (issue 38, target 4).

A single upload is the API's most frequent write. FastAPI's dependency solving alone
was 14 % of its profile, its routing and Starlette's layers besides (docs/throughput.md,
"API cost of a single upload": 5.33 M instructions a POST before, 4.57 M with this
path). `UploadPath` answers
exactly that method and path with the route's own steps, in the route's order:

1. the API key (`api.deps.current_key`: its form, the key in the database, the rate
   limit, the last use), in a worker thread, before a byte of the body is read;
2. `api.v1.uploads.upload_answer`, the route's own body: the content type, the form
   read by the bounded streaming parser (api/multipart.py, api/intake.py), its
   fields (documentType, externalId, file name), the file stored and claimed
   (idempotency by content and externalId) in one trip to the thread pool.

Everything the route has in front of it stays in front of this path: the outermost
`RequestLimits` (concurrency cap, the route's declared body cap before and while the
body is read) and the HTTP protocol's guards. Errors are rendered by the one problem
renderer; an unexpected one propagates to Starlette's outermost middleware, which
renders it with the app's 500 handler, as for the route. The route stays: it is the
operation of the OpenAPI document, and answers where this path is not in front;
tests/api/test_upload_path.py compares the two answer for answer.
"""

from __future__ import annotations

from sqlalchemy.exc import DBAPIError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from api.deps import Services, current_key
from api.errors import problem_of
from api.v1 import uploads
from storage import errors

UPLOAD_PATH = "/v1/uploads"


def is_single_upload(scope: Scope) -> bool:
    """Only `POST /v1/uploads` itself: a trailing slash, a longer path or another
    method goes to the app and is answered as before."""
    if scope["type"] != "http" or scope["method"] != "POST":
        return False
    path: str = scope["path"]
    return path == UPLOAD_PATH


async def answer_upload(services: Services, request: Request) -> Response:
    """The answer of `POST /v1/uploads`, its errors as problems."""
    try:
        key = await run_in_threadpool(current_key, request, services)
        return await uploads.upload_answer(request, services, key.company_id)
    except (errors.DomainError, DBAPIError) as exc:
        return problem_of(exc)


class UploadPath:
    """ASGI middleware: a single upload's POST without FastAPI, everything else to the
    app."""

    def __init__(self, app: ASGIApp, services: Services) -> None:
        self.app = app
        self.services = services

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not is_single_upload(scope):
            await self.app(scope, receive, send)
            return
        response = await answer_upload(self.services, Request(scope, receive))
        await response(scope, receive, send)

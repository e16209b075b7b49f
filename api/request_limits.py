"""The outermost ASGI layer: how many requests a process serves at once, and how large
each request's body may be (issue 37, findings 1 and 4).

- Beyond `max_concurrent_requests` requests in flight, a request is answered 503 with
  `Retry-After` before anything else is done for it.
- A request without a body (no Content-Length, or 0, and no Transfer-Encoding: a poll)
  passes with one look at its headers: the polling path behind stays as cheap as it was.
- Any other request is capped at its route's declared limit (api/body_limits.py): a
  declared Content-Length over it is refused before a byte of the body is read, a body
  is counted as it streams in and refused as soon as it passes the cap. The refusal is
  413 problem+json with `Connection: close`; what the application answers after it (it
  sees the client gone) is dropped.
- An answer given before the whole body was read (a 401 before an upload is read, say)
  closes the connection: the server would otherwise read and discard the rest.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from fastapi.routing import iter_route_contexts
from starlette.routing import BaseRoute, Mount
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.body_limits import BodyKind, declared_kind
from api.errors import problem_of
from api.web.limits import MAX_FORM_BYTES
from storage.errors import DomainError, RequestTooLarge, ServiceUnavailable
from storage.settings import Settings

KIB = 1024
# The largest JSON body of the API is a webhook endpoint: a 2,048-character URL and
# sixteen event names, under 3 KB.
MAX_JSON_BYTES = 64 * KIB
# Routes that take no body never read one; a stray small body (a client that sends
# `{}` with every request) is left unread rather than refused.
STRAY_BODY_BYTES = 1 * KIB
CHUNKED = -1
OVERLOAD_RETRY_SECONDS = 1
_CLOSE = (b"connection", b"close")


class Overloaded(ServiceUnavailable):
    headers = {"Retry-After": str(OVERLOAD_RETRY_SECONDS)}  # noqa: RUF012


@dataclass(frozen=True, slots=True)
class _RouteKind:
    path: re.Pattern[str]
    methods: frozenset[str] | None
    kind: BodyKind


def byte_limits(settings: Settings) -> Mapping[BodyKind, int]:
    return {
        BodyKind.NONE: STRAY_BODY_BYTES,
        BodyKind.JSON: MAX_JSON_BYTES,
        BodyKind.FORM: MAX_FORM_BYTES,
        BodyKind.UPLOAD: settings.max_request_bytes,
    }


def route_kind(route: object) -> BodyKind | None:
    """The declared body of a route context: its endpoint's, or a mount's app's."""
    original = getattr(route, "original_route", route)
    if isinstance(original, Mount):
        return declared_kind(original.app)
    return declared_kind(getattr(route, "endpoint", None))


def body_length(headers: Sequence[tuple[bytes, bytes]]) -> int:
    """The declared body length: 0 without a body, CHUNKED for a chunked one."""
    length = 0
    for name, value in headers:
        if name == b"content-length":
            length = int(value) if value.isdigit() else 0
        elif name == b"transfer-encoding":
            return CHUNKED
    return length


class RequestLimits:
    def __init__(
        self,
        app: ASGIApp,
        routes: Sequence[BaseRoute],
        settings: Settings,
    ) -> None:
        self.app = app
        self.routes = routes
        self.settings = settings
        self.max_concurrent_requests = settings.max_concurrent_requests
        self.in_flight = 0
        self._table: list[_RouteKind] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.in_flight >= self.max_concurrent_requests:
            await _answer(scope, receive, send, Overloaded("the server is at its request limit"))
            return
        self.in_flight += 1
        try:
            declared = body_length(scope["headers"])
            if declared == 0:
                await self.app(scope, receive, send)
            else:
                await self._capped(scope, receive, send, declared)
        finally:
            self.in_flight -= 1

    async def _capped(self, scope: Scope, receive: Receive, send: Send, declared: int) -> None:
        limit = self.limit_of(scope)
        if declared > limit:
            await _answer(scope, receive, send, _too_large(limit))
            return
        body = _CappedBody(scope, limit, receive, send)
        await self.app(scope, body.receive, body.send)

    def limit_of(self, scope: Scope) -> int:
        """The matched route's cap (of the settings now: the upload cap follows them)."""
        return byte_limits(self.settings)[self.kind_of(scope["path"], scope["method"])]

    def kind_of(self, path: str, method: str) -> BodyKind:
        """The first route whose path and method match, else the first whose path does
        (a 405 follows), else JSON (a 404 follows)."""
        by_path = None
        for route in self._routes():
            if route.path.match(path):
                if route.methods is None or method in route.methods:
                    return route.kind
                by_path = by_path or route.kind
        return by_path or BodyKind.JSON

    def _routes(self) -> list[_RouteKind]:
        if self._table is None:
            self._table = [
                _RouteKind(
                    context.path_regex,
                    frozenset(context.methods) if context.methods else None,
                    route_kind(context) or BodyKind.JSON,
                )
                for context in iter_route_contexts(self.routes)
            ]
        return self._table


def _too_large(limit: int) -> RequestTooLarge:
    return RequestTooLarge(f"the request body is larger than {limit} bytes, the limit here")


async def _answer(scope: Scope, receive: Receive, send: Send, error: DomainError) -> None:
    response = problem_of(error)
    response.headers["Connection"] = "close"
    await response(scope, receive, send)


class _CappedBody:
    """One request's body counted against its cap as the application receives it."""

    def __init__(self, scope: Scope, limit: int, receive: Receive, send: Send) -> None:
        self.scope = scope
        self.limit = limit
        self.received = 0
        self.complete = False
        self.refused = False
        self.started = False
        self._receive = receive
        self._send = send

    async def receive(self) -> Message:
        if self.refused:
            return {"type": "http.disconnect"}
        message = await self._receive()
        if message["type"] != "http.request":
            return message
        self.received += len(message.get("body", b""))
        self.complete = not message.get("more_body", False)
        if self.received > self.limit:
            # Once answered, the application sees the client gone; an answer it had
            # already begun is cut off (the server then closes the connection).
            self.refused = True
            if not self.started:
                await _answer(self.scope, self._receive, self._send, _too_large(self.limit))
            return {"type": "http.disconnect"}
        return message

    async def send(self, message: Message) -> None:
        if self.refused:
            return
        if message["type"] == "http.response.start":
            self.started = True
            if not self.complete:
                message = {**message, "headers": [*message.get("headers", []), _CLOSE]}
        await self._send(message)

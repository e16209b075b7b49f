"""What every request under /app passes through before any route sees it.

Form bodies are read whole before anything parses them, their bytes capped on the way
in by `api.request_limits.RequestLimits` (the routes here declare `BodyKind.FORM`), and
a body with too many fields is refused as soon as it has them. Only then is the (small)
body handed to the application; a body cut off (by the cap, or a client gone) never
is. Every answer gets the security headers. The API under /v1 is not touched: its
uploads stream by design."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.deps import Services
from api.web.auth import WebUser, find_user
from api.web.i18n import N_
from api.web.limits import MAX_FORM_FIELDS
from api.web.render import error_page
from api.web.security_headers import security_headers

FORM_TYPE = b"application/x-www-form-urlencoded"
_BODILESS = frozenset({"GET", "HEAD", "OPTIONS"})


class _Refused(Exception):
    def __init__(self, status: int, title: str, message: str) -> None:
        super().__init__(message)
        self.status, self.title, self.message = status, title, message


_TOO_MANY_FIELDS = _Refused(
    400, N_("Bad request"), N_("The form sent more fields than any form here has.")
)
_NOT_A_FORM = _Refused(415, N_("Unsupported form"), N_("Forms here are sent URL-encoded."))


def is_web_path(path: str) -> bool:
    return path == "/app" or path.startswith("/app/")


class WebGuard:
    def __init__(self, app: ASGIApp, services: Services) -> None:
        self.app = app
        self.services = services
        https_base = services.settings.public_base_url.startswith("https://")
        self.headers = {
            https: _encoded(security_headers(https_base or https)) for https in (False, True)
        }

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not is_web_path(scope["path"]):
            await self.app(scope, receive, send)
            return
        send = self._with_headers(scope, send)
        if scope["method"] not in _BODILESS:
            try:
                body = await _read_form(scope, receive)
            except _Refused as refused:
                await self._refuse(scope, receive, send, refused)
                return
            if body is None:
                return  # cut off: answered already, or nobody left to answer
            receive = _replay(body, receive)
        await self.app(scope, receive, send)

    def _with_headers(self, scope: Scope, send: Send) -> Send:
        encoded = self.headers[scope.get("scheme") == "https"]

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers += [(name, value) for name, value in encoded if name not in present]
                message = {**message, "headers": headers}
            await send(message)

        return send_with_headers

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, refused: _Refused) -> None:
        request = Request(scope)
        user = await run_in_threadpool(_user_if_known, request, self.services)
        # The rest of the body is never read, so this connection cannot carry another request.
        headers = {"Connection": "close"}
        page = error_page(request, user, refused.status, refused.title, refused.message, headers)
        await page(scope, receive, send)


async def _read_form(scope: Scope, receive: Receive) -> bytes | None:
    """The whole form; None when the body was cut off."""
    headers = dict(scope["headers"])
    content_type = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
    body = bytearray()
    fields = 1
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        body += chunk
        fields += chunk.count(b"&") + chunk.count(b";")
        if fields > MAX_FORM_FIELDS:
            raise _TOO_MANY_FIELDS
        if not message.get("more_body", False):
            break
    if body and content_type != FORM_TYPE:
        raise _NOT_A_FORM
    return bytes(body)


def _replay(body: bytes, receive: Receive) -> Receive:
    """The body, already read, as one message; then whatever the server says next."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def _encoded(headers: dict[str, str]) -> list[tuple[bytes, bytes]]:
    return [(name.lower().encode(), value.encode()) for name, value in headers.items()]


def _user_if_known(request: Request, services: Services) -> WebUser | None:
    try:
        return find_user(request, services)
    except Exception:
        return None

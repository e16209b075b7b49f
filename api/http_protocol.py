"""The HTTP protocol of `docintake serve`: uvicorn's httptools protocol with the limits
of the request path (issue 37, finding 4), which httptools and uvicorn do not have.

- A connection that has not sent a request's complete headers within
  `header_timeout_seconds` of its start (or of the request's first byte, on a kept-alive
  connection) is closed; so is one whose body sends nothing for `body_timeout_seconds`.
  Time in which the server itself does not read (the application is behind with the
  body) does not count against the client.
- More than `max_header_count` headers, or a head (request line and headers) of more
  than `max_header_bytes`, is answered 431 and the connection closed. The head's bytes
  are counted before httptools sees them: it gathers a header's name and value whole
  before calling back, so a single endless header would otherwise grow without bound.
- Beyond `max_connections` open connections, a new one is answered 503 with
  `Retry-After` and closed before anything is read from it.
Requests in flight are capped in api/request_limits.py. The answers are problem+json
from the one renderer (api/errors.py).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from functools import cache
from typing import Any

from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol
from uvicorn.server import ServerState

from api.errors import problem_of
from api.request_limits import Overloaded
from storage.errors import DomainError
from storage.settings import Settings, get_settings


class HeadersTooLarge(DomainError):
    status, code, title = 431, "request_headers_too_large", "Request header fields too large"


class _TooManyHeaders(Exception):
    pass


@dataclass(frozen=True, slots=True)
class ConnectionLimits:
    max_connections: int
    max_header_count: int
    max_header_bytes: int
    header_timeout_seconds: float
    body_timeout_seconds: float

    @classmethod
    def of(cls, settings: Settings) -> ConnectionLimits:
        return cls(
            max_connections=settings.max_connections,
            max_header_count=settings.max_header_count,
            max_header_bytes=settings.max_header_bytes,
            header_timeout_seconds=settings.header_timeout_seconds,
            body_timeout_seconds=settings.body_timeout_seconds,
        )


@cache
def _limits() -> ConnectionLimits:
    return ConnectionLimits.of(get_settings())


def raw_problem(error: DomainError) -> bytes:
    """A whole HTTP/1.1 answer, closing the connection, for where no application runs."""
    response = problem_of(error)
    head = [STATUS_LINE[response.status_code]]
    head += [name + b": " + value + b"\r\n" for name, value in response.raw_headers]
    return b"".join([*head, b"connection: close\r\n\r\n", response.body])


class GuardedHttpProtocol(HttpToolsProtocol):
    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.limits = _limits()
        self._reading_head = True
        self._head_bytes = 0
        self._header_count = 0
        self._headers_too_large = False
        self._timer: asyncio.TimerHandle | None = None
        self._body_moved = 0.0  # loop time of the body's last bytes

    # Connection

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.limits.max_connections:
            self._refuse(Overloaded("the server is at its connection limit"))
            return
        self._arm(self.limits.header_timeout_seconds)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._reading_head and self._timer is None:  # a new request's first bytes
            self._arm(self.limits.header_timeout_seconds)
        while data and not self.transport.is_closing():
            if self._reading_head:
                room = self.limits.max_header_bytes - self._head_bytes
                if room <= 0:
                    self._refuse(HeadersTooLarge(self._too_large_detail()))
                    return
                piece, data = data[:room], data[room:]
                self._head_bytes += len(piece)
            else:
                piece, data = data, b""
            super().data_received(piece)

    def send_400_response(self, msg: str) -> None:
        if self._headers_too_large:
            self._refuse(HeadersTooLarge(self._too_large_detail()))
        else:
            super().send_400_response(msg)

    # Parser callbacks

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._header_count = 0

    def on_header(self, name: bytes, value: bytes) -> None:
        self._header_count += 1
        if self._header_count > self.limits.max_header_count:
            self._headers_too_large = True
            raise _TooManyHeaders
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._reading_head = False
        self._body_moved = self.loop.time()
        self._arm(self.limits.body_timeout_seconds)
        super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        # A time stamp, not a new timer per chunk: a 200 MiB upload is 3,200 chunks.
        self._body_moved = self.loop.time()
        super().on_body(body)

    def on_message_complete(self) -> None:
        self._disarm()
        self._reading_head = True
        self._head_bytes = 0
        super().on_message_complete()

    # Helpers

    def _too_large_detail(self) -> str:
        return (
            f"send at most {self.limits.max_header_count} headers"
            f" and {self.limits.max_header_bytes} bytes of request line and headers"
        )

    def _refuse(self, error: DomainError) -> None:
        self._disarm()
        if not self.transport.is_closing():
            self.transport.write(raw_problem(error))
            self.transport.close()

    def _arm(self, seconds: float, delay: float | None = None) -> None:
        self._disarm()
        self._timer = self.loop.call_later(
            seconds if delay is None else delay, self._expired, seconds
        )

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _server_holds_back(self) -> bool:
        """The server is not reading, or the client waits for its `100 Continue`."""
        waiting = self.cycle is not None and self.cycle.waiting_for_100_continue
        return waiting or (self.flow is not None and self.flow.read_paused)

    def _expired(self, seconds: float) -> None:
        self._timer = None
        quiet = seconds if self._reading_head else self.loop.time() - self._body_moved
        if self._server_holds_back():
            self._arm(seconds)  # not the client's delay
        elif quiet < seconds:
            self._arm(seconds, delay=seconds - quiet)  # the body moved since
        elif not self.transport.is_closing():
            self.transport.close()

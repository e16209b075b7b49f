"""A real webhook receiver on loopback: uvicorn in a thread, recording every request.

Its answers follow a script: a list of status codes used one per request (the last one
repeats), and a gate that holds requests until opened (to keep a delivery on the wire).
And a black hole: an address whose connections are never accepted."""

from __future__ import annotations

import socket
import ssl
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from testkit.seaweed import free_port


@dataclass(frozen=True)
class Received:
    headers: dict[str, str]
    body: bytes
    at: float  # monotonic
    wall: float  # Unix time, to compare with the event's timestamp

    @property
    def message_id(self) -> str:
        return self.headers["webhook-id"]


@dataclass
class Receiver:
    port: int
    statuses: list[int] = field(default_factory=lambda: [204])
    received: list[Received] = field(default_factory=list)
    gate: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.gate.set()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def answer(self, request_headers: dict[str, str], body: bytes) -> int:
        with self.lock:
            self.received.append(Received(request_headers, body, time.monotonic(), time.time()))
            status = self.statuses.pop(0) if len(self.statuses) > 1 else self.statuses[0]
        self.gate.wait(60)
        return status

    def requests(self) -> list[Received]:
        with self.lock:
            return list(self.received)


def _app(receiver: Receiver) -> Starlette:
    async def hook(request: Request) -> Response:
        body = await request.body()
        # In a worker thread: a request held at the gate holds up no other one.
        status = await run_in_threadpool(receiver.answer, dict(request.headers), body)
        return Response(status_code=status)

    return Starlette(routes=[Route("/hook", hook, methods=["POST"])])


@contextmanager
def receiving(
    receiver: Receiver, certificate: tuple[Path, Path] | None = None
) -> Iterator[Receiver]:
    """Serve the receiver on its port (http, or https with (certificate, key))."""
    tls: dict[str, Any] = {}
    if certificate is not None:
        tls = {"ssl_certfile": str(certificate[0]), "ssl_keyfile": str(certificate[1])}
    config = uvicorn.Config(
        _app(receiver),
        host="127.0.0.1",
        port=receiver.port,
        log_level="warning",
        lifespan="off",
        **tls,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the receiver did not start")
        time.sleep(0.02)
    try:
        yield receiver
    finally:
        receiver.gate.set()
        server.should_exit = True
        thread.join(timeout=10)


def new_receiver(*statuses: int) -> Receiver:
    return Receiver(free_port(), list(statuses) or [204])


def trusting(certificate: Path) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=str(certificate))


@contextmanager
def black_hole(host: str = "127.0.0.1", port: int = 0) -> Iterator[int]:
    """A listening socket on (host, port) that never accepts, its one-place queue filled:
    the kernel drops every further SYN, so a connect waits until its caller gives up, as
    with a firewall that drops packets. Yields the port."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    filler = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        listener.bind((host, port))
        listener.listen(0)
        filler.connect(listener.getsockname())
        yield listener.getsockname()[1]
    finally:
        filler.close()
        listener.close()


@contextmanager
def silent_server(host: str = "127.0.0.1") -> Iterator[int]:
    """A listening socket whose connections are accepted by the kernel and never read
    nor answered (a TLS handshake or a request waits forever). Yields the port."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        listener.bind((host, 0))
        listener.listen(64)
        yield listener.getsockname()[1]
    finally:
        listener.close()

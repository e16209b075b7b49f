"""Hostile requests on raw sockets (issue 37, findings 1, 3 and 4), for the tests and
the soak: bodies streamed until the server answers, endless headers, slow headers,
stalled bodies. Each returns what the server did, to be judged by the caller."""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import urlsplit

MIB = 1024 * 1024
CHUNK = 64 * 1024
BOUNDARY = "b0undary"


@dataclass(frozen=True)
class Answer:
    head: bytes  # the status line and headers, or b"" when none came
    body: bytes  # the answer's body, as far as it came
    sent: int  # body bytes written before the answer came or the server hung up
    seconds: float

    @property
    def status(self) -> int:
        parts = self.head.split(b" ", 2)
        return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0

    def header(self, name: str) -> str | None:
        for line in self.head.split(b"\r\n")[1:]:
            key, _, value = line.partition(b":")
            if key.strip().lower() == name.lower().encode():
                return value.strip().decode()
        return None


def _address(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    return parts.hostname or "127.0.0.1", parts.port or 80


def request_head(method: str, path: str, headers: dict[str, str]) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def json_post_head(length: int | None, path: str = "/v1/webhook-endpoints") -> bytes:
    """A JSON POST without a key; chunked when `length` is None."""
    framing = (
        {"Transfer-Encoding": "chunked"} if length is None else {"Content-Length": str(length)}
    )
    return request_head("POST", path, {"Content-Type": "application/json", **framing})


def upload_head(api_key: str, length: int, boundary: str = BOUNDARY) -> bytes:
    return request_head(
        "POST",
        "/v1/uploads",
        {
            "Authorization": f"Bearer {api_key}",
            "Content-Type": f"multipart/form-data; boundary={boundary}",
            "Content-Length": str(length),
        },
    )


def _read_answer(sock: socket.socket, answer: bytes) -> tuple[bytes, bytes]:
    """The head and the body (by its Content-Length) of the answer begun in `answer`."""
    buffer = bytearray(answer)
    with contextlib.suppress(OSError):
        while b"\r\n\r\n" not in buffer and (more := sock.recv(65536)):
            buffer += more
        head = bytes(buffer).partition(b"\r\n\r\n")[0]
        length = int(Answer(head, b"", 0, 0).header("content-length") or 0)
        while len(buffer) < len(head) + 4 + length and (more := sock.recv(65536)):
            buffer += more
    head, _, body = bytes(buffer).partition(b"\r\n\r\n")
    return head, body


def stream(url: str, head: bytes, body: Iterator[bytes], timeout: float = 30) -> Answer:
    """Send the head, then body chunks until the server answers or hangs up."""
    started = time.monotonic()
    sent = 0
    with socket.create_connection(_address(url), timeout=timeout) as sock:
        sock.sendall(head)
        answer = b""
        for chunk in body:
            sock.settimeout(0.001)  # a glance for an early answer, not a wait
            with contextlib.suppress(TimeoutError, BlockingIOError):
                answer += sock.recv(65536)
            if answer:
                break
            sock.settimeout(timeout)  # a full send buffer is the server's pace, not an end
            try:
                sock.sendall(chunk)
            except (BrokenPipeError, ConnectionResetError, TimeoutError):
                break
            sent += len(chunk)
        sock.settimeout(timeout)
        head_back, body_back = _read_answer(sock, answer)
    return Answer(head_back, body_back, sent, time.monotonic() - started)


def zeros(total: int, chunked: bool = False) -> Iterator[bytes]:
    """`total` bytes of JSON whitespace in 64 KiB chunks (framed when chunked)."""
    piece = b" " * CHUNK
    if chunked:
        piece = b"%x\r\n" % CHUNK + piece + b"\r\n"
    for _ in range(total // CHUNK):
        yield piece


def closed_after(url: str, head: bytes, trickle: Iterator[bytes], interval: float) -> float:
    """Send `head`, then one piece of `trickle` every `interval` seconds; the seconds
    until the server closed the connection (or the trickle ran out: then -1)."""
    started = time.monotonic()
    with socket.create_connection(_address(url), timeout=interval) as sock:
        sock.sendall(head)
        for piece in trickle:
            try:
                data = sock.recv(65536)
                if not data:
                    return time.monotonic() - started
            except TimeoutError:
                pass
            except ConnectionResetError:
                return time.monotonic() - started
            try:
                sock.sendall(piece)
            except (BrokenPipeError, ConnectionResetError):
                return time.monotonic() - started
    return -1.0


def slow_headers(count: int) -> Iterator[bytes]:
    for number in range(count):
        yield b"X-Slow-%d: 1\r\n" % number


def many_headers(url: str, count: int, value_bytes: int = 1) -> Answer:
    head = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    value = b"v" * value_bytes
    lines = (b"X-H-%d: %s\r\n" % (number, value) for number in range(count))

    def chunks() -> Iterator[bytes]:
        batch: list[bytes] = []
        for line in lines:
            batch.append(line)
            if len(batch) == 1000:
                yield b"".join(batch)
                batch = []
        yield b"".join(batch) + b"\r\n"

    return stream(url, head, chunks())


def form_of_parts(parts: int, name: str = "a", boundary: str = BOUNDARY) -> bytes:
    """A multipart body of `parts` small parts, all named `name`, then a file."""
    part = (f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\nx\r\n').encode()
    tail = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n'
        f"Content-Type: application/pdf\r\n\r\n%PDF-1.4\r\n--{boundary}--\r\n"
    ).encode()
    return part * parts + tail


def in_chunks(data: bytes, size: int = CHUNK) -> Iterator[bytes]:
    for start in range(0, len(data), size):
        yield data[start : start + size]

"""Streams a multipart request body into the object store while hashing it.

Bytes are hashed and written by a thread of the request's own in 512 KiB slices, fed
through a small bounded queue: the event loop keeps reading and parsing while the
previous slices are hashed and written, and waits only when the queue is full. A file
that fits in one slice (most documents) is kept in hand and hashed and written in the
route's one trip to the thread pool, with its claim: a thread of its own, or a trip of
its own, costs more CPU than the file's hashing and writing (docs/throughput.md).

A file over the per-file limit stops being written (the partial object is dropped) but
is still hashed to the end, so a repeat of it is recognised. A body over the hard cap
(cut off in front of the app, api/request_limits.py), or one that ends early, leaves
nothing behind.
"""

from __future__ import annotations

import hashlib
import queue
import threading

import anyio
from fastapi import Request
from python_multipart.multipart import parse_options_header
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect

from api.multipart import FormStream
from storage.errors import ValidationFailed
from storage.idempotency import StoredFile
from storage.objectstore import ObjectStore, ObjectWriter

FLUSH_BYTES = 512 * 1024  # slices handed to the sink thread; 8 in flight: 4 MiB a request
IN_FLIGHT_SLICES = 8


class _HashingSink:
    def __init__(self, writer: ObjectWriter, key: str, max_bytes: int) -> None:
        self._writer: ObjectWriter | None = writer
        self._key = key
        self._max_bytes = max_bytes
        self._hash = hashlib.sha256()
        self.size = 0

    def write(self, data: bytes | bytearray) -> None:
        self._hash.update(data)
        self.size += len(data)
        if self._writer is None:
            return
        if self.size > self._max_bytes:
            self._writer.abort()
            self._writer = None
            return
        self._writer.write(data)

    def commit(self) -> StoredFile:
        too_large = self._writer is None
        if self._writer is not None:
            self._writer.commit()
            self._writer = None
        return StoredFile(
            object_key=None if too_large else self._key,
            sha256=self._hash.hexdigest(),
            size_bytes=self.size,
            too_large=too_large,
        )

    def abort(self) -> None:
        if self._writer is not None:
            self._writer.abort()
            self._writer = None


class _SinkThread:
    """Runs a _HashingSink on a thread of its own; `write` only blocks when full."""

    def __init__(self, sink: _HashingSink) -> None:
        self._sink = sink
        self._slices: queue.Queue[bytes | bytearray | None] = queue.Queue(maxsize=IN_FLIGHT_SLICES)
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._drain, daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        while (data := self._slices.get()) is not None:
            if self._error is None:
                try:
                    self._sink.write(data)
                except BaseException as exc:
                    self._error = exc

    def _raise_if_failed(self) -> None:
        if self._error is not None:
            raise self._error

    async def write(self, data: bytes | bytearray) -> None:
        self._raise_if_failed()
        try:
            self._slices.put_nowait(data)
        except queue.Full:
            await run_in_threadpool(self._slices.put, data)

    def _join(self) -> None:
        if self._thread.is_alive():
            self._slices.put(None)
            self._thread.join()

    async def finish(self) -> None:
        """Wait until every slice is hashed and written."""
        await run_in_threadpool(self._join)
        self._raise_if_failed()

    async def commit(self) -> StoredFile:
        await self.finish()
        return await run_in_threadpool(self._sink.commit)

    async def abort(self) -> None:
        await run_in_threadpool(self._join)
        await run_in_threadpool(self._sink.abort)


def _boundary(request: Request) -> bytes:
    media_type, options = parse_options_header(request.headers.get("content-type", ""))
    boundary = options.get(b"boundary")
    if media_type != b"multipart/form-data" or not boundary:
        raise ValidationFailed("send the request as multipart/form-data with a field 'file'")
    return boundary


class _FileInHand:
    """A file that fits in one slice, kept in memory until the route stores it."""

    def __init__(self, store: ObjectStore, key: str, max_bytes: int, data: bytearray) -> None:
        self._store = store
        self._key = key
        self._max_bytes = max_bytes
        self._data = data

    def store_now(self) -> StoredFile:
        sink = _HashingSink(self._store.open_writer(self._key), self._key, self._max_bytes)
        try:
            sink.write(self._data)
            return sink.commit()
        except BaseException:
            sink.abort()
            raise


class ReceivedForm:
    """A form read to its end: its fields, and its file, either stored while it arrived
    (more than one slice) or still in hand (one slice: nearly every document). A file in
    hand is hashed and stored by `stored_file`, in the route's own trip to the thread
    pool, beside its claim: a trip of its own cost as much CPU as the hashing and
    writing (docs/throughput.md, "API cost of a single upload")."""

    def __init__(self, form: FormStream, store: ObjectStore, file: StoredFile | _FileInHand):
        self.form = form
        self._store = store
        self._file = file

    def stored_file(self) -> StoredFile:
        """The file in the object store (blocking: call it in a worker thread). On an
        error nothing of it is kept."""
        if isinstance(self._file, _FileInHand):
            self._file = self._file.store_now()
        return self._file

    async def discard(self) -> None:
        """Delete what was stored of the file (nothing, while it is in hand)."""
        if isinstance(self._file, StoredFile) and self._file.object_key:
            with anyio.CancelScope(shield=True):
                await run_in_threadpool(self._store.delete, self._file.object_key)


class _LazySink:
    """The file's sink, started (writer and thread) with its first full slice; a file
    smaller than a slice never starts it."""

    def __init__(self, store: ObjectStore, key: str, max_file_bytes: int) -> None:
        self._store = store
        self._key = key
        self._max_file_bytes = max_file_bytes
        self._thread: _SinkThread | None = None

    @property
    def started(self) -> bool:
        """Whether a slice of the file was handed on (`_pump` hands on only full ones)."""
        return self._thread is not None

    async def write(self, data: bytes | bytearray) -> None:
        if self._thread is None:
            writer = await run_in_threadpool(self._store.open_writer, self._key)
            self._thread = _SinkThread(_HashingSink(writer, self._key, self._max_file_bytes))
        await self._thread.write(data)

    async def commit(self, tail: bytes | bytearray) -> StoredFile:
        assert self._thread is not None, "a file in hand is stored by ReceivedForm"
        if tail:
            await self._thread.write(tail)
        return await self._thread.commit()

    async def abort(self) -> None:
        if self._thread is not None:
            await self._thread.abort()


async def _pump(request: Request, form: FormStream, sink: _LazySink) -> None:
    """Feed the body to the form, handing full slices of the file to the sink; what is
    left of the file stays pending in the form. The body's hard cap is the route's
    (`BodyKind.UPLOAD`, enforced by api/request_limits.py as the body streams in)."""
    try:
        async for chunk in request.stream():
            form.feed(chunk)
            if len(form.pending) >= FLUSH_BYTES:
                await sink.write(form.take_pending())
    except ClientDisconnect as exc:
        raise ValidationFailed("the request body ended early") from exc
    form.finish()


async def receive_file(
    request: Request, store: ObjectStore, key: str, max_file_bytes: int
) -> ReceivedForm:
    """Read the form; a file larger than a slice is stored under `key` as it arrives, a
    smaller one is kept in hand for `ReceivedForm.stored_file`. On any error nothing is
    kept."""
    boundary = _boundary(request)
    form = FormStream(boundary)
    sink = _LazySink(store, key, max_file_bytes)
    file: StoredFile | _FileInHand
    try:
        await _pump(request, form, sink)
        if form.file_parts == 0:
            raise ValidationFailed("the form field 'file' is missing")
        tail = form.take_pending()
        if not sink.started and not tail:
            raise ValidationFailed("the file is empty")
        if sink.started:
            file = await sink.commit(tail)
        else:
            file = _FileInHand(store, key, max_file_bytes, tail)
    except BaseException:
        with anyio.CancelScope(shield=True):
            await sink.abort()
        raise
    return ReceivedForm(form, store, file)

"""Streams a multipart request body into the object store while hashing it.

Bytes are hashed and written in a worker thread in 1 MiB slices, so the event loop
only parses. A file over the per-file limit stops being written (the partial object is
dropped) but is still hashed to the end, so a repeat of it is recognised. A body over
the hard cap, or one that ends early, leaves nothing behind.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import anyio
from fastapi import Request
from python_multipart.multipart import parse_options_header
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect

from api.multipart import FormStream
from storage.errors import RequestTooLarge, ValidationFailed
from storage.idempotency import StoredFile
from storage.objectstore import ObjectStore, ObjectWriter

FLUSH_BYTES = 1024 * 1024


@dataclass(frozen=True, slots=True)
class ReceivedForm:
    form: FormStream
    file: StoredFile


class _HashingSink:
    def __init__(self, writer: ObjectWriter, key: str, max_bytes: int) -> None:
        self._writer: ObjectWriter | None = writer
        self._key = key
        self._max_bytes = max_bytes
        self._hash = hashlib.sha256()
        self.size = 0

    def write(self, data: bytes) -> None:
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


def _boundary(request: Request) -> bytes:
    media_type, options = parse_options_header(request.headers.get("content-type", ""))
    boundary = options.get(b"boundary")
    if media_type != b"multipart/form-data" or not boundary:
        raise ValidationFailed("send the request as multipart/form-data with a field 'file'")
    return boundary


def _check_declared_length(request: Request, max_request_bytes: int) -> None:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > max_request_bytes:
        raise RequestTooLarge(f"the request body is larger than {max_request_bytes} bytes")


async def _pump(request: Request, form: FormStream, sink: _HashingSink, cap: int) -> None:
    received = 0
    try:
        async for chunk in request.stream():
            received += len(chunk)
            if received > cap:
                raise RequestTooLarge(f"the request body is larger than {cap} bytes")
            form.feed(chunk)
            if len(form.pending) >= FLUSH_BYTES:
                await run_in_threadpool(sink.write, form.take_pending())
    except ClientDisconnect as exc:
        raise ValidationFailed("the request body ended early") from exc
    form.finish()
    if form.pending:
        await run_in_threadpool(sink.write, form.take_pending())


async def receive_file(
    request: Request, store: ObjectStore, key: str, max_file_bytes: int, max_request_bytes: int
) -> ReceivedForm:
    """Store the form's file under `key`; on any error nothing is kept."""
    boundary = _boundary(request)
    _check_declared_length(request, max_request_bytes)
    form = FormStream(boundary)
    writer = await run_in_threadpool(store.open_writer, key)
    sink = _HashingSink(writer, key, max_file_bytes)
    try:
        await _pump(request, form, sink, max_request_bytes)
        if form.file_parts == 0:
            raise ValidationFailed("the form field 'file' is missing")
        if sink.size == 0:
            raise ValidationFailed("the file is empty")
        stored = await run_in_threadpool(sink.commit)
    except BaseException:
        with anyio.CancelScope(shield=True):
            await run_in_threadpool(sink.abort)
        raise
    return ReceivedForm(form=form, file=stored)

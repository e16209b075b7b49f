"""S3 through the minio client: multipart uploads fed through a bounded queue, seekable
reads by range requests, and store trouble turned into ServiceUnavailable."""

from __future__ import annotations

import io
import queue
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import BinaryIO

import urllib3
from minio import Minio
from minio.error import MinioException, S3Error

from storage.errors import ServiceUnavailable
from storage.objectstore.base import ObjectMissing, ObjectWriter, safe_relative
from storage.settings import MIB, Settings


class _WriterAborted(Exception):
    pass


_END = b""


class _QueueStream(io.RawIOBase):
    """The read side of a bounded queue: minio's put_object reads parts from it."""

    def __init__(self, chunks: queue.Queue[bytes | None]) -> None:
        self._chunks = chunks
        self._buffer = memoryview(b"")
        self._done = False

    def readable(self) -> bool:
        return True

    def readinto(self, target: memoryview) -> int:  # type: ignore[override]
        if not self._buffer and not self._done:
            chunk = self._chunks.get()
            if chunk is None:
                raise _WriterAborted("upload aborted by the writer")
            self._done = chunk == _END
            self._buffer = memoryview(chunk)
        size = min(len(target), len(self._buffer))
        target[:size] = self._buffer[:size]
        self._buffer = self._buffer[size:]
        return size


class _S3Writer:
    # S3 parts are at least 5 MiB; minio buffers one part per thread in memory.
    PART_SIZE = 8 * MIB

    def __init__(self, client: Minio, bucket: str, key: str) -> None:
        self._chunks: queue.Queue[bytes | None] = queue.Queue(maxsize=16)
        self._error: BaseException | None = None
        stream = io.BufferedReader(_QueueStream(self._chunks), buffer_size=MIB)
        self._thread = threading.Thread(
            target=self._upload, args=(client, bucket, key, stream), daemon=True
        )
        self._thread.start()

    def _upload(self, client: Minio, bucket: str, key: str, stream: BinaryIO) -> None:
        try:
            client.put_object(
                bucket, key, stream, length=-1, part_size=self.PART_SIZE, num_parallel_uploads=1
            )
        except BaseException as exc:
            self._error = exc
            # Unblock a writer waiting on a full queue.
            while not self._chunks.empty():
                self._chunks.get_nowait()

    def _put(self, item: bytes | None) -> None:
        while self._thread.is_alive():
            try:
                self._chunks.put(item, timeout=0.5)
                return
            except queue.Full:
                continue
        self._raise_if_failed()

    def _raise_if_failed(self) -> None:
        if self._error is not None and not isinstance(self._error, _WriterAborted):
            raise ServiceUnavailable(f"object store write failed: {self._error}") from self._error

    def write(self, chunk: bytes | bytearray) -> None:
        if chunk:
            self._raise_if_failed()
            self._put(bytes(chunk))

    def commit(self) -> None:
        self._put(_END)
        self._thread.join()
        self._raise_if_failed()

    def abort(self) -> None:
        self._put(None)
        self._thread.join()


class _S3Reader(io.RawIOBase):
    """Seekable reads through HTTP range requests."""

    def __init__(self, client: Minio, bucket: str, key: str) -> None:
        self._client, self._bucket, self._key = client, bucket, key
        self._size = client.stat_object(bucket, key).size or 0
        self._pos = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._pos, io.SEEK_END: self._size}[whence]
        self._pos = max(0, base + offset)
        return self._pos

    def tell(self) -> int:
        return self._pos

    def readinto(self, target: memoryview) -> int:  # type: ignore[override]
        length = min(len(target), self._size - self._pos)
        if length <= 0:
            return 0
        # The reads of an unpack come here, after open_reader: its errors are mapped too,
        # so a store that stops answering mid-archive is the store's trouble, not the batch's.
        with _reachable():
            response = self._client.get_object(self._bucket, self._key, self._pos, length)
            try:
                data = response.read()
            finally:
                response.close()
                response.release_conn()
        target[: len(data)] = data
        self._pos += len(data)
        return len(data)


class _PortableMinio(Minio):
    """A client that pickles as the arguments that made it, so a store can be handed to
    a reading process (which makes a client of its own)."""

    _made_with: tuple[str, str, str, bool, str | None]

    def __reduce__(self) -> tuple[object, tuple[str, str, str, bool, str | None]]:
        return make_minio_client, self._made_with


def make_minio_client(
    endpoint: str, access_key: str, secret_key: str, secure: bool = False, region: str | None = None
) -> Minio:
    """A client that gives up on a dead endpoint in seconds instead of retrying for long."""
    http = urllib3.PoolManager(
        maxsize=32,
        timeout=urllib3.Timeout(connect=3.0, read=60.0),
        retries=urllib3.Retry(
            total=2, connect=1, backoff_factor=0.2, status_forcelist=(500, 502, 503, 504)
        ),
    )
    client = _PortableMinio(
        endpoint,
        access_key=access_key,
        secret_key=secret_key,
        secure=secure,
        region=region,
        http_client=http,
    )
    client._made_with = (endpoint, access_key, secret_key, secure, region)
    return client


_MISSING_CODES = frozenset({"NoSuchKey", "NoSuchObject", "NotFound"})


@contextmanager
def _reachable() -> Iterator[None]:
    """Every store error is one of two: the object is missing (the store answered so),
    or the store is unavailable: ServiceUnavailable, which callers treat as "wait and
    try again", never as a failure of the document. That includes answers such as
    AccessDenied or NoSuchBucket (a policy or credentials changed; an operator's to
    mend) and answers the client could not make sense of."""
    try:
        yield
    except S3Error as exc:
        if exc.code in _MISSING_CODES:
            raise ObjectMissing(exc.object_name or "") from exc
        raise ServiceUnavailable(f"object store is unavailable: {exc.code}") from exc
    except (MinioException, urllib3.exceptions.HTTPError, OSError) as exc:
        raise ServiceUnavailable(f"object store does not answer: {exc}") from exc


def s3_reader_options(
    endpoint: str, access_key: str, secret_key: str, secure: bool, region: str
) -> dict[str, str]:
    """Storage options for polars (object_store) to read the same bucket."""
    return {
        "aws_endpoint_url": f"{'https' if secure else 'http'}://{endpoint}",
        "aws_access_key_id": access_key,
        "aws_secret_access_key": secret_key,
        "aws_region": region,
        "aws_allow_http": "false" if secure else "true",
    }


class S3Store:
    def __init__(
        self, client: Minio, bucket: str, reader_options: dict[str, str] | None = None
    ) -> None:
        self._client = client
        self.bucket = bucket
        self._reader_options = reader_options

    @classmethod
    def from_settings(cls, settings: Settings) -> S3Store:
        endpoint = settings.s3_endpoint.removeprefix("http://").removeprefix("https://")
        secure = settings.s3_secure or settings.s3_endpoint.startswith("https://")
        access_key = settings.s3_access_key.get_secret_value()
        secret_key = settings.s3_secret_key.get_secret_value()
        client = make_minio_client(
            endpoint, access_key, secret_key, secure=secure, region=settings.s3_region
        )
        options = s3_reader_options(endpoint, access_key, secret_key, secure, settings.s3_region)
        return cls(client, settings.s3_bucket, options)

    def ensure_bucket(self) -> None:
        if not self._client.bucket_exists(self.bucket):
            self._client.make_bucket(self.bucket)

    def open_writer(self, key: str) -> ObjectWriter:
        safe_relative(key)
        return _S3Writer(self._client, self.bucket, key)

    def open_reader(self, key: str) -> BinaryIO:
        with _reachable():
            return io.BufferedReader(_S3Reader(self._client, self.bucket, key), buffer_size=MIB)

    def read_bytes(self, key: str) -> bytes:
        with _reachable():
            response = self._client.get_object(self.bucket, key)
            try:
                return bytes(response.read())
            finally:
                response.close()
                response.release_conn()

    def exists(self, key: str) -> bool:
        with _reachable():
            try:
                self._client.stat_object(self.bucket, key)
            except S3Error as exc:
                if exc.code in _MISSING_CODES:
                    return False
                raise
            return True

    def delete(self, key: str) -> None:
        with _reachable():
            self._client.remove_object(self.bucket, key)

    def list_keys(self, prefix: str = "") -> list[str]:
        with _reachable():
            objects = self._client.list_objects(self.bucket, prefix=prefix, recursive=True)
            return sorted(obj.object_name for obj in objects if obj.object_name)

    def reader_location(self, prefix: str) -> tuple[str, dict[str, str]]:
        if self._reader_options is None:
            raise RuntimeError("this S3Store was made without reader options")
        return f"s3://{self.bucket}/{safe_relative(prefix).as_posix()}", dict(self._reader_options)

    def ping(self) -> None:
        try:
            self._client.bucket_exists(self.bucket)
        except Exception as exc:
            raise ServiceUnavailable(f"object store does not answer: {exc}") from exc

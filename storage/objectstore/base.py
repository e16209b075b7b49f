"""The object store's interface: what the API, flows and tables use, whichever store
is behind it; and the one check on keys both stores share."""

from __future__ import annotations

from pathlib import Path
from typing import BinaryIO, Protocol


class ObjectMissing(LookupError):
    """The store answered, and the object is not there."""


class ObjectWriter(Protocol):
    def write(self, chunk: bytes | bytearray) -> None: ...

    def commit(self) -> None: ...

    def abort(self) -> None: ...


class ObjectStore(Protocol):
    def open_writer(self, key: str) -> ObjectWriter: ...

    def open_reader(self, key: str) -> BinaryIO: ...

    def read_bytes(self, key: str) -> bytes: ...

    def exists(self, key: str) -> bool: ...

    def delete(self, key: str) -> None: ...

    def list_keys(self, prefix: str = "") -> list[str]: ...

    def reader_location(self, prefix: str) -> tuple[str, dict[str, str]]:
        """Where readers outside this store (polars, pyarrow) find the objects under
        `prefix`: a path or `s3://` URL, and the storage options to pass them."""
        ...

    def ping(self) -> None:
        """Raise ServiceUnavailable when the store does not answer."""
        ...


def safe_relative(key: str) -> Path:
    """Keys are ours (uuids and fixed words), but refuse anything path-like anyway."""
    parts = key.split("/")
    if not key or any(part in ("", ".", "..") for part in parts) or "\\" in key or "\0" in key:
        raise ValueError(f"invalid object key {key!r}")
    return Path(*parts)

"""The embedded default: objects as files under one directory, published by rename."""

from __future__ import annotations

import os
import shutil
import uuid
from pathlib import Path
from typing import BinaryIO

from storage.errors import ServiceUnavailable
from storage.objectstore.base import ObjectMissing, ObjectWriter, safe_relative


class _LocalWriter:
    def __init__(self, final_path: Path, tmp_dir: Path) -> None:
        self._final = final_path
        self._tmp = tmp_dir / f"{uuid.uuid4()}.part"
        self._file: BinaryIO | None = open(self._tmp, "wb")  # noqa: SIM115

    def write(self, chunk: bytes | bytearray) -> None:
        assert self._file is not None, "writer is closed"
        self._file.write(chunk)

    def commit(self) -> None:
        assert self._file is not None, "writer is closed"
        self._file.close()
        self._file = None
        self._final.parent.mkdir(parents=True, exist_ok=True)
        os.replace(self._tmp, self._final)

    def abort(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
        self._tmp.unlink(missing_ok=True)


class LocalDirStore:
    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self._tmp = self.root / ".tmp"
        self._tmp.mkdir(parents=True, exist_ok=True)

    def _path(self, key: str) -> Path:
        return self.root / safe_relative(key)

    def open_writer(self, key: str) -> ObjectWriter:
        return _LocalWriter(self._path(key), self._tmp)

    def open_reader(self, key: str) -> BinaryIO:
        try:
            return open(self._path(key), "rb")
        except FileNotFoundError as exc:
            raise ObjectMissing(key) from exc

    def read_bytes(self, key: str) -> bytes:
        try:
            return self._path(key).read_bytes()
        except FileNotFoundError as exc:
            raise ObjectMissing(key) from exc

    def exists(self, key: str) -> bool:
        return self._path(key).is_file()

    def delete(self, key: str) -> None:
        self._path(key).unlink(missing_ok=True)

    def list_keys(self, prefix: str = "") -> list[str]:
        keys = (
            path.relative_to(self.root).as_posix()
            for path in self.root.rglob("*")
            if path.is_file() and self._tmp not in path.parents
        )
        return sorted(key for key in keys if key.startswith(prefix))

    def reader_location(self, prefix: str) -> tuple[str, dict[str, str]]:
        return str(self.root / safe_relative(prefix)), {}

    def ping(self) -> None:
        if not self.root.is_dir() or not os.access(self.root, os.W_OK):
            raise ServiceUnavailable("object store directory is not writable")


def remove_local_store(root: Path) -> None:
    shutil.rmtree(root, ignore_errors=True)

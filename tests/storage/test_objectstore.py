"""Both object stores, the local directory and S3 on SeaweedFS, behave the same."""

from __future__ import annotations

import os
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from storage.objectstore import LocalDirStore, ObjectStore, S3Store
from tests.api.helpers import make_zip


@pytest.fixture(params=["local", "s3"])
def any_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ObjectStore]:
    if request.param == "s3":
        yield request.getfixturevalue("s3_store")
    else:
        yield LocalDirStore(tmp_path / "objects")


def test_written_object_reads_back_only_after_commit(any_store: ObjectStore) -> None:
    writer = any_store.open_writer("uploads/a")
    writer.write(b"hello ")
    writer.write(b"world")
    assert not any_store.exists("uploads/a")

    writer.commit()

    assert any_store.read_bytes("uploads/a") == b"hello world"
    assert any_store.list_keys("uploads/") == ["uploads/a"]


def test_aborted_write_leaves_nothing(any_store: ObjectStore) -> None:
    writer = any_store.open_writer("uploads/b")
    writer.write(os.urandom(9 * 1024 * 1024))  # more than one S3 part
    writer.abort()

    assert not any_store.exists("uploads/b")
    assert any_store.list_keys() == []


def test_large_object_streams_in_parts_and_reads_with_seeks(any_store: ObjectStore) -> None:
    chunk = os.urandom(1024 * 1024)
    writer = any_store.open_writer("big/x")
    for _ in range(20):
        writer.write(chunk)
    writer.commit()

    with any_store.open_reader("big/x") as reader:
        reader.seek(-10, os.SEEK_END)
        assert reader.read() == chunk[-10:]
        reader.seek(5 * 1024 * 1024 + 3)
        assert reader.read(4) == chunk[3:7]


def test_zip_central_directory_is_read_through_the_reader(any_store: ObjectStore) -> None:
    writer = any_store.open_writer("batches/z.zip")
    writer.write(make_zip({"a.pdf": b"%PDF-a", "dir/b.xml": b"<x/>"}))
    writer.commit()

    with any_store.open_reader("batches/z.zip") as reader, zipfile.ZipFile(reader) as archive:
        assert archive.namelist() == ["a.pdf", "dir/b.xml"]
        assert archive.read("dir/b.xml") == b"<x/>"


def test_delete_and_ping(any_store: ObjectStore) -> None:
    writer = any_store.open_writer("k")
    writer.write(b"x")
    writer.commit()
    any_store.delete("k")
    any_store.ping()
    assert not any_store.exists("k")


def test_s3_store_refuses_wrong_credentials(s3_store: S3Store, seaweed) -> None:  # type: ignore[no-untyped-def]
    from storage.errors import ServiceUnavailable
    from storage.objectstore import make_minio_client

    wrong = S3Store(make_minio_client(seaweed.endpoint, "wrong", "wrong"), s3_store.bucket)
    with pytest.raises(ServiceUnavailable):
        wrong.ping()


def test_s3_reads_after_opening_map_store_errors(s3_store: S3Store) -> None:
    """An unpack reads through the reader long after it was opened: an error then is the
    store's (missing or unavailable), never a raw S3 error charged to the archive."""
    from storage.objectstore import ObjectMissing

    writer = s3_store.open_writer("batches/gone.zip")
    writer.write(b"x" * 4096)
    writer.commit()
    reader = s3_store.open_reader("batches/gone.zip")
    s3_store.delete("batches/gone.zip")
    with pytest.raises(ObjectMissing):
        reader.read(10)

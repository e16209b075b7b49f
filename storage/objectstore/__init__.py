"""Object store: a local directory (embedded default) or S3 through the minio client.

Writers take chunks as they arrive, so no request is ever held whole in memory, and
publish the object only on `commit()`; `abort()` leaves nothing behind. Readers are
seekable file objects, so `zipfile` can read an archive's central directory with two
range requests instead of downloading the archive.

The interface is in `base.py`, the stores in `local.py` and `s3.py`; everything is
importable from `storage.objectstore`.
"""

from __future__ import annotations

from storage.objectstore.base import ObjectMissing, ObjectStore, ObjectWriter
from storage.objectstore.local import LocalDirStore, remove_local_store
from storage.objectstore.s3 import S3Store, make_minio_client, s3_reader_options
from storage.settings import Settings

__all__ = [
    "LocalDirStore",
    "ObjectMissing",
    "ObjectStore",
    "ObjectWriter",
    "S3Store",
    "build_object_store",
    "make_minio_client",
    "remove_local_store",
    "s3_reader_options",
]


def build_object_store(settings: Settings, create_bucket: bool = True) -> ObjectStore:
    """The configured store. Workers pass `create_bucket=False`: the API makes the
    bucket, and a worker that starts while S3 is away must wait, not fail."""
    if settings.s3_endpoint:
        store = S3Store.from_settings(settings)
        if create_bucket:
            store.ensure_bucket()
        return store
    return LocalDirStore(settings.object_store_dir)

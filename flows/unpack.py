"""Unpacking a batch's archive into uploads, streaming, with the limits enforced on the
bytes actually inflated (headers can lie: zip bombs, overlapping entries).

All or nothing: entries are streamed to the object store under keys derived from the
batch and position, and the upload rows are inserted in one transaction at the end, so
a worker killed half-way leaves no rows and the next attempt starts over.
"""

from __future__ import annotations

import hashlib
import logging
import uuid
import zipfile
import zlib
from dataclasses import dataclass

from flows.work import WorkerEnv
from processors.archive import (
    ArchiveProblem,
    ArchiveRejected,
    UnpackedEntry,
    document_entries,
    open_archive,
    safe_label,
)
from processors.base import FailureCode
from storage.models import Batch, Upload
from storage.objectstore import ObjectStore
from storage.repositories import uploads as upload_repo
from storage.repositories import work as work_repo
from storage.states import UnpackState, UploadStatus

log = logging.getLogger(__name__)

CHUNK = 1024 * 1024
ENTRY_ERRORS = (
    zipfile.BadZipFile,
    zlib.error,
    RuntimeError,
    NotImplementedError,
    EOFError,
    ValueError,
    OSError,
)


@dataclass(frozen=True, slots=True)
class BatchInfo:
    id: uuid.UUID
    company_id: uuid.UUID
    document_type: str
    object_key: str
    unpack_state: str

    @classmethod
    def of(cls, batch: Batch) -> BatchInfo:
        return cls(
            batch.id, batch.company_id, batch.document_type, batch.object_key, batch.unpack_state
        )


def entry_key(batch_id: uuid.UUID, position: int) -> str:
    return f"batches/{batch_id}/entries/{position}"


class _Budget:
    def __init__(self, total: int) -> None:
        self.left = total

    def take(self, size: int) -> None:
        self.left -= size
        if self.left < 0:
            raise ArchiveRejected(
                ArchiveProblem.TOO_LARGE, "the archive unpacks to more than the limit allows"
            )


def _copy_entry(
    archive: zipfile.ZipFile,
    info: zipfile.ZipInfo,
    position: int,
    store: ObjectStore,
    key: str,
    max_file_bytes: int,
    budget: _Budget,
) -> UnpackedEntry:
    digest, size, too_large = hashlib.sha256(), 0, False
    writer = store.open_writer(key)
    try:
        with archive.open(info) as stream:
            while block := stream.read(CHUNK):
                size += len(block)
                budget.take(len(block))
                if size > max_file_bytes:
                    too_large = True
                    break
                digest.update(block)
                writer.write(block)
    except ENTRY_ERRORS as exc:
        writer.abort()
        return UnpackedEntry(
            position,
            safe_label(info.filename),
            digest.hexdigest(),
            size,
            False,
            f"the archive entry could not be unpacked ({exc})",
        )
    except BaseException:
        writer.abort()
        raise
    if too_large:
        writer.abort()
    else:
        writer.commit()
    return UnpackedEntry(
        position, safe_label(info.filename), digest.hexdigest(), size, too_large, None
    )


def _upload_for(batch: BatchInfo, entry: UnpackedEntry) -> tuple[Upload, UploadStatus]:
    kept_nothing = entry.too_large or entry.unreadable is not None
    upload = Upload(
        id=uuid.uuid4(),
        company_id=batch.company_id,
        batch_id=batch.id,
        position=entry.position,
        file_name=entry.name,
        document_type=batch.document_type,
        sha256=entry.sha256,
        size_bytes=entry.size,
        attempts=0,
        object_key=None if kept_nothing else entry_key(batch.id, entry.position),
    )
    if entry.too_large:
        return upload, upload_repo.refused_at_intake(
            upload, FailureCode.FILE_TOO_LARGE, upload_repo.FILE_TOO_LARGE_MESSAGE
        )
    if entry.unreadable:
        return upload, upload_repo.refused_at_intake(
            upload, FailureCode.UNSUPPORTED_FILE_TYPE, entry.unreadable
        )
    return upload, UploadStatus.QUEUED


def _read_entries(env: WorkerEnv, batch: BatchInfo) -> list[UnpackedEntry]:
    settings = env.settings
    budget = _Budget(settings.max_archive_bytes)
    with env.store.open_reader(batch.object_key) as reader, open_archive(reader) as archive:
        entries = document_entries(archive)
        if len(entries) > settings.max_archive_files:
            raise ArchiveRejected(
                ArchiveProblem.TOO_MANY_FILES,
                f"the archive holds {len(entries)} files; at most "
                f"{settings.max_archive_files} are allowed",
            )
        return [
            _copy_entry(
                archive,
                info,
                position,
                env.store,
                entry_key(batch.id, position),
                settings.max_file_bytes,
                budget,
            )
            for position, info in enumerate(entries)
        ]


def _discard_entries(store: ObjectStore, batch_id: uuid.UUID, count: int) -> None:
    for position in range(count):
        store.delete(entry_key(batch_id, position))


def unpack(env: WorkerEnv, batch: BatchInfo) -> int:
    """Create one upload per document in the archive; returns how many were created.
    An archive that breaks the limits fails the batch and keeps nothing."""
    if batch.unpack_state != UnpackState.PENDING:
        return 0
    try:
        entries = _read_entries(env, batch)
    except ArchiveRejected as rejected:
        log.warning("batch %s refused while unpacking: %s", batch.id, rejected.message)
        _discard_entries(env.store, batch.id, env.settings.max_archive_files)
        with env.db.session() as session:
            record = session.get(Batch, batch.id)
            assert record is not None
            work_repo.fail_batch(session, record, rejected.problem.value, rejected.message)
            session.commit()
        return 0
    with env.db.session() as session:
        existing = work_repo.positions_of(session, batch.id)
        upload_repo.add_uploads(
            session,
            [_upload_for(batch, entry) for entry in entries if entry.position not in existing],
        )
        record = session.get(Batch, batch.id)
        assert record is not None
        record.unpack_state = UnpackState.DONE
        session.commit()
    log.info("batch %s: unpacked %d files", batch.id, len(entries))
    return len(entries)

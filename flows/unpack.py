"""Unpacking a batch's archive into uploads.

The archive is parsed and inflated in a reading process (`unpack_in_child`, kernel
limits on memory and CPU), never in the flow-run process: members stream through
`processors.archive.read_member` into the object store under keys derived from the
batch and position. The flow-run process only gets the list of what was stored.

All or nothing: the upload rows are inserted in one transaction at the end, so an
unpack interrupted half-way leaves no rows and the next attempt starts over. An
archive that breaks the limits fails the batch and keeps nothing. Store or disk
trouble makes the batch wait (its lease runs out, it is claimed again). A batch whose
unpack process dies `MAX_CRASHES` times while unpacking (a crash, or a kill such as the
OOM killer's) fails; a process that died before the unpack was in its hands, or in a
shutdown, is tried again uncharged, `MAX_TAKES` times at most.
"""

from __future__ import annotations

import logging
import time
import uuid
from dataclasses import dataclass

from flows.executor import ReaderKilled, ReaderStopped
from flows.work import MISSING_PAUSE_SECONDS, MISSING_TRIES, WorkerEnv
from processors.archive import (
    ArchiveLimits,
    ArchiveRejected,
    Budget,
    SourceUnreadable,
    UnpackedEntry,
    document_entries,
    guarded,
    open_archive,
    read_member,
)
from processors.base import FailureCode
from storage.errors import ServiceUnavailable
from storage.models import Batch, Upload
from storage.objectstore import ObjectMissing, ObjectStore
from storage.repositories import uploads as upload_repo
from storage.repositories import work as work_repo
from storage.states import UnpackState, UploadStatus

log = logging.getLogger(__name__)


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


@dataclass(frozen=True, slots=True)
class UnpackReport:
    """What a reading process made of an archive: its entries, or why it has none."""

    entries: tuple[UnpackedEntry, ...] = ()
    rejected: ArchiveRejected | None = None
    unavailable: str | None = None
    missing: bool = False


def entry_key(batch_id: uuid.UUID, position: int) -> str:
    return f"batches/{batch_id}/entries/{position}"


def _store_entries(
    store: ObjectStore, batch_id: uuid.UUID, archive_key: str, limits: ArchiveLimits
) -> list[UnpackedEntry]:
    budget = Budget(limits.max_total_bytes)
    entries = []
    with store.open_reader(archive_key) as raw, open_archive(guarded(raw), limits) as archive:
        for position, info in enumerate(document_entries(archive, limits)):
            writer = store.open_writer(entry_key(batch_id, position))
            try:
                entry = read_member(archive, info, position, limits, budget, writer.write)
            except BaseException:
                writer.abort()
                raise
            if entry.too_large or entry.unreadable:
                writer.abort()
            else:
                writer.commit()
            entries.append(entry)
    return entries


def unpack_in_child(
    store: ObjectStore, batch_id: uuid.UUID, archive_key: str, limits: ArchiveLimits
) -> UnpackReport:
    """Runs in a reading process: the only place an archive's bytes are parsed."""
    try:
        return UnpackReport(entries=tuple(_store_entries(store, batch_id, archive_key, limits)))
    except ArchiveRejected as rejected:
        discard_entries(store, batch_id, limits.max_files)
        return UnpackReport(rejected=rejected)
    except ObjectMissing:
        return UnpackReport(missing=True)
    except (SourceUnreadable, ServiceUnavailable, OSError) as exc:
        return UnpackReport(unavailable=str(exc))


def discard_entries(store: ObjectStore, batch_id: uuid.UUID, count: int) -> None:
    for position in range(count):
        store.delete(entry_key(batch_id, position))


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


def _limits(env: WorkerEnv) -> ArchiveLimits:
    settings = env.settings
    return ArchiveLimits(
        settings.max_archive_files, settings.max_archive_bytes, settings.max_file_bytes
    )


def _fail_batch(env: WorkerEnv, batch_id: uuid.UUID, code: str, message: str) -> None:
    log.error("batch %s failed: %s", batch_id, message)
    with env.db.session() as session:
        record = session.get(Batch, batch_id)
        assert record is not None
        work_repo.fail_batch(session, record, code, message)
        session.commit()


def _report(env: WorkerEnv, batch: BatchInfo) -> UnpackReport | None:
    """Unpack in a reading process; None once the batch has failed for good (its unpack
    killed MAX_CRASHES processes, or its archive is gone)."""
    limits, missing, kills = _limits(env), 0, 0
    while True:
        try:
            report: UnpackReport = env.executor.submit(
                str(batch.company_id),
                unpack_in_child,
                env.store,
                batch.id,
                batch.object_key,
                limits,
            ).result()
        except ReaderKilled as killed:
            kills += 1
            log.warning("batch %s: unpacking killed (%d), not charged: %s", batch.id, kills, killed)
            if kills >= work_repo.MAX_TAKES:
                _give_up(env, batch, f"Unpacking the archive was killed {kills} times")
                return None
            continue
        except ReaderStopped as stopped:
            if _charge_crash(env, batch, stopped):
                return None
            continue
        if not report.missing:
            return report
        missing += 1
        log.error(
            "batch %s: its archive %s is missing (try %d)", batch.id, batch.object_key, missing
        )
        if missing >= MISSING_TRIES:
            message = "The archive's stored bytes are missing; send the archive again."
            _fail_batch(env, batch.id, FailureCode.PROCESSING_FAILED.value, message)
            return None
        time.sleep(MISSING_PAUSE_SECONDS)


def _charge_crash(env: WorkerEnv, batch: BatchInfo, stopped: ReaderStopped) -> bool:
    """Count the death of the unpacking process against the batch; True once it failed."""
    log.error("batch %s: unpacking stopped its process: %s", batch.id, stopped)
    with env.db.session() as session:
        crashes = work_repo.charge_batch_crash(session, batch.id)
        session.commit()
    if crashes < work_repo.MAX_CRASHES:
        return False
    _give_up(env, batch, f"Unpacking the archive stopped its process {crashes} times ({stopped})")
    return True


def _give_up(env: WorkerEnv, batch: BatchInfo, why: str) -> None:
    discard_entries(env.store, batch.id, env.settings.max_archive_files)
    message = f"{why}; nothing of it was read."
    _fail_batch(env, batch.id, FailureCode.PROCESSING_FAILED.value, message)


def unpack(env: WorkerEnv, batch: BatchInfo) -> int:
    """Create one upload per document in the archive; returns how many were created."""
    if batch.unpack_state != UnpackState.PENDING:
        return 0
    report = _report(env, batch)
    if report is None:
        return 0
    if report.unavailable is not None:
        raise ServiceUnavailable(f"batch {batch.id}: {report.unavailable}")
    if report.rejected is not None:
        log.warning("batch %s refused while unpacking: %s", batch.id, report.rejected.message)
        _fail_batch(env, batch.id, report.rejected.problem.value, report.rejected.message)
        return 0
    with env.db.session() as session:
        existing = work_repo.positions_of(session, batch.id)
        upload_repo.add_uploads(
            session,
            [
                _upload_for(batch, entry)
                for entry in report.entries
                if entry.position not in existing
            ],
        )
        work_repo.mark_unpacked(session, batch.id)
        session.commit()
    log.info("batch %s: unpacked %d files", batch.id, len(report.entries))
    return len(report.entries)

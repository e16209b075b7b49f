"""Unpacking a batch's archive into uploads (an e-mail batch's message likewise: its
attachments are the entries, flows/unpack_mail.py, docs/email.md).

The archive is parsed and inflated in a reading process (`unpack_in_child`, kernel
limits on memory and CPU), never in the flow-run process: members stream through
`processors.archive.read_member` into the object store under keys derived from the
batch and position. The flow-run process only gets the list of what was stored.

All or nothing: the upload rows are inserted in one transaction at the end, so an
unpack interrupted half-way leaves no rows and the next attempt starts over. An
archive that breaks the limits fails the batch and keeps nothing. Store or disk
trouble makes the batch wait (its lease runs out, it is claimed again), uncounted.
An unpack that fails or whose process dies (any signal, a limit, an error; "the store
could not be read" while the store answers and holds the archive) is counted on the
batch; at `MAX_CRASHES` the batch fails. A batch claimed `MAX_TAKES` times without an
unpack outcome (its workers died) fails too: nothing loops. A process that died
before the unpack was in its hands, or in a shutdown, is tried again uncharged.

The archive is deleted once nobody can need it: right after its entries are committed,
or its failure recorded; process_batch makes sure before it finishes the batch. Only
a pending batch is unpacked, and only a pending batch is failed here, so a worker
whose lease ran out mid-unpack cannot undo or discard what another committed.
"""

from __future__ import annotations

import logging
import time
import uuid
from concurrent.futures import CancelledError
from dataclasses import dataclass

from flows.executor import ReaderStopped, ReaderUnavailable
from flows.unpack_mail import entry_key, store_entry, store_message_entries
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
from processors.email_message import MessageHead, dmarc_failed
from storage.errors import ServiceUnavailable
from storage.mail_intake import SOURCE_EMAIL
from storage.models import Batch, Company, Upload
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
    attempts: int = 0  # claims, this one included
    source_type: str = "api"

    @classmethod
    def of(cls, batch: Batch) -> BatchInfo:
        return cls(
            batch.id,
            batch.company_id,
            batch.document_type,
            batch.object_key,
            batch.unpack_state,
            batch.attempts,
            batch.source_type,
        )


@dataclass(frozen=True, slots=True)
class UnpackReport:
    """What a reading process made of an archive: its entries, or why it has none."""

    entries: tuple[UnpackedEntry, ...] = ()
    rejected: ArchiveRejected | None = None
    unavailable: str | None = None
    missing: bool = False
    head: MessageHead | None = None  # an e-mail batch's


def _store_entries(
    store: ObjectStore, batch_id: uuid.UUID, archive_key: str, limits: ArchiveLimits
) -> list[UnpackedEntry]:
    budget = Budget(limits.max_total_bytes)
    entries = []
    with store.open_reader(archive_key) as raw, open_archive(guarded(raw), limits) as archive:
        for position, info in enumerate(document_entries(archive, limits)):
            entries.append(
                store_entry(
                    store,
                    entry_key(batch_id, position),
                    lambda sink, i=info, p=position: read_member(  # type: ignore[misc]
                        archive, i, p, limits, budget, sink
                    ),
                )
            )
    return entries


def _read_source(
    store: ObjectStore, batch_id: uuid.UUID, key: str, limits: ArchiveLimits, source_type: str
) -> UnpackReport:
    if source_type != SOURCE_EMAIL:
        return UnpackReport(entries=tuple(_store_entries(store, batch_id, key, limits)))
    try:
        raw = store.read_bytes(key)
    except ObjectMissing:
        raise
    except Exception as exc:
        raise SourceUnreadable(f"the message could not be read: {exc}") from exc
    entries, head = store_message_entries(store, batch_id, raw, limits)
    return UnpackReport(entries=tuple(entries), head=head)


def unpack_in_child(
    store: ObjectStore,
    batch_id: uuid.UUID,
    archive_key: str,
    limits: ArchiveLimits,
    source_type: str = "api",
) -> UnpackReport:
    """Runs in a reading process: the only place an archive's (or a message's) bytes
    are parsed."""
    try:
        return _read_source(store, batch_id, archive_key, limits, source_type)
    except ArchiveRejected as rejected:  # the parent discards what was stored
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


def _fail_batch(env: WorkerEnv, batch: BatchInfo, code: str, message: str) -> bool:
    """Record the batch's failure, then keep nothing of it; False (and nothing done) if
    it is no longer pending (another worker, whose lease had run out, settled it)."""
    with env.db.session() as session:
        failed = work_repo.fail_pending_batch(session, batch.id, code, message)
        session.commit()
    if not failed:
        return False
    log.error("batch %s failed: %s", batch.id, message)
    discard_entries(env.store, batch.id, env.settings.max_archive_files)
    drop_archive(env.store, batch.object_key, batch.id)
    return True


def drop_archive(store: ObjectStore, object_key: str, batch_id: uuid.UUID) -> bool:
    """Delete an archive nobody needs any more (its entries are committed, or its batch
    failed); False if the store refused (process_batch tries again before finishing)."""
    try:
        store.delete(object_key)
    except Exception as exc:
        log.warning("batch %s: its archive %s is kept for now: %s", batch_id, object_key, exc)
        return False
    return True


def archive_gone(env: WorkerEnv, batch_id: uuid.UUID) -> None:
    """Before a batch is finished: its archive is deleted (it is unpacked or failed by
    now). A store error propagates: the batch is not finished, and is claimed again."""
    with env.db.read_session() as session:
        batch = session.get(Batch, batch_id)
        assert batch is not None
        settled, object_key = batch.unpack_state != UnpackState.PENDING, batch.object_key
    if settled:
        env.store.delete(object_key)


def _store_answers(env: WorkerEnv, batch: BatchInfo) -> bool:
    """Whether the store works and holds the archive: then an unpack that could not
    read it failed by the archive's own doing, not the store's."""
    try:
        env.store.ping()
        return env.store.exists(batch.object_key)
    except Exception:
        return False


def _ask(env: WorkerEnv, batch: BatchInfo, limits: ArchiveLimits) -> UnpackReport | str:
    """The reading process's report, or why the unpack failed (charged to the batch)."""
    future = env.executor.submit(
        str(batch.company_id),
        unpack_in_child,
        env.store,
        batch.id,
        batch.object_key,
        limits,
        batch.source_type,
    )
    try:
        report: UnpackReport = future.result()
    except (CancelledError, ReaderUnavailable):
        raise  # a shutdown, or no reading process could start: not the archive's doing
    except ReaderStopped as stopped:
        return f"it stopped its process: {stopped}"
    except Exception as exc:
        log.exception("batch %s: unpacking failed", batch.id)
        return f"{type(exc).__name__}: {exc}"
    if report.unavailable is not None and _store_answers(env, batch):
        return report.unavailable  # the store works: the archive made the read fail
    return report


def _report(env: WorkerEnv, batch: BatchInfo) -> UnpackReport | None:
    """Unpack in a reading process; None once the batch is settled (it failed for good:
    its unpack failed or died MAX_CRASHES times, or its archive is gone)."""
    limits, missing = _limits(env), 0
    while True:
        report = _ask(env, batch, limits)
        if isinstance(report, str):
            if _charge(env, batch, report):
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
            _fail_batch(env, batch, FailureCode.PROCESSING_FAILED.value, message)
            return None
        time.sleep(MISSING_PAUSE_SECONDS)


def _charge(env: WorkerEnv, batch: BatchInfo, why: str) -> bool:
    """Count a failed or dead unpack against the batch; True once the batch is settled
    (failed at MAX_CRASHES, or no longer pending)."""
    log.error("batch %s: unpacking failed: %s", batch.id, why)
    with env.db.session() as session:
        crashes = work_repo.charge_batch_crash(session, batch.id)
        session.commit()
    if crashes is None:
        return True
    if crashes < work_repo.MAX_CRASHES:
        return False
    _give_up(env, batch, f"Unpacking the archive failed {crashes} times (the last: {why})")
    return True


def _give_up(env: WorkerEnv, batch: BatchInfo, why: str) -> None:
    _fail_batch(env, batch, FailureCode.PROCESSING_FAILED.value, f"{why}; nothing of it was read.")


def _give_back(env: WorkerEnv, batch: BatchInfo, why: str) -> ServiceUnavailable:
    """The store is away: the claim is not counted; the batch waits for its lease."""
    with env.db.session() as session:
        work_repo.give_back_batch_take(session, batch.id)
        session.commit()
    return ServiceUnavailable(f"batch {batch.id}: {why}")


DMARC_FAILED = "dmarc_failed"


def _refused_by_dmarc(env: WorkerEnv, batch: BatchInfo, head: MessageHead) -> bool:
    """A message that failed DMARC, for a company that refuses such mail: its batch
    fails (error code dmarc_failed) with its sender and subject recorded, nothing kept."""
    if not dmarc_failed(head.authentication_results):
        return False
    with env.db.session() as session:
        company = session.get(Company, batch.company_id)
        refuses = company is not None and company.refuse_dmarc_fail
        if refuses:
            work_repo.record_message_head(session, batch.id, head)
            session.commit()
    if not refuses:
        return False
    message = (
        "The message failed DMARC (its Authentication-Results say dmarc=fail) and the"
        " company refuses such mail; nothing of it was read."
    )
    _fail_batch(env, batch, DMARC_FAILED, message)
    return True


def unpack(env: WorkerEnv, batch: BatchInfo) -> int:
    """Create one upload per document in the archive; returns how many were created."""
    if batch.unpack_state != UnpackState.PENDING:
        return 0
    if batch.attempts > work_repo.MAX_TAKES:
        _give_up(env, batch, f"Unpacking the archive was started {batch.attempts - 1} times")
        return 0
    report = _report(env, batch)
    if report is None:
        return 0
    if report.unavailable is not None:
        raise _give_back(env, batch, report.unavailable)
    if report.rejected is not None:
        log.warning("batch %s refused while unpacking: %s", batch.id, report.rejected.message)
        _fail_batch(env, batch, report.rejected.problem.value, report.rejected.message)
        return 0
    if report.head is not None and _refused_by_dmarc(env, batch, report.head):
        return 0
    with env.db.session() as session:
        if work_repo.pending_batch(session, batch.id) is None:
            log.warning("batch %s was settled by another worker meanwhile", batch.id)
            return 0
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
        if report.head is not None:
            work_repo.record_message_head(session, batch.id, report.head)
        session.commit()
    log.info("batch %s: unpacked %d files", batch.id, len(report.entries))
    drop_archive(env.store, batch.object_key, batch.id)
    return len(report.entries)

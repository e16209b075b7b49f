"""The pipeline's steps as plain functions over storage (no Prefect here): read one
claimed upload, book its result or failure, keep leases alive, recover dead workers'
work. Prefect tasks and flows (flows/pipeline.py) are thin wrappers around these."""

from __future__ import annotations

import logging
import pickle
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import timedelta

from sqlalchemy.exc import DBAPIError

from flows import vat_confirm
from flows.executor import DocumentExecutor, FetchTimedOut, ReaderKilled, WorkerLost
from flows.jobs import Booked, Job, JobEnd
from flows.reader_process import StoreTrouble
from flows.recorder import Recorder
from flows.turns import ReadingTurns
from processors.base import (
    CompanyProfile,
    DocumentType,
    Failure,
    FailureCode,
    Outcome,
    ProcessingContext,
    Reading,
    ResultType,
)
from storage.db import Database
from storage.errors import ServiceUnavailable
from storage.idempotency import reusable_result
from storage.models import utcnow
from storage.objectstore import ObjectStore
from storage.repositories import results as result_repo
from storage.repositories import work as work_repo
from storage.settings import Settings
from storage.states import UploadStatus

log = logging.getLogger(__name__)

INFRASTRUCTURE_ERRORS = (DBAPIError, ServiceUnavailable, OSError)
PROFILE_CACHE_SECONDS = 10.0


@dataclass
class WorkerEnv:
    """What a worker process shares between its flows: connections, the process pool,
    its identity and the uploads in hand (whose leases its heartbeat extends)."""

    settings: Settings
    db: Database
    store: ObjectStore
    executor: DocumentExecutor
    owner: str
    lease: timedelta
    in_hand: set[uuid.UUID] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock)
    profiles: dict[uuid.UUID, tuple[float, CompanyProfile]] = field(default_factory=dict)
    turns: ReadingTurns = field(default_factory=ReadingTurns)
    recorder: Recorder = field(init=False)

    def __post_init__(self) -> None:
        self.recorder = Recorder(self.db, self.owner, self.executor.backlogged)

    @property
    def pickled_store(self) -> bytes:
        """The store as reading processes get it (they make their own connections)."""
        return pickle.dumps(self.store)

    def hold(self, upload_ids: list[uuid.UUID]) -> None:
        with self.lock:
            self.in_hand.update(upload_ids)

    def drop(self, upload_id: uuid.UUID) -> None:
        with self.lock:
            self.in_hand.discard(upload_id)

    def held(self) -> list[uuid.UUID]:
        with self.lock:
            return list(self.in_hand)


def claim(env: WorkerEnv, limit: int, batch_id: uuid.UUID | None = None) -> list[Job]:
    with env.db.session() as session:
        uploads = work_repo.claim_uploads(session, env.owner, limit, env.lease, batch_id)
        booked = result_repo.live_results_for_contents(
            session, {(upload.company_id, upload.sha256) for upload in uploads}
        )
        jobs = [Job.of(u, _reusable(booked, u)) for u in uploads]
        session.commit()
    env.hold([job.upload_id for job in jobs])
    return jobs


def _reusable(
    booked: dict[tuple[uuid.UUID, str], list[result_repo.LiveResult]],
    upload: work_repo.ClaimedUpload,
) -> Booked | None:
    """The result booked for the upload's content that it may complete with unread."""
    live = booked.get((upload.company_id, upload.sha256), [])
    result = reusable_result(live, upload.document_type)
    return (result.id, ResultType(result.type)) if result is not None else None


def _company_profile(env: WorkerEnv, company_id: uuid.UUID) -> CompanyProfile:
    """Master data, cached for a few seconds: read for every document otherwise."""
    now = time.monotonic()
    with env.lock:
        cached = env.profiles.get(company_id)
    if cached is not None and now - cached[0] < PROFILE_CACHE_SECONDS:
        return cached[1]
    with env.db.standalone_reads() as session:
        company = result_repo.company_of(session, company_id)
    profile = CompanyProfile(
        name=company.name if company else "",
        vat_ids=tuple(company.vat_ids) if company else (),
        tax_number=company.tax_number if company else None,
        ibans=tuple(company.ibans) if company else (),
    )
    with env.lock:
        env.profiles[company_id] = (now, profile)
    return profile


def _context(env: WorkerEnv, job: Job) -> ProcessingContext:
    profile = _company_profile(env, job.company_id)
    return ProcessingContext(
        DocumentType(job.document_type), job.file_name, profile, env.settings.ocr_command
    )


class StoreAway(ServiceUnavailable):
    """The object store did not hand over the upload's bytes (away, too slow, or an
    error such as AccessDenied): the company's uploads wait, and nobody is blamed."""


def _release(env: WorkerEnv, job: Job, store_away: bool = False) -> None:
    """Give the upload back uncharged; after store trouble its company waits too."""
    try:
        with env.db.session() as session:
            upload = work_repo.held_upload(session, job.upload_id, env.owner)
            if upload is not None:
                work_repo.release_upload(session, upload)
            if store_away:
                seconds = work_repo.wait_for_the_store(session, job.company_id, utcnow())
                log.warning("company %s waits %g s for the object store", job.company_id, seconds)
            session.commit()
    except INFRASTRUCTURE_ERRORS:
        log.warning("upload %s: could not release; its lease will expire", job.upload_id)


def _charge_crash(env: WorkerEnv, job: Job, lost: WorkerLost) -> JobEnd:
    """Its reading process crashed: this upload alone is charged (others in flight were
    in other processes and go on)."""
    log.error("upload %s (%s): its reading process died: %s", job.upload_id, job.file_name, lost)
    try:
        with env.db.session() as session:
            upload = work_repo.held_upload(session, job.upload_id, env.owner)
            failed = upload is not None and work_repo.charge_crash(session, upload, str(lost))
            session.commit()
    except INFRASTRUCTURE_ERRORS:
        log.warning("upload %s: could not record the crash; its lease will expire", job.upload_id)
        return JobEnd(job, None)
    if failed:
        return JobEnd(job, UploadStatus.FAILED, failure=FailureCode.PROCESSING_FAILED)
    return JobEnd(job, UploadStatus.QUEUED)


MISSING_TRIES = 3
MISSING_PAUSE_SECONDS = 1.0

_NOT_KEPT = Failure(FailureCode.PROCESSING_FAILED, "The file's bytes were not kept; send it again.")
_MISSING = Failure(
    FailureCode.PROCESSING_FAILED, "The file's stored bytes are missing; send it again."
)


class ResultSkew(ReaderKilled):
    """A reading process sent a result of another version than this process's code makes
    (it runs other code): not the document's doing; the upload is given back."""


def _read(env: WorkerEnv, job: Job) -> Reading:
    """Read the upload in a reading process, which fetches its bytes itself. A store
    that says, several times, that the bytes are gone fails the upload; any other store
    trouble raises StoreAway (the upload is given back and its company waits)."""
    if job.object_key is None:
        return _NOT_KEPT
    context, lane = _context(env, job), str(job.company_id)
    for tries in range(1, MISSING_TRIES + 1):
        try:
            answer = env.executor.read_stored(env.pickled_store, job.object_key, context, lane)
        except FetchTimedOut as slow:
            raise StoreAway(str(slow)) from slow
        if isinstance(answer, Outcome) and not answer.current:
            raise ResultSkew(
                f"{answer.result_type} version {answer.version} from a reading process"
            )
        if not isinstance(answer, StoreTrouble):
            return answer
        if not answer.missing:
            raise StoreAway(answer.message)
        log.error(
            "upload %s: its stored file is missing (try %d of %d): %s",
            job.upload_id,
            tries,
            MISSING_TRIES,
            answer.message,
        )
        if tries < MISSING_TRIES:
            time.sleep(MISSING_PAUSE_SECONDS)
    return _MISSING


def run_job(env: WorkerEnv, job: Job) -> JobEnd:
    """Read one claimed upload and record what came of it. Infrastructure trouble, and a
    reading process that died before the document was in its hands or in a shutdown,
    give the upload back (it stays queued); only the document itself can fail it: over
    a limit, or its reading process dying twice while reading it."""
    log.info("upload %s (%s): reading", job.upload_id, job.file_name)
    try:
        duplicate = env.recorder.record_duplicate(job) if job.booked else None
        if duplicate is not None:
            log.info("upload %s: same content as result %s", job.upload_id, job.booked)
            return duplicate
        end = env.recorder.record(job, _read(env, job))
        log.info("%s", end)
        if end.result is not None and end.result[1] is ResultType.INVOICE:
            vat_confirm.confirm_quietly(env.db, env.settings, end.result[0])
        return end
    except WorkerLost as lost:
        return _charge_crash(env, job, lost)
    except (ReaderKilled, *INFRASTRUCTURE_ERRORS) as exc:
        log.warning("upload %s: given back, not charged: %s", job.upload_id, exc)
        _release(env, job, store_away=isinstance(exc, StoreAway))
        return JobEnd(job, UploadStatus.QUEUED)
    finally:
        env.drop(job.upload_id)


def heartbeat(env: WorkerEnv) -> None:
    """Extend the leases of every upload in hand."""
    with env.db.session() as session:
        work_repo.extend_upload_leases(session, env.owner, env.held(), env.lease)
        session.commit()


def recover_singles(env: WorkerEnv) -> tuple[int, int]:
    with env.db.session() as session:
        counts = work_repo.recover_expired_uploads(session, utcnow())
        session.commit()
    return counts

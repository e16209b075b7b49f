"""The pipeline's steps as plain functions over storage (no Prefect here): read one
claimed upload, book its result or failure, keep leases alive, recover dead workers'
work. Prefect tasks and flows (flows/pipeline.py) are thin wrappers around these."""

from __future__ import annotations

import logging
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import timedelta

from sqlalchemy.exc import DBAPIError

from flows.executor import DocumentExecutor, ReadOutcome, WorkerLost
from processors.base import CompanyProfile, DocumentType, FailureCode, ProcessingContext
from storage.db import Database
from storage.errors import ServiceUnavailable
from storage.models import Upload, utcnow
from storage.objectstore import ObjectStore
from storage.repositories import results as result_repo
from storage.repositories import work as work_repo
from storage.settings import Settings

log = logging.getLogger(__name__)

INFRASTRUCTURE_ERRORS = (DBAPIError, ServiceUnavailable, OSError)
PROFILE_CACHE_SECONDS = 10.0


@dataclass(frozen=True, slots=True)
class Job:
    """A claimed upload, detached from the session that claimed it."""

    upload_id: uuid.UUID
    company_id: uuid.UUID
    batch_id: uuid.UUID | None
    file_name: str
    document_type: str
    sha256: str
    object_key: str | None

    @classmethod
    def of(cls, upload: Upload) -> Job:
        return cls(
            upload.id,
            upload.company_id,
            upload.batch_id,
            upload.file_name,
            upload.document_type,
            upload.sha256,
            upload.object_key,
        )


@dataclass(frozen=True, slots=True)
class JobResult:
    upload_id: uuid.UUID
    file_name: str
    status: str
    result_id: uuid.UUID | None = None
    result_type: str | None = None
    error_code: str | None = None
    cpu_seconds: float = 0.0

    def __str__(self) -> str:
        outcome = self.error_code or self.result_type or ""
        return f"upload {self.upload_id} ({self.file_name}): {self.status} {outcome}".rstrip()


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
        jobs = [Job.of(upload) for upload in uploads]
        session.commit()
    env.hold([job.upload_id for job in jobs])
    return jobs


def _company_profile(env: WorkerEnv, company_id: uuid.UUID) -> CompanyProfile:
    """Master data, cached for a few seconds: read for every document otherwise."""
    now = time.monotonic()
    with env.lock:
        cached = env.profiles.get(company_id)
    if cached is not None and now - cached[0] < PROFILE_CACHE_SECONDS:
        return cached[1]
    with env.db.read_session() as session:
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


def _booked_result(env: WorkerEnv, job: Job) -> tuple[uuid.UUID, str] | None:
    """The result of the same content, if this company already has one."""
    with env.db.read_session() as session:
        existing = result_repo.live_result_for_content(session, job.company_id, job.sha256)
        return (existing.id, existing.type) if existing else None


def _record(env: WorkerEnv, job: Job, outcome: ReadOutcome) -> JobResult:
    with env.db.session() as session:
        upload = work_repo.held_upload(session, job.upload_id, env.owner)
        if upload is None:
            log.warning("upload %s: lease lost, another worker has it", job.upload_id)
            return JobResult(job.upload_id, job.file_name, "lost")
        if outcome.succeeded:
            assert outcome.result_type is not None
            result = result_repo.book_result(
                session, job.company_id, job.sha256, outcome.result_type, outcome.data
            )
            work_repo.complete_upload(session, upload, result.id)
            session.commit()
            return JobResult(
                job.upload_id,
                job.file_name,
                "completed",
                result.id,
                result.type,
                cpu_seconds=outcome.cpu_seconds,
            )
        code = FailureCode(outcome.failure_code or FailureCode.PROCESSING_FAILED)
        work_repo.fail_upload(
            session, upload, code, outcome.failure_message or "", outcome.failure_details
        )
        session.commit()
    return JobResult(
        job.upload_id,
        job.file_name,
        "failed",
        error_code=code.value,
        cpu_seconds=outcome.cpu_seconds,
    )


def _release(env: WorkerEnv, job: Job) -> None:
    try:
        with env.db.session() as session:
            upload = work_repo.held_upload(session, job.upload_id, env.owner)
            if upload is not None:
                work_repo.release_upload(session, upload)
                session.commit()
    except INFRASTRUCTURE_ERRORS:
        log.warning("upload %s: could not release; its lease will expire", job.upload_id)


def run_job(env: WorkerEnv, job: Job) -> JobResult:
    """Read one claimed upload and record what came of it. Infrastructure trouble gives
    the upload back (it stays queued); only the document itself can fail it."""
    log.info("upload %s (%s): reading", job.upload_id, job.file_name)
    try:
        booked = _booked_result(env, job)
        duplicate = _record_duplicate(env, job, *booked) if booked else None
        if duplicate is not None:
            return duplicate
        if job.object_key is None:
            outcome = ReadOutcome(
                failure_code=FailureCode.PROCESSING_FAILED.value,
                failure_message="The file's bytes were not kept.",
            )
        else:
            data = env.store.read_bytes(job.object_key)
            outcome = env.executor.read(data, _context(env, job))
        result = _record(env, job, outcome)
        log.info("upload %s: %s %s", job.upload_id, result.status, result.error_code or "")
        return result
    except WorkerLost:
        log.error(
            "upload %s: its worker process died; the lease will hand it out again", job.upload_id
        )
        return JobResult(job.upload_id, job.file_name, "lost")
    except INFRASTRUCTURE_ERRORS as exc:
        log.warning("upload %s: infrastructure error, given back: %s", job.upload_id, exc)
        _release(env, job)
        return JobResult(job.upload_id, job.file_name, "released")
    finally:
        env.drop(job.upload_id)


def _record_duplicate(
    env: WorkerEnv, job: Job, result_id: uuid.UUID, result_type: str
) -> JobResult | None:
    """The same content was booked before: complete with the original's result. None
    when that result was deleted meanwhile: the document is then read anew."""
    with env.db.session() as session:
        upload = work_repo.held_upload(session, job.upload_id, env.owner)
        if upload is None:
            return JobResult(job.upload_id, job.file_name, "lost")
        if result_repo.lock_live_result(session, result_id) is None:
            return None
        work_repo.complete_upload(session, upload, result_id)
        session.commit()
    log.info("upload %s: same content as result %s; not booked again", job.upload_id, result_id)
    return JobResult(job.upload_id, job.file_name, "completed", result_id, result_type)


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

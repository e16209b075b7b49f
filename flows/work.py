"""The pipeline's steps as plain functions over storage (no Prefect here): claim
uploads, keep leases alive, recover dead workers' work; reading one claimed upload and
booking what came of it is flows/job_runs.py. Prefect flows (flows/pipeline.py) are
thin wrappers around these."""

from __future__ import annotations

import logging
import pickle
import threading
import uuid
from dataclasses import dataclass, field
from datetime import timedelta

from flows.executor import DocumentExecutor
from flows.job_runs import INFRASTRUCTURE_ERRORS, MISSING_PAUSE_SECONDS, MISSING_TRIES, run_job
from flows.jobs import Booked, Job
from flows.recorder import Recorder
from flows.turns import ReadingTurns
from processors.base import CompanyProfile, ResultType
from storage.db import Database
from storage.idempotency import reusable_result
from storage.models import utcnow
from storage.objectstore import ObjectStore
from storage.repositories import results as result_repo
from storage.repositories import work as work_repo
from storage.settings import Settings

__all__ = [
    "INFRASTRUCTURE_ERRORS",
    "MISSING_PAUSE_SECONDS",
    "MISSING_TRIES",
    "WorkerEnv",
    "claim",
    "heartbeat",
    "recover_singles",
    "run_job",
]

log = logging.getLogger(__name__)


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

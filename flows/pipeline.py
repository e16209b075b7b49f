"""Prefect flows and thin tasks. The work itself is in flows/work.py and flows/unpack.py.

- `process-batch` (run name `batch-<id>`, tags company and document type): unpack the
  archive (the batch loop starts that as it claims the batch, `unpacking_ahead`, so it
  overlaps the run's creation), read its files (several in flight per reading process),
  keep a progress artifact current every few seconds, end with a table artifact keyed
  `batch-<id>` and the batch's partitions of the status tables. Every step is a step of
  the flow, not a task run of its own: a task run costs several Prefect API calls and
  server events and its engine's CPU in this process (docs/throughput.md).
- `process-uploads` (run name `uploads-<time>`): a drain window for single uploads. It
  keeps claiming queued single uploads until the queue has been idle for a while, so a
  flow run's fixed cost (about a second here) is paid per window, not per upload.
"""

from __future__ import annotations

import logging
import math
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, as_completed, wait
from contextlib import contextmanager
from typing import Any

from prefect import flow, get_run_logger
from prefect.artifacts import (
    create_progress_artifact,
    create_table_artifact,
    update_progress_artifact,
)

from flows import runtime
from flows.jobs import Job, JobEnd
from flows.unpack import BatchInfo, archive_gone, unpack
from flows.work import WorkerEnv, claim, recover_singles, run_job
from storage.links import result_url
from storage.models import Batch, utcnow
from storage.repositories import work as work_repo
from storage.repositories.upload_views import batch_views


def _unpack(batch_id: uuid.UUID) -> int:
    env = runtime.current()
    with env.db.read_session() as session:
        batch = session.get(Batch, batch_id)
        assert batch is not None
        info = BatchInfo.of(batch)
    return unpack(env, info)


log = logging.getLogger(__name__)
_ahead = ThreadPoolExecutor(max_workers=4, thread_name_prefix="unpack-ahead")
_unpacking: dict[uuid.UUID, Future[int]] = {}
_unpacking_lock = threading.Lock()


@contextmanager
def unpacking_ahead(batch: BatchInfo) -> Iterator[None]:
    """Unpack a claimed batch while its flow run is being created and started (about
    0.2 s of Prefect API calls on an idle stack, docs/throughput.md); `process-batch`
    takes the outcome instead of unpacking itself. Waits for the unpack on the way out,
    so the batch is never unpacked twice at once. `batch` is the row as the claim read
    it: it is not read again."""
    batch_id = batch.id
    future = _ahead.submit(unpack, runtime.current(), batch)
    with _unpacking_lock:
        _unpacking[batch_id] = future
    try:
        yield
    finally:
        with _unpacking_lock:
            untaken = _unpacking.pop(batch_id, None)
        if untaken is not None and (error := untaken.exception()) is not None:
            log.warning("batch %s: unpacked ahead of a run that did not start: %s", batch_id, error)


def _unpacked(batch_id: uuid.UUID) -> int:
    with _unpacking_lock:
        ahead = _unpacking.pop(batch_id, None)
    return ahead.result() if ahead is not None else _unpack(batch_id)


class _ResultLog:
    """Log lines of read files, sent as one record about once a second (a record per
    file would cost a millisecond each in this process and in the Prefect server)."""

    def __init__(self, logger: Any, every_seconds: float = 1.0) -> None:
        self.logger = logger
        self.every_seconds = every_seconds
        self.lines: list[str] = []
        self.sent_at = time.monotonic()

    def add(self, result: JobEnd) -> None:
        self.lines.append(str(result))
        if time.monotonic() - self.sent_at >= self.every_seconds:
            self.flush()

    def flush(self) -> None:
        if self.lines:
            self.logger.info("read %d files:\n%s", len(self.lines), "\n".join(self.lines))
        self.lines, self.sent_at = [], time.monotonic()


# Jobs in flight per reading process. A job spends part of its wall time waiting on the
# object store and on its outcome's commit, so a process stays fed only when several
# of its jobs are in flight.
JOBS_PER_PROCESS = 8
PROGRESS_EVERY_SECONDS = 5.0


def _files_in_flight(env: WorkerEnv) -> int:
    """Files a batch or a drain window keeps in the readers' hands at once."""
    return env.executor.processes * JOBS_PER_PROCESS


class _Progress:
    """The batch's progress artifact, updated every few seconds when the batch moved on.
    Each update is an event in the Prefect server (about 60% of its events when it was
    sent every second). It is made at its first showing: a batch read within
    PROGRESS_EVERY_SECONDS makes it once, at 100%, instead of at 0% and again at 100%."""

    def __init__(self, batch_id: uuid.UUID) -> None:
        self.artifact: uuid.UUID | None = None
        self.batch_id = batch_id
        self.shown_at = time.monotonic()
        self.finished, self.total = self._counted()
        self.shown = self.finished
        env = runtime.current()
        self.turns, self.in_flight = env.turns, _files_in_flight(env)
        self._give_back_turn_when_near_the_end()

    def _counted(self) -> tuple[int, int]:
        with runtime.current().db.read_session() as session:
            return work_repo.batch_progress(session, self.batch_id)

    def recount(self) -> bool:
        """From the database (other workers may have read some); whether all are done."""
        self.finished, self.total = self._counted()
        return self.finished >= self.total

    def advance(self) -> None:
        self.finished += 1
        self._give_back_turn_when_near_the_end()
        if time.monotonic() - self.shown_at >= PROGRESS_EVERY_SECONDS:
            self.show()

    def _give_back_turn_when_near_the_end(self) -> None:
        """Once every document left is in the readers' hands, the next batch may start
        (flows/turns.py)."""
        if self.total - self.finished <= self.in_flight:
            self.turns.give_back(self.batch_id)

    def show(self, percent: float | None = None) -> None:
        if percent is None and self.finished == self.shown:
            return
        value = 100.0 * self.finished / max(self.total, 1) if percent is None else percent
        if self.artifact is None:
            artifact = create_progress_artifact(value, description=f"batch {self.batch_id}")
            assert isinstance(artifact, uuid.UUID)  # the sync API returns the id itself
            self.artifact = artifact
        else:
            update_progress_artifact(self.artifact, value)
        self.shown, self.shown_at = self.finished, time.monotonic()


def _read_files(jobs: list[Job], progress: _Progress) -> list[JobEnd]:
    """Read the claimed files of a batch, several per reading process in flight; one log
    record at the end, with a line per file (upload id, name, outcome)."""
    env = runtime.current()
    slots = _files_in_flight(env)
    results = []
    with ThreadPoolExecutor(slots, thread_name_prefix="read") as pool:
        for future in as_completed([pool.submit(run_job, env, job) for job in jobs]):
            results.append(future.result())
            progress.advance()
    log = _ResultLog(get_run_logger(), every_seconds=math.inf)
    for result in results:
        log.add(result)
    log.flush()
    return results


def _recover_batch(batch_id: uuid.UUID) -> None:
    env = runtime.current()
    with env.db.session() as session:
        work_repo.recover_expired_uploads(session, utcnow(), batch_id)
        session.commit()


def _batch_rows(batch_id: uuid.UUID) -> list[dict[str, Any]]:
    env = runtime.current()
    base = env.settings.public_base_url.rstrip("/")
    with env.db.read_session() as session:
        views = batch_views(session, batch_id)
    return [
        {
            "file": view.file_name,
            "upload": str(view.id),
            "status": view.status,
            "result": (
                result_url(base, view.result_type, view.result_id)
                if view.result_id and view.result_type
                else ""
            ),
            "error": view.error_code or "",
        }
        for view in views
    ]


@flow(name="process-batch", flow_run_name="batch-{batch_id}")
def process_batch(batch_id: str) -> dict[str, int]:
    """Unpack, then read; another worker's files (its lease not yet
    expired) are taken over when they come free."""
    logger = get_run_logger()
    env = runtime.current()
    key = uuid.UUID(batch_id)
    logger.info("batch %s: %d files unpacked", batch_id, _unpacked(key))
    progress = _Progress(key)
    while True:
        _recover_batch(key)
        jobs = claim(env, limit=10_000, batch_id=key)
        if jobs:
            _read_files(jobs, progress)
        elif progress.recount():
            break
        else:
            time.sleep(1.0)  # another worker's lease has not expired yet
    progress.show(100.0)
    rows = _batch_rows(key)
    create_table_artifact(rows, key=f"batch-{batch_id}", description=f"Uploads of batch {batch_id}")
    archive_gone(env, key)
    with env.db.session() as session:
        work_repo.finish_batch(session, key, env.owner)
        session.commit()
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["status"]] = counts.get(row["status"], 0) + 1
    return counts


@flow(name="process-uploads", flow_run_name="uploads-{window}")
def process_uploads(window: str, idle_seconds: float = 3.0, max_seconds: float = 120.0) -> int:
    """Drain single uploads until the queue has been idle for `idle_seconds`. Claims
    are made when half the slots are free (or none is in flight): one transaction
    for several uploads, while the other half keeps the reading processes busy."""
    env = runtime.current()
    slots = _files_in_flight(env)
    started = last_busy = time.monotonic()
    finished = 0
    in_flight: set[Future[JobEnd]] = set()
    results = _ResultLog(get_run_logger())
    with ThreadPoolExecutor(slots, thread_name_prefix="upload") as pool:
        while True:
            now = time.monotonic()
            free = slots - len(in_flight)
            wanted = free >= slots // 2 or not in_flight
            jobs = claim(env, free) if wanted and now - started < max_seconds else []
            in_flight.update(pool.submit(run_job, env, job) for job in jobs)
            if in_flight:
                last_busy = now
                done, in_flight = wait(in_flight, timeout=0.1, return_when=FIRST_COMPLETED)
                for future in done:
                    results.add(future.result())
                    finished += 1
                continue
            results.flush()
            if now - last_busy > idle_seconds or now - started >= max_seconds:
                break
            time.sleep(0.1)
    results.flush()
    recover_singles(env)
    return finished

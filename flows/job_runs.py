"""A claimed upload's way through the worker, without a thread of its own: each step is
a callback of the step before, in the thread that finished it.

    start_job (the flow's thread) -> the reading processes' dispatcher (flows/executor.py)
    -> the recorder's writer thread (flows/recorder.py) -> the job's future

So a document passes the reading process and two threads of this process: the
dispatcher that hands it over and reads the answer, and the writer that books it.
Infrastructure trouble, and a reading process that died before the document was in its
hands or in a shutdown, give the upload back (it stays queued); only the document
itself can fail it: over a limit, or its reading process dying twice while reading it.
Writes beside the booking (a crash charged, an upload given back) run in the writer
thread too (`Recorder.run_soon`); the online VAT confirmation, which waits on a
service, in a thread of its own, started only where it is switched on.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import DBAPIError

from flows import vat_confirm
from flows.executor import FetchTimedOut, OverLimit, ReaderKilled, WorkerLost
from flows.jobs import Job, JobEnd
from flows.reader_process import StoreTrouble, read_stored_in_child
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
from storage.errors import ServiceUnavailable
from storage.models import utcnow
from storage.repositories import results as result_repo
from storage.repositories import work as work_repo
from storage.states import UploadStatus

if TYPE_CHECKING:
    from flows.work import WorkerEnv

log = logging.getLogger(__name__)

INFRASTRUCTURE_ERRORS = (DBAPIError, ServiceUnavailable, OSError)
PROFILE_CACHE_SECONDS = 10.0
MISSING_TRIES = 3
MISSING_PAUSE_SECONDS = 1.0

_NOT_KEPT = Failure(FailureCode.PROCESSING_FAILED, "The file's bytes were not kept; send it again.")
_MISSING = Failure(
    FailureCode.PROCESSING_FAILED, "The file's stored bytes are missing; send it again."
)
# Online VAT confirmations (flows/vat_confirm.py), outside the booking's thread.
_confirming = ThreadPoolExecutor(max_workers=1, thread_name_prefix="vat-confirm")


class StoreAway(ServiceUnavailable):
    """The object store did not hand over the upload's bytes (away, too slow, or an
    error such as AccessDenied): the company's uploads wait, and nobody is blamed."""


class ResultSkew(ReaderKilled):
    """A reading process sent a result of another version than this process's code makes
    (it runs other code): not the document's doing; the upload is given back."""


def start_job(env: WorkerEnv, job: Job) -> Future[JobEnd]:
    """Start reading one claimed upload; the future says what came of it."""
    return _JobRun(env, job).start()


def run_job(env: WorkerEnv, job: Job) -> JobEnd:
    """Read one claimed upload and record what came of it; returns once it is booked."""
    return start_job(env, job).result()


class InFlight:
    """Jobs started with `start_job`, at most `limit` at once; the others wait here and
    start as ends come in (in the thread that ended a job: no thread waits per job).
    `on_end` is told each end there (it must not block); the caller's thread sleeps in
    `wait` until what it waits for holds."""

    def __init__(
        self, env: WorkerEnv, limit: int, on_end: Callable[[JobEnd], None] | None = None
    ) -> None:
        self.env, self.limit, self.on_end = env, limit, on_end
        self._changed = threading.Condition()
        self._waiting: deque[Job] = deque()
        self._running = 0
        self._ends: list[JobEnd] = []
        self._errors: list[BaseException] = []
        self._filling = threading.local()

    def __len__(self) -> int:
        with self._changed:
            return self._running + len(self._waiting)

    def add(self, jobs: Iterable[Job]) -> None:
        with self._changed:
            self._waiting.extend(jobs)
        self._fill()

    def _fill(self) -> None:
        if getattr(self._filling, "on", False):  # a job that ended at once, inside a start
            return
        self._filling.on = True
        try:
            while True:
                with self._changed:
                    if not self._waiting or self._running >= self.limit:
                        return
                    job = self._waiting.popleft()
                    self._running += 1
                start_job(self.env, job).add_done_callback(self._ended)
        finally:
            self._filling.on = False

    def _ended(self, future: Future[JobEnd]) -> None:
        error = future.exception()
        if error is None and self.on_end is not None:
            try:
                self.on_end(future.result())
            except Exception:
                log.exception("a job's end was not taken in")
        with self._changed:
            self._running -= 1
            if error is None:
                self._ends.append(future.result())
            else:
                self._errors.append(error)
            self._changed.notify_all()
        self._fill()

    def wait(self, until: Callable[[int, int], bool], timeout: float) -> list[JobEnd]:
        """Sleep until `until(jobs left, ends not yet taken)` holds or `timeout` passes;
        the ends since the last call. A job that failed unexpectedly raises here."""
        with self._changed:
            self._changed.wait_for(
                lambda: (
                    bool(self._errors) or until(self._running + len(self._waiting), len(self._ends))
                ),
                timeout,
            )
            if self._errors:
                raise self._errors[0]
            ends, self._ends = self._ends, []
            return ends


class _JobRun:
    def __init__(self, env: WorkerEnv, job: Job) -> None:
        self.env, self.job = env, job
        self.done: Future[JobEnd] = Future()
        self.context: ProcessingContext | None = None
        self.tries = 0

    def start(self) -> Future[JobEnd]:
        log.info("upload %s (%s): reading", self.job.upload_id, self.job.file_name)
        if self.job.booked:
            self.env.recorder.record_soon(self.job, None, self._after_duplicate)
        else:
            self._guarded(self._read)
        return self.done

    def _guarded(self, step: Callable[..., None], *args: Any) -> None:
        try:
            step(*args)
        except BaseException as exc:
            self._trouble(exc)

    def _after_duplicate(self, end: JobEnd | None, error: BaseException | None) -> None:
        """In the writer thread: completed with the result booked before, or read anew
        (that result was deleted meanwhile)."""
        if error is not None:
            self._trouble(error)
        elif end is not None:
            log.info("upload %s: same content as result %s", self.job.upload_id, self.job.booked)
            self._end(end)
        else:
            self._guarded(self._read)

    def _read(self) -> None:
        """Into the fair queue of the reading processes; the process fetches the bytes."""
        job, env = self.job, self.env
        if job.object_key is None:
            self._record(_NOT_KEPT)
            return
        if self.context is None:
            self.context = _context(env, job)
        self.tries += 1
        future = env.executor.submit(
            str(job.company_id),
            read_stored_in_child,
            env.pickled_store,
            job.object_key,
            self.context,
            env.executor.limits,
        )
        future.add_done_callback(lambda answered: self._guarded(self._answered, answered))

    def _answered(self, future: Future[Reading | StoreTrouble]) -> None:
        """In the dispatcher thread: the reading process's answer. A store that says,
        several times, that the bytes are gone fails the upload; any other store trouble
        raises StoreAway (the upload is given back and its company waits)."""
        try:
            answer = future.result()
        except OverLimit as over:
            log.error("document over a limit: %s", over)
            answer = Failure(FailureCode.PROCESSING_FAILED, str(over))
        except FetchTimedOut as slow:
            raise StoreAway(str(slow)) from slow
        if isinstance(answer, Outcome) and not answer.current:
            raise ResultSkew(
                f"{answer.result_type} version {answer.version} from a reading process"
            )
        if isinstance(answer, StoreTrouble):
            if not answer.missing:
                raise StoreAway(answer.message)
            log.error(
                "upload %s: its stored file is missing (try %d of %d): %s",
                self.job.upload_id,
                self.tries,
                MISSING_TRIES,
                answer.message,
            )
            if self.tries < MISSING_TRIES:
                again = lambda: self._guarded(self._read)  # noqa: E731
                self.env.executor.call_later(MISSING_PAUSE_SECONDS, again)
                return
            answer = _MISSING
        self._record(answer)

    def _record(self, reading: Reading) -> None:
        self.env.recorder.record_soon(self.job, reading, self._recorded)

    def _recorded(self, end: JobEnd | None, error: BaseException | None) -> None:
        """In the writer thread, once the outcome is committed."""
        if error is not None:
            self._trouble(error)
            return
        assert end is not None
        log.info("%s", end)
        if (
            end.result is not None
            and end.result[1] is ResultType.INVOICE
            and vat_confirm.enabled(self.env.settings)
        ):
            env, result_id = self.env, end.result[0]
            confirmed = _confirming.submit(
                vat_confirm.confirm_quietly, env.db, env.settings, result_id
            )
            confirmed.add_done_callback(lambda _: self._end(end))
            return
        self._end(end)

    def _trouble(self, exc: BaseException) -> None:
        """Any thread: the upload charged (its reading process died in its hands) or
        given back uncharged, in the writer thread; anything else is the caller's."""
        env, job = self.env, self.job
        if isinstance(exc, WorkerLost):
            env.recorder.run_soon(lambda: self._end_with(lambda: _charge_crash(env, job, exc)))
        elif isinstance(exc, (ReaderKilled, *INFRASTRUCTURE_ERRORS)):
            log.warning("upload %s: given back, not charged: %s", job.upload_id, exc)
            away = isinstance(exc, StoreAway)
            env.recorder.run_soon(lambda: self._end_with(lambda: _given_back(env, job, away)))
        else:
            env.drop(job.upload_id)
            self.done.set_exception(exc)

    def _end_with(self, chore: Callable[[], JobEnd]) -> None:
        try:
            end = chore()
        except BaseException as exc:
            self.env.drop(self.job.upload_id)
            self.done.set_exception(exc)
            return
        self._end(end)

    def _end(self, end: JobEnd) -> None:
        self.env.drop(self.job.upload_id)
        self.done.set_result(end)


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


def _given_back(env: WorkerEnv, job: Job, store_away: bool) -> JobEnd:
    _release(env, job, store_away)
    return JobEnd(job, UploadStatus.QUEUED)


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

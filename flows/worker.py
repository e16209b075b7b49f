"""The pipeline worker: the `serve-queue` flow that the dispatcher starts through the
`docintake` work pool, and `docintake worker`, the same loops run directly.

Loops share one process pool: single uploads (drain windows), batches (one flow run
each, two reading at a time: flows/turns.py) and a heartbeat that extends the leases of
the work in hand. Run as many workers as you like, on as many machines: every claim is
atomic in the database.
Infrastructure trouble (database or object store away) makes a loop back off and try
again; nothing is failed for it.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import math
import os
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from prefect import flow, get_run_logger, tags
from prefect.client.orchestration import get_client
from prefect.context import FlowRunContext

from flows import runtime
from flows.dispatch import WARM_TAG
from flows.export import export_when_changed
from flows.pipeline import process_batch, process_uploads, unpacking_ahead
from flows.prefect_tls import share_tls_contexts
from flows.turns import BATCH_LOOPS
from flows.unpack import BatchInfo
from flows.wakeup import Wakeup
from flows.work import INFRASTRUCTURE_ERRORS, WorkerEnv, heartbeat, recover_singles
from processors.ocr import ocr_available
from storage.models import utcnow
from storage.repositories import work as work_repo
from storage.work_news import BATCH, SINGLE, WorkListener, can_listen, concerns, hears

log = logging.getLogger(__name__)

IDLE_POLL_SECONDS = 0.1
# While new work is announced (storage/work_news.py), polling only finds what no one
# announces: leases of workers that died, batches whose holder stopped.
ANNOUNCED_POLL_SECONDS = 1.0
RECOVERY_EVERY_SECONDS = 5.0
MAX_BACKOFF_SECONDS = 10.0
# Logged by a `serve-queue` run once its reading processes are warm; `make run`
# (scripts/run-stack.sh) waits for it in the Prefect worker's log before the API starts.
READERS_WARM = "reading processes warm"
# A reading process that is not ready within executor.START_SECONDS (a machine at load
# 20 on 2 cores) is stopped; the warm-up tries again this often before the run serves
# without saying it is warm (then the dispatcher judges it by its age).
WARM_UP_ATTEMPTS = 2


def _guarded(
    name: str,
    stop: threading.Event,
    step: Callable[[], bool],
    wakeup: Wakeup,
    poll_seconds: Callable[[], float],
) -> None:
    """Run `step` until stopped; it returns True when it did work. Errors back off."""
    backoff = 0.5
    while not stop.is_set():
        seen = wakeup.seen()
        try:
            busy = step()
            backoff = 0.5
        except INFRASTRUCTURE_ERRORS as exc:
            log.warning("%s: dependency unavailable (%s); retrying in %.1f s", name, exc, backoff)
            stop.wait(backoff)
            backoff = min(backoff * 2, MAX_BACKOFF_SECONDS)
            continue
        except Exception:
            log.exception("%s: unexpected error", name)
            stop.wait(backoff)
            backoff = min(backoff * 2, MAX_BACKOFF_SECONDS)
            continue
        if not busy:
            wakeup.sleep(poll_seconds(), seen)


class WorkProbe:
    """What waits in the queue, by kind (`SINGLE`, `BATCH`), asked of the database at
    most once per poll interval however many loops ask (the singles loop and each batch
    loop used to ask on their own, ten times a second each). News of a kind answers for
    that kind without asking; the other kind's answer keeps its own age, so a stream of
    news of one kind never hides work of the other that nobody announced (a batch whose
    holder died)."""

    def __init__(
        self, env: WorkerEnv, poll_seconds: Callable[[], float] = lambda: IDLE_POLL_SECONDS
    ) -> None:
        """`poll_seconds`: the loops' poll interval now (longer while news is heard)."""
        self.env = env
        self.poll_seconds = poll_seconds
        self._lock = threading.Lock()
        self._asked_at = {SINGLE: -math.inf, BATCH: -math.inf}
        self._answers = {SINGLE: False, BATCH: False}

    def waits(self, kind: str) -> bool:
        with self._lock:
            if time.monotonic() - self._asked_at[kind] >= self.poll_seconds():
                with self.env.db.standalone_reads() as session:
                    found = work_repo.waiting_work(session, utcnow())
                self._answers = {SINGLE: found.singles, BATCH: found.batch}
                self._asked_at = dict.fromkeys(self._asked_at, time.monotonic())
            return self._answers[kind]

    def heard(self, kind: str) -> None:
        """News of new work of this kind; text of any other kind forgets both answers."""
        with self._lock:
            if kind in self._answers:
                self._answers[kind], self._asked_at[kind] = True, time.monotonic()
            else:
                self._asked_at = dict.fromkeys(self._asked_at, -math.inf)

    def forget(self) -> None:
        """After a claim: the next loop to ask sees the queue as it is now."""
        with self._lock:
            self._asked_at = dict.fromkeys(self._asked_at, -math.inf)


class Worker:
    def __init__(self, env: WorkerEnv) -> None:
        self.env = env
        self.probe = WorkProbe(env, self.poll_seconds)
        self.stop = threading.Event()
        self.batches_in_hand: set[uuid.UUID] = set()
        self._batches_lock = threading.Lock()
        # When a claim last found no batch of a company not holding all its turns, and
        # the batch news seen by then (`_may_claim`).
        self._missed_others = (-math.inf, 0)
        self._last_recovery = 0.0
        self.last_busy = time.monotonic()
        self.wakeups = {SINGLE: Wakeup(), BATCH: Wakeup()}
        self.listener: WorkListener | None = None
        self._tables_at = time.monotonic()

    def _news(self, kind: str) -> None:
        """Wake the loops that take this kind of work; all of them for a kind this
        version does not know (news from a sender of another version), none for news
        that is not the pipeline's (webhook deliveries)."""
        if not concerns(kind, (SINGLE, BATCH)):
            return
        self.probe.heard(kind)
        for woken in [self.wakeups[kind]] if kind in self.wakeups else self.wakeups.values():
            woken.wake()

    def poll_seconds(self) -> float:
        return ANNOUNCED_POLL_SECONDS if hears(self.listener) else IDLE_POLL_SECONDS

    def singles_step(self) -> bool:
        now = time.monotonic()
        if now - self._last_recovery > RECOVERY_EVERY_SECONDS:
            recover_singles(self.env)
            self._last_recovery = now
        if not self.probe.waits(SINGLE):
            return False
        self.last_busy = time.monotonic()
        with tags("single-uploads"):
            process_uploads(window=utcnow().strftime("%Y-%m-%dT%H:%M:%SZ"))
        self.last_busy = time.monotonic()
        return True

    def batch_step(self) -> bool:
        """Claim a batch when a reading turn is free (flows/turns.py) and one waits, and
        process it; the batch gives its turn back before its flow run ends. While every
        turn is taken the loop waits for one without asking the database."""
        turns = self.env.turns
        if not turns.take(timeout=IDLE_POLL_SECONDS):
            return True  # every turn is taken: wait again at once
        try:
            full = turns.full()
            claimed = self._claim_batch(full) if self._may_claim(full) else None
        except BaseException:
            turns.give_back()
            raise
        if claimed is None:
            turns.give_back()
            return False
        batch_id = claimed.id
        turns.hold(batch_id, claimed.company_id)
        with self._batches_lock:
            self.batches_in_hand.add(batch_id)
        self.last_busy = time.monotonic()
        try:
            with (
                unpacking_ahead(claimed),
                tags(
                    "batch",
                    f"company:{claimed.company_id}",
                    f"document-type:{claimed.document_type}",
                ),
            ):
                process_batch(str(batch_id))
        finally:
            turns.give_back(batch_id)
            with self._batches_lock:
                self.batches_in_hand.discard(batch_id)
            self.last_busy = time.monotonic()
        return True

    def _may_claim(self, full: frozenset[uuid.UUID]) -> bool:
        """Whether a batch waits that this loop may claim. While some companies hold
        every turn they may, the batches that wait may all be theirs: after a claim
        that found none of another company's, the loops ask again only on news of a
        batch or once every ANNOUNCED_POLL_SECONDS."""
        if not self.probe.waits(BATCH):
            return False
        with self._batches_lock:
            missed_at, news = self._missed_others
        recent = time.monotonic() - missed_at < ANNOUNCED_POLL_SECONDS
        return not (full and recent and self.wakeups[BATCH].seen() == news)

    def _claim_batch(self, full: frozenset[uuid.UUID] = frozenset()) -> BatchInfo | None:
        news = self.wakeups[BATCH].seen()
        with self.env.db.session() as session:
            batch = work_repo.claim_batch(session, self.env.owner, self.env.lease, full)
            claimed = BatchInfo.of(batch) if batch else None
            session.commit()
        self.probe.forget()
        if claimed is None and full:
            with self._batches_lock:
                self._missed_others = (time.monotonic(), news)
        return claimed

    def heartbeat_step(self) -> bool:
        heartbeat(self.env)
        with self._batches_lock:
            batches = sorted(self.batches_in_hand)
        if batches:
            with self.env.db.session() as session:
                for batch_id in batches:
                    work_repo.extend_batch_lease(session, batch_id, self.env.owner, self.env.lease)
                session.commit()
        self.stop.wait(self.env.lease.total_seconds() / 3)
        return True

    def tables_step(self) -> bool:
        """The status tables every DOCINTAKE_TABLES_EXPORT_INTERVAL_SECONDS while this
        run serves the queue, counted from the start of the last export (docs/tables.md:
        a batch is in the tables within 60 s of its end). A tick that finds nothing
        changed starts no flow run."""
        interval = self.env.settings.tables_export_interval_seconds
        self.stop.wait(max(0.0, self._tables_at + interval - time.monotonic()))
        if not self.stop.is_set():
            self._tables_at = time.monotonic()
            export_when_changed(self.env)
        return True

    def last_tables_export(self) -> None:
        """A run that ends on its own exports what its last minute changed: the next
        run may start only when new work comes."""
        try:
            export_when_changed(self.env)
        except Exception:
            log.warning("status tables not exported at the end of the run", exc_info=True)

    def _finished(
        self, started: float, idle_seconds: float | None, max_seconds: float | None
    ) -> bool:
        now = time.monotonic()
        working = bool(self.batches_in_hand) or bool(self.env.held())
        idle = not working and idle_seconds is not None and now - self.last_busy > idle_seconds
        # Past its time a run hands over between two pieces of work, never in the middle.
        over = not working and max_seconds is not None and now - started > max_seconds
        return idle or over

    def run(self, idle_seconds: float | None = None, max_seconds: float | None = None) -> None:
        """Run the loops until stopped, or until idle for `idle_seconds` / past
        `max_seconds` (the `serve-queue` flow's bounds; `docintake worker` has none).
        Every reading process is started and warm before the first claim: the first
        document waits for no process start (tests/flows/test_warm_up.py)."""
        self.env.executor.warm_up()
        self.last_busy = time.monotonic()  # idle time counts from when the loops can claim
        # name -> (step, the wakeup of the kind of work it takes)
        loops = {
            "singles": (self.singles_step, self.wakeups[SINGLE]),
            **{
                f"batches-{n + 1}": (self.batch_step, self.wakeups[BATCH])
                for n in range(BATCH_LOOPS)
            },
            "heartbeat": (self.heartbeat_step, Wakeup()),  # never idle: waits on `stop`
        }
        if self.env.settings.tables_export_interval_seconds > 0:
            loops["tables"] = (self.tables_step, Wakeup())
        # Each loop runs in a copy of this context, so the flows it starts are child runs
        # of the `serve-queue` run in the Prefect UI.
        threads = [
            threading.Thread(
                target=contextvars.copy_context().run,
                args=(_guarded, name, self.stop, step, wakeup, self.poll_seconds),
                name=name,
                daemon=True,
            )
            for name, (step, wakeup) in loops.items()
        ]
        if can_listen(self.env.db.engine):
            self.listener = WorkListener(self.env.db.engine, self._news).start()
        started = self._tables_at = time.monotonic()
        for thread in threads:
            thread.start()
        ended = False
        try:
            while any(thread.is_alive() for thread in threads):
                if ended := self._finished(started, idle_seconds, max_seconds):
                    break
                self.stop.wait(0.5)
        finally:
            self.stop.set()
            for wakeup in self.wakeups.values():
                wakeup.wake()
            if self.listener is not None:
                self.listener.stop()
            for thread in threads:
                thread.join(timeout=30)
        if ended and "tables" in loops:
            self.last_tables_export()


# A pipeline process is throughput work; the API on the same machine is latency work.
# Its reading processes add executor.READER_NICENESS on top of this.
PIPELINE_NICENESS = 5


def yield_to_the_api() -> None:
    """Lower this process's priority (before the reading processes start: they inherit
    it), so requests to the API get a busy machine's CPU first. Where sessions are
    autogroups (Linux's default on many machines), a process's niceness weighs only
    against its own session, and sessions share the CPU by their autogroup's niceness:
    that is lowered too when the session is this process's own (a flow run's is; a
    terminal's is left alone)."""
    os.nice(PIPELINE_NICENESS)
    if os.getsid(0) == os.getpid():
        with contextlib.suppress(OSError):
            Path("/proc/self/autogroup").write_text(str(PIPELINE_NICENESS))


def warn_without_ocr(command: str) -> str | None:
    """One warning at start-up when scanned PDFs cannot be read (docs/ocr.md)."""
    problem = ocr_available(command)
    if problem is not None:
        log.warning("%s Scanned PDFs fail with processing_failed until it is installed.", problem)
    return problem


def start(processes: int | None = None) -> Worker:
    """A worker for `docintake worker`; its reading processes warm up in `run`."""
    from storage.settings import get_settings

    yield_to_the_api()
    share_tls_contexts()
    warn_without_ocr(get_settings().ocr_command)
    env = runtime.build_env(get_settings(), processes)
    runtime.install(env)
    return Worker(env)


def _say_warm() -> None:
    """Tag this flow run warm for the dispatcher (flows/dispatch.py, WARM_TAG): until then
    it does not count a slow warm-up as a run that stopped serving."""
    context = FlowRunContext.get()
    run = context.flow_run if context is not None else None
    if run is None:
        return
    try:
        with get_client(sync_client=True) as client:
            client.update_flow_run(run.id, tags=[*run.tags, WARM_TAG])
    except Exception:  # the dispatcher then goes by the run's age, as before
        log.warning("could not tag the run warm", exc_info=True)


@flow(name="serve-queue", flow_run_name="serve-queue-{label}")
def serve_queue(label: str = "manual") -> None:
    """A pipeline run started by the dispatcher through the `docintake` work pool: warm
    up one reading process per core, then claim and read queued work until idle.

    The process start and warm-up (several seconds) are paid once per busy period, not
    per upload or batch; batches and drain windows run as child flow runs."""
    from storage.settings import get_settings

    settings = get_settings()
    yield_to_the_api()
    share_tls_contexts()
    warn_without_ocr(settings.ocr_command)
    env = runtime.current()
    logger = get_run_logger()
    started = time.monotonic()
    for _ in range(WARM_UP_ATTEMPTS):  # Worker.run warms too; here to say when it is done
        env.executor.warm_up()
        up = len(env.executor.reader_pids())
        if up == env.executor.processes + 1:  # the express process too (executor.py)
            logger.info("%s: %d in %.1f s", READERS_WARM, up, time.monotonic() - started)
            _say_warm()
            break
        logger.warning("only %d reading processes started; trying again", up)
    logger.info("serving the queue as %s", env.owner)
    Worker(env).run(settings.pipeline_run_idle_seconds, settings.pipeline_run_max_seconds)

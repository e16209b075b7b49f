"""Runs the pure processors on every core: one reading process per slot
(flows/reader_process.py, kernel limits on memory and CPU), fed from one fair queue.

Each slot is a thread of this process that owns one reading process and hands it one
request at a time, so when a reading process dies the parent knows exactly which
request it was serving: that request alone is told, the other slots go on, and the
slot starts a new process. Limits, from the request's point of view:
- a Python-level time limit inside the child (the document fails `processing_failed`);
- a hard wall-clock limit here: a request not answered within the limit plus a grace
  period has its process killed (code stuck in C);
- the kernel's CPU-time limit (SIGXCPU) and memory limits inside the child.
The clock starts when the request's bytes are in the process (`IN_HAND`): a request
that fetches them from the object store first is not timed while it waits for the
store (at most FETCH_SECONDS).
Over a time or CPU limit is the request's own deterministic fault (`OverLimit`). A
process that died while the request was in its hands (`WorkerLost`: a crash in C, an
abort, a SIGKILL from the OOM killer) may be the request's doing: the caller counts it
and gives up when it happens again. A process that died before the request was in its
hands (killed while idle, or while fetching), or in a shutdown (SIGTERM, SIGINT, the
executor closing), is not (`ReaderKilled`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from flows.fair_queue import FairQueue
from flows.reader_process import (
    IN_HAND,
    READER_NICENESS,
    READY,
    TOO_BIG_TO_RECEIVE,
    ReaderLimits,
    StoreTrouble,
    cpu_message,
    memory_message,
    read_in_child,
    read_stored_in_child,
    serve,
    time_message,
)
from processors.base import Failure, FailureCode, ProcessingContext, Reading

log = logging.getLogger(__name__)

HARD_LIMIT_GRACE_SECONDS = 10.0
# Imported once by the forkserver, so every reading process forked from it starts with
# them instead of importing them itself (about 1.6 s of CPU per process, 0.6 s of it on
# its first archive); see `_preloaded`.
READER_MODULES = ("flows.reader_process", "flows.unpack")
START_SECONDS = 180.0  # a new reading process compiles every artefact first
# How long a request may take to have its bytes in hand (a fetch from the object store:
# the client gives up on a dead store in seconds, a 50 MiB object at 1 MiB/s takes 50 s).
FETCH_SECONDS = 300.0
# Deaths in a shutdown: a terminal's Ctrl-C or a service manager stopping the group.
SHUTDOWN_SIGNALS = frozenset({signal.SIGTERM, signal.SIGINT})


class ReaderStopped(Exception):
    """The reading process did not answer the request."""


class OverLimit(ReaderStopped):
    """The request ran past its time, CPU or memory limit and its process was ended;
    the message says which, in words for the upload's error."""


class WorkerLost(ReaderStopped):
    """The process died while the request was in its hands (any signal but a
    shutdown's, or an exit code): possibly the document's doing."""


class ReaderKilled(ReaderStopped):
    """The process died before the request was in its hands, or in a shutdown: not the
    request's doing."""


class FetchTimedOut(ReaderKilled):
    """The request's bytes were not in its process within FETCH_SECONDS (a slow or stuck
    object store); the process was ended."""


class ReaderUnavailable(OSError):
    """No reading process could be started: the machine's trouble, not the request's."""


@dataclass(frozen=True, slots=True)
class _Request:
    lane: str
    call: Callable[..., Any]
    args: tuple[Any, ...]
    future: Future[Any]


class _Slot:
    """One reading process, started on demand and replaced when it dies."""

    def __init__(
        self,
        limits: ReaderLimits,
        niceness: int,
        compile_rules: bool,
        closing: threading.Event | None = None,
    ) -> None:
        """`closing`: set when the executor shuts down; a death after it is not charged."""
        self.limits = limits
        self.closing = closing or threading.Event()
        self.niceness = niceness
        self.compile_rules = compile_rules
        self.process: BaseProcess | None = None
        self.conn: Connection | None = None
        self.in_hand = False  # a request's bytes are in the process now
        # Warm-up, the slot's own thread and shutdown may all start or stop the process.
        self._starting = threading.RLock()

    def ensure_started(self) -> Connection:
        with self._starting:
            if self.process is not None and self.conn is not None and self.process.is_alive():
                return self.conn
            return self._start()

    def _start(self) -> Connection:
        self.stop()
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(_preloaded())
        mine, theirs = context.Pipe()
        process = context.Process(
            target=serve,
            args=(theirs, self.limits, self.niceness, self.compile_rules),
            daemon=True,
        )
        process.start()
        theirs.close()
        try:
            ready = mine.poll(START_SECONDS) and mine.recv() == READY
        except (EOFError, OSError):
            ready = False
        if not ready:
            mine.close()
            process.kill()
            process.join(timeout=10)
            raise ReaderUnavailable("a reading process did not start")
        self.process, self.conn = process, mine  # from now on it serves (and has a pid)
        return mine

    def ask(self, call: Callable[..., Any], args: tuple[Any, ...], limits: ReaderLimits) -> Any:
        """Send one request and wait for its answer: up to FETCH_SECONDS until its bytes
        are in hand, then at most the time limit and a grace period; `limits` are the
        executor's as of this request."""
        conn = self.ensure_started()
        # OSError: the process stopped receiving (it died, or the request did not fit);
        # what it said before, or its exit code, tells which.
        with contextlib.suppress(OSError):
            conn.send((call, args))
        reply = self._receive(conn, limits, in_hand=False)
        if reply == IN_HAND:
            self.in_hand = True
            try:
                reply = self._receive(conn, limits, in_hand=True)
            finally:
                self.in_hand = False
        answer, retiring = reply
        if retiring:
            self.stop()
        if answer == TOO_BIG_TO_RECEIVE:
            raise OverLimit(memory_message(limits))
        return answer

    def _receive(self, conn: Connection, limits: ReaderLimits, in_hand: bool) -> Any:
        timeout = limits.time_limit + HARD_LIMIT_GRACE_SECONDS if in_hand else FETCH_SECONDS
        if not conn.poll(timeout):
            self.stop()
            if in_hand:
                raise OverLimit(time_message(limits))
            raise FetchTimedOut(f"the request's bytes were not in hand within {timeout:g} s")
        try:
            return conn.recv()
        except (EOFError, OSError):
            raise self._death(limits, in_hand) from None

    def _death(self, limits: ReaderLimits, in_hand: bool) -> ReaderStopped:
        """What the death of the process serving a request means for the request."""
        code = self._reap()
        how = "was killed (SIGKILL)" if code == -signal.SIGKILL else f"died (exit code {code})"
        if self.closing.is_set() or (code is not None and -code in SHUTDOWN_SIGNALS):
            return ReaderKilled(f"the reading process {how} in a shutdown")
        if not in_hand:
            return ReaderKilled(f"the reading process {how} before the request was in its hands")
        if code == -signal.SIGXCPU:
            return OverLimit(cpu_message(limits))
        return WorkerLost(f"the reading process {how}")

    def _reap(self) -> int | None:
        process = self.process
        self.stop()
        return process.exitcode if process is not None else None

    def stop(self) -> None:
        with self._starting:
            process, conn = self.process, self.conn
            self.process = self.conn = None
        if conn is not None:
            conn.close()
        if process is not None:
            if process.is_alive():
                process.kill()
            process.join(timeout=10)

    def pid(self) -> int | None:
        """The serving process's pid, once it is warmed up."""
        process = self.process
        return process.pid if process is not None else None


def _preloaded() -> list[str]:
    """The reading processes' modules and this process's main module: multiprocessing
    runs the main module again in every child (as `__mp_main__`), which costs a flow-run
    process's child the import of Prefect unless its forkserver holds it already."""
    main = getattr(getattr(sys.modules["__main__"], "__spec__", None), "name", None)
    if main is None or main.endswith("__main__"):  # children do not run these again
        return list(READER_MODULES)
    return [*READER_MODULES, main]


class DocumentExecutor:
    def __init__(
        self,
        processes: int | None = None,
        time_limit: float = 60.0,
        limits: ReaderLimits | None = None,
        niceness: int = READER_NICENESS,
        compile_rules: bool = True,
    ) -> None:
        """`compile_rules=False`: a reading process compiles each validation artefact on
        first use instead of all of them when it starts (settings: reader_warm_up)."""
        self.processes = processes or os.cpu_count() or 1
        self.limits = limits or ReaderLimits(
            time_limit=time_limit, cpu_seconds=time_limit + HARD_LIMIT_GRACE_SECONDS
        )
        self._queue: FairQueue[_Request] = FairQueue()
        self._unanswered = 0
        self._unanswered_lock = threading.Lock()
        self._closing = threading.Event()
        # One slot per process, and the express slot last (fair_queue.py): it reads only
        # for a company with nothing in flight while every other slot is busy.
        self._slots = [
            _Slot(self.limits, niceness, compile_rules, self._closing)
            for _ in range(self.processes + 1)
        ]
        self._threads = [
            threading.Thread(
                target=self._serve,
                args=(slot, n == self.processes),
                name="reader-express" if n == self.processes else f"reader-{n}",
                daemon=True,
            )
            for n, slot in enumerate(self._slots)
        ]
        for thread in self._threads:
            thread.start()

    def warm_up(self) -> None:
        """Start every reading process now (each compiles the rules)."""
        starters = [threading.Thread(target=self._start, args=(slot,)) for slot in self._slots]
        for starter in starters:
            starter.start()
        for starter in starters:
            starter.join()

    @staticmethod
    def _start(slot: _Slot) -> None:
        try:
            slot.ensure_started()
        except ReaderUnavailable as exc:  # its first request tries again
            log.warning("warm-up: %s", exc)

    def submit(self, lane: str, call: Callable[..., Any], *args: Any) -> Future[Any]:
        """Run `call(*args)` in a reading process; lanes (companies) take turns."""
        future: Future[Any] = Future()
        with self._unanswered_lock:
            self._unanswered += 1
        self._queue.put(lane, _Request(lane, call, args, future))
        return future

    def _answered(self, lane: str | None = None) -> None:
        """Before the answer is set: whoever it wakes sees the executor as it is. `lane`:
        the request's, once a slot took it."""
        with self._unanswered_lock:
            self._unanswered -= 1
        if lane is not None:
            self._queue.done(lane)

    def backlogged(self) -> bool:
        """Whether requests wait for a reading process: every process is busy and more
        are queued, so answers follow each other at the full rate."""
        with self._unanswered_lock:
            return self._unanswered > self.processes

    def read(self, data: bytes, context: ProcessingContext, lane: str = "") -> Reading:
        """Read one document. Raises WorkerLost if its process died while reading it,
        ReaderKilled if it died before (idle) or in a shutdown."""
        reading: Reading = self._answer(
            self.submit(lane, read_in_child, data, context, self.limits)
        )
        return reading

    def read_stored(
        self, pickled_store: bytes, key: str, context: ProcessingContext, lane: str = ""
    ) -> Reading | StoreTrouble:
        """Read one stored document, fetched by the reading process itself."""
        call = read_stored_in_child
        answer: Reading | StoreTrouble = self._answer(
            self.submit(lane, call, pickled_store, key, context, self.limits)
        )
        return answer

    @staticmethod
    def _answer(future: Future[Any]) -> Any:
        try:
            return future.result()
        except OverLimit as over:
            log.error("document over a limit: %s", over)
            return Failure(FailureCode.PROCESSING_FAILED, str(over))

    @property
    def time_limit(self) -> float:
        return self.limits.time_limit

    @time_limit.setter
    def time_limit(self, seconds: float) -> None:
        """From the next request on (the kernel's CPU limit stays what it was)."""
        self.limits = dataclasses.replace(self.limits, time_limit=seconds)

    def reader_pids(self) -> list[int]:
        return [pid for slot in self._slots if (pid := slot.pid()) is not None]

    def reading_pids(self) -> list[int]:
        """The processes with a request in hand (reading a document) now."""
        return [pid for slot in self._slots if slot.in_hand and (pid := slot.pid()) is not None]

    def _serve(self, slot: _Slot, express: bool) -> None:
        while (taken := self._queue.get(newcomers_only=express)) is not None:
            _, request = taken
            if not request.future.set_running_or_notify_cancel():
                self._answered(request.lane)
                continue
            answer: Any = None
            error: BaseException | None = None
            try:
                answer = slot.ask(request.call, request.args, self.limits)
            except BaseException as exc:
                error = exc
            self._answered(request.lane)
            if error is None:
                request.future.set_result(answer)
            else:
                request.future.set_exception(error)
        slot.stop()

    def shutdown(self) -> None:
        self._closing.set()
        for request in self._queue.close():
            self._answered()
            request.future.cancel()
        for thread in self._threads:
            thread.join(timeout=30)

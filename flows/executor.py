"""Runs the pure processors on every core: one reading process per slot
(flows/reader_process.py, kernel limits on memory and CPU), fed from one fair queue by
one dispatcher thread.

The dispatcher is the only thread of this process that talks to the reading
processes: it waits on all of their pipes at once (a selector), hands each free process
the next request of the fair queue, reads what comes back, and settles the request's
future, whose callbacks run right there (flows/job_runs.py hands the answer on to the
recorder). One request at a time per process, so when a process dies the dispatcher
knows exactly which request it was serving: that request alone is told, the other
processes go on, and the slot starts a new process. Limits, from the request's view:
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
import heapq
import itertools
import logging
import math
import os
import selectors
import socket
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from flows.fair_queue import FairQueue
from flows.reader_process import (
    IN_HAND,
    READER_NICENESS,
    READY,
    TOO_BIG_TO_RECEIVE,
    ReaderLimits,
    StoreTrouble,
    memory_message,
    read_in_child,
    read_stored_in_child,
)
from flows.reader_slots import (
    HARD_LIMIT_GRACE_SECONDS,
    FetchTimedOut,
    OverLimit,
    ReaderKilled,
    ReaderStopped,
    ReaderUnavailable,
    Request,
    Slot,
    WorkerLost,
)
from processors.base import Failure, FailureCode, ProcessingContext, Reading

__all__ = [
    "DocumentExecutor",
    "FetchTimedOut",
    "OverLimit",
    "ReaderKilled",
    "ReaderStopped",
    "ReaderUnavailable",
    "WorkerLost",
]

log = logging.getLogger(__name__)


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
        self._queue: FairQueue[Request] = FairQueue()
        self._unanswered = 0
        self._unanswered_lock = threading.Lock()
        self._closing = threading.Event()
        # One slot per process, and the express slot last (fair_queue.py): it reads only
        # for a company with nothing in flight while every other slot is busy.
        self._slots = [
            Slot(self.limits, niceness, compile_rules) for _ in range(self.processes + 1)
        ]
        self._selector = selectors.DefaultSelector()
        # Other threads wake the dispatcher with a byte (a socket: once closed, a late
        # wake fails on its own instead of writing to a file descriptor used anew).
        self._wake_read, self._wake_write = socket.socketpair()
        self._wake_read.setblocking(False)
        self._wake_write.setblocking(False)
        self._selector.register(self._wake_read, selectors.EVENT_READ, None)
        self._woken = False
        # Calls for the dispatcher from other threads, and timers (when, order, call).
        self._calls: list[Callable[[], None]] = []
        self._calls_lock = threading.Lock()
        self._timers: list[tuple[float, int, Callable[[], None]]] = []
        self._order = itertools.count()
        self._warmers: list[threading.Event] = []
        self._thread = threading.Thread(target=self._dispatch, name="reader-dispatch", daemon=True)
        self._thread.start()

    # --- asked from any thread --------------------------------------------------------

    def warm_up(self) -> None:
        """Start every reading process now (each compiles the rules); returns once each
        is warm or failed to start."""
        warm = threading.Event()
        self._call(lambda: self._warm_up(warm))
        while not warm.wait(1.0):
            if not self._thread.is_alive():
                return

    def submit(self, lane: str, call: Callable[..., Any], *args: Any) -> Future[Any]:
        """Run `call(*args)` in a reading process; lanes (companies) take turns. The
        future's callbacks run in the dispatcher thread: they must not block."""
        future: Future[Any] = Future()
        with self._unanswered_lock:
            self._unanswered += 1
        self._queue.put(lane, Request(lane, call, args, future))
        self._wake()
        return future

    def call_later(self, seconds: float, call: Callable[[], None]) -> None:
        """Run `call` in the dispatcher thread after `seconds` (a retry's pause)."""
        when = time.monotonic() + seconds
        self._call(lambda: heapq.heappush(self._timers, (when, next(self._order), call)))

    def backlogged(self) -> bool:
        """Whether requests wait for a reading process: every process is busy and more
        are queued, so answers follow each other at the full rate."""
        with self._unanswered_lock:
            return self._unanswered > self.processes

    def read(self, data: bytes, context: ProcessingContext, lane: str = "") -> Reading:
        """Read one document. Raises WorkerLost if its process died while reading it,
        ReaderKilled if it died before (idle) or in a shutdown."""
        future = self.submit(lane, read_in_child, data, context, self.limits)
        reading: Reading = self._answer(future)
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

    def shutdown(self) -> None:
        """Cancel what waits; requests in hand are answered first (up to 30 s)."""
        self._closing.set()
        for request in self._queue.close():
            self._answered()
            request.future.cancel()
        self._wake()
        self._thread.join(timeout=30)

    def _call(self, call: Callable[[], None]) -> None:
        with self._calls_lock:
            self._calls.append(call)
        self._wake()

    def _wake(self) -> None:
        if not self._woken:
            self._woken = True
            with contextlib.suppress(OSError):  # full, it wakes anyway; closed, it ended
                self._wake_write.send(b"!")

    def _answered(self, lane: str | None = None) -> None:
        """Before the answer is set: whoever it wakes sees the executor as it is. `lane`:
        the request's, once a slot took it."""
        with self._unanswered_lock:
            self._unanswered -= 1
        if lane is not None:
            self._queue.done(lane)

    # --- the dispatcher thread --------------------------------------------------------

    def _dispatch(self) -> None:
        try:
            while not (self._closing.is_set() and not any(slot.busy for slot in self._slots)):
                try:
                    self._turn()
                except Exception:  # one slot's trouble must not stop every request
                    log.exception("the reading processes' dispatcher")
                    time.sleep(0.1)
        finally:
            for slot in self._slots:
                self._stop(slot)
            for warmer in self._warmers:
                warmer.set()
            self._selector.close()
            self._wake_read.close()
            self._wake_write.close()

    def _turn(self) -> None:
        self._run_calls()
        self._assign()
        self._settle_warmers()
        for key, _ in self._selector.select(self._timeout()):
            if key.data is None:
                self._woken = False
                with contextlib.suppress(OSError):
                    self._wake_read.recv(4096)
            else:
                self._readable(key.data)
        self._expire()

    def _run_calls(self) -> None:
        with self._calls_lock:
            calls, self._calls = self._calls, []
        for call in calls:
            call()

    def _timeout(self) -> float | None:
        nearest = min([slot.deadline for slot in self._slots] + [math.inf])
        if self._timers:
            nearest = min(nearest, self._timers[0][0])
        if self._closing.is_set():
            nearest = min(nearest, time.monotonic() + 0.1)
        return None if nearest == math.inf else max(0.0, nearest - time.monotonic())

    def _assign(self) -> None:
        """Free ordinary slots take the queue's next requests; the express slot only a
        newcomer's, and only while every ordinary slot is busy."""
        *ordinary, express = self._slots
        for slot in ordinary:
            if not slot.busy and not self._take(slot, newcomers_only=False):
                return
        if not express.busy:
            self._take(express, newcomers_only=True)

    def _take(self, slot: Slot, newcomers_only: bool) -> bool:
        """Whether a request was taken (or cancelled on the way)."""
        taken = self._queue.poll(newcomers_only)
        if taken is None:
            return False
        _, request = taken
        if not request.future.set_running_or_notify_cancel():
            self._answered(request.lane)
            return True
        if slot.ready and slot.alive():
            slot.send(request, self.limits)
        elif (slot.alive() and slot.conn is not None) or self._start(slot):
            slot.request = request  # sent once the process says it is ready
        else:
            self._settle(request, error=ReaderUnavailable("a reading process did not start"))
        return True

    def _start(self, slot: Slot) -> bool:
        self._stop(slot)
        try:
            conn = slot.start()
        except OSError as exc:
            log.warning("a reading process did not start: %s", exc)
            return False
        self._selector.register(conn, selectors.EVENT_READ, slot)
        return True

    def _stop(self, slot: Slot) -> None:
        if slot.conn is not None:
            self._selector.unregister(slot.conn)
        slot.stop()

    def _readable(self, slot: Slot) -> None:
        assert slot.conn is not None
        try:
            message = slot.conn.recv()
        except (EOFError, OSError):
            self._died(slot)
            return
        if not slot.ready:
            if message == READY:
                slot.ready, slot.deadline = True, math.inf
                if (request := slot.take_request()) is not None:
                    slot.send(request, self.limits)
            else:
                self._not_started(slot)
        elif message == IN_HAND:
            slot.got_in_hand()
        else:
            answer, retiring = message
            if retiring:
                self._stop(slot)
            if answer == TOO_BIG_TO_RECEIVE:
                self._finish(slot, error=OverLimit(memory_message(slot.limits)))
            else:
                self._finish(slot, answer=answer)

    def _died(self, slot: Slot) -> None:
        if not slot.ready:
            self._not_started(slot)
            return
        if slot.conn is not None:
            self._selector.unregister(slot.conn)
        if slot.busy:
            self._finish(slot, error=slot.death(self._closing.is_set()))
        else:  # died while idle: the next request starts a new one
            slot.reap()

    def _not_started(self, slot: Slot) -> None:
        self._stop(slot)
        request = slot.take_request()
        if request is not None:
            self._settle(request, error=ReaderUnavailable("a reading process did not start"))
        else:
            log.warning("warm-up: a reading process did not start")

    def _expire(self) -> None:
        now = time.monotonic()
        while self._timers and self._timers[0][0] <= now:
            heapq.heappop(self._timers)[2]()
        for slot in self._slots:
            if slot.deadline > now:
                continue
            if not slot.ready:
                self._not_started(slot)
            elif slot.busy:
                error = slot.expired()
                self._stop(slot)
                self._finish(slot, error=error)

    def _finish(self, slot: Slot, answer: Any = None, error: BaseException | None = None) -> None:
        request = slot.take_request()
        if request is not None:
            self._settle(request, answer, error)

    def _settle(
        self, request: Request, answer: Any = None, error: BaseException | None = None
    ) -> None:
        self._answered(request.lane)
        if error is None:
            request.future.set_result(answer)
        else:
            request.future.set_exception(error)

    def _warm_up(self, warm: threading.Event) -> None:
        for slot in self._slots:
            if not slot.alive() and not slot.busy:
                self._start(slot)
        self._warmers.append(warm)

    def _settle_warmers(self) -> None:
        if self._warmers and all(slot.ready or not slot.alive() for slot in self._slots):
            for warm in self._warmers:
                warm.set()
            self._warmers = []

"""One reading process as the dispatcher sees it (flows/executor.py): its pipe, the
request in its hands, the deadline that request runs to, and what its death means.

Everything here runs in the executor's one dispatcher thread, except `pid` and
`in_hand`, which other threads read.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import signal
import sys
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from flows.reader_process import ReaderLimits, cpu_message, serve, time_message

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
class Request:
    lane: str
    call: Callable[..., Any]
    args: tuple[Any, ...]
    future: Future[Any]


def _preloaded() -> list[str]:
    """The reading processes' modules and this process's main module: multiprocessing
    runs the main module again in every child (as `__mp_main__`), which costs a flow-run
    process's child the import of Prefect unless its forkserver holds it already."""
    main = getattr(getattr(sys.modules["__main__"], "__spec__", None), "name", None)
    if main is None or main.endswith("__main__"):  # children do not run these again
        return list(READER_MODULES)
    return [*READER_MODULES, main]


class Slot:
    """A reading process, started on demand and replaced when it dies; at most one
    request in its hands. `deadline`: when the process start, the request's fetch or
    its reading is over its time (monotonic)."""

    def __init__(self, limits: ReaderLimits, niceness: int, compile_rules: bool) -> None:
        self.limits = limits  # the executor's as of the request in hand
        self.niceness = niceness
        self.compile_rules = compile_rules
        self.process: BaseProcess | None = None
        self.conn: Connection | None = None
        self.ready = False  # warmed up: it said READY
        self.request: Request | None = None
        self.in_hand = False  # a request's bytes are in the process now
        self.deadline = math.inf

    @property
    def busy(self) -> bool:
        return self.request is not None

    def alive(self) -> bool:
        return self.process is not None and self.process.is_alive()

    def start(self) -> Connection:
        """Start the process; it says READY on its pipe once warm (START_SECONDS)."""
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
        self.process, self.conn, self.ready = process, mine, False
        self.deadline = time.monotonic() + START_SECONDS
        return mine

    def send(self, request: Request, limits: ReaderLimits) -> None:
        """Hand the request over; its bytes are in hand once the process says so."""
        self.request, self.limits, self.in_hand = request, limits, False
        self.deadline = time.monotonic() + FETCH_SECONDS
        assert self.conn is not None
        # OSError: the process stopped receiving (it died, or the request did not fit);
        # what it said before, or its exit code, tells which (the pipe reads EOF).
        with contextlib.suppress(OSError):
            self.conn.send((request.call, request.args))

    def got_in_hand(self) -> None:
        self.in_hand = True
        self.deadline = time.monotonic() + self.limits.time_limit + HARD_LIMIT_GRACE_SECONDS

    def take_request(self) -> Request | None:
        """The request in hand, which is no longer: the slot is free."""
        request, self.request = self.request, None
        self.in_hand, self.deadline = False, math.inf
        return request

    def expired(self) -> ReaderStopped:
        """What running past the deadline means for the request in hand."""
        if self.in_hand:
            return OverLimit(time_message(self.limits))
        return FetchTimedOut(f"the request's bytes were not in hand within {FETCH_SECONDS:g} s")

    def death(self, closing: bool) -> ReaderStopped:
        """What the death of the process serving a request means for the request."""
        code = self.reap()
        how = "was killed (SIGKILL)" if code == -signal.SIGKILL else f"died (exit code {code})"
        if closing or (code is not None and -code in SHUTDOWN_SIGNALS):
            return ReaderKilled(f"the reading process {how} in a shutdown")
        if not self.in_hand:
            return ReaderKilled(f"the reading process {how} before the request was in its hands")
        if code == -signal.SIGXCPU:
            return OverLimit(cpu_message(self.limits))
        return WorkerLost(f"the reading process {how}")

    def reap(self) -> int | None:
        process = self.process
        self.stop()
        return process.exitcode if process is not None else None

    def stop(self) -> None:
        """End the process (the caller unregistered its pipe first)."""
        process, conn = self.process, self.conn
        self.process = self.conn = None
        self.ready = False
        if self.request is None:
            self.deadline = math.inf
        if conn is not None:
            conn.close()
        if process is not None:
            if process.is_alive():
                process.kill()
            process.join(timeout=10)

    def pid(self) -> int | None:
        """The serving process's pid, once it is warmed up."""
        process = self.process
        return process.pid if process is not None and self.ready else None

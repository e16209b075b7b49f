"""Runs the pure processors on every core: a pool of processes (pure-Python parsing
is CPU-bound, so threads would share one core), warmed up once, with a time limit per
document.

The limit is enforced twice: inside the child a timer interrupts Python code (a soft
limit that fails the document `processing_failed`), and outside, a document that does
not answer within the limit plus a grace period has its pool killed and rebuilt (a hard
limit for code stuck in C). Documents in flight in a pool that died cannot be told
apart, so they raise `WorkerLost` and count as an attempt.
"""

from __future__ import annotations

import gc
import logging
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

from processors.base import FailureCode, ProcessingContext, ProcessingError
from processors.pipeline import IntakeRejected, read_document

log = logging.getLogger(__name__)

HARD_LIMIT_GRACE_SECONDS = 10.0


class WorkerLost(Exception):
    """The process reading the document died (killed, crashed, or another document's
    hard time limit took the pool down)."""


class _DocumentTimeLimit(BaseException):
    pass


@dataclass(frozen=True, slots=True)
class ReadOutcome:
    """What a child sends back: an outcome or a failure, both plain data."""

    result_type: str | None = None
    data: dict[str, Any] = field(default_factory=dict)
    failure_code: str | None = None
    failure_message: str | None = None
    failure_details: dict[str, Any] | None = None
    failed_at_intake: bool = False
    cpu_seconds: float = 0.0

    @property
    def succeeded(self) -> bool:
        return self.result_type is not None


def _on_alarm(_signum: int, _frame: FrameType | None) -> None:
    raise _DocumentTimeLimit


# Reading is throughput work; the API and the process that records outcomes are
# latency work. On a machine they share, readers yield the CPU to them first.
READER_NICENESS = 10


def _start_reader() -> None:
    os.nice(READER_NICENESS)
    _warm_up()


def _warm_up() -> None:
    """Compile every validation artefact once per child, not on the first document of
    its kind (a schema or stylesheet takes 0.1-1 s to compile)."""
    signal.signal(signal.SIGALRM, _on_alarm)
    try:
        from processors.einvoice import rules
        from processors.einvoice.profiles import every_artefact
        from processors.sepa import compile_schemas

        for name in every_artefact():
            path = rules.artefact(name)
            if path.suffix == ".xsd":
                rules.xml_schema(path)
            else:
                rules.stylesheet(path)
        compile_schemas()
    except Exception as exc:  # the rules may be absent; documents will say so
        log.warning("validation rules not warmed up: %s", exc)
    # What warm-up made lives as long as the process: keep it out of every later
    # garbage collection.
    gc.collect()
    gc.freeze()


def read_in_child(data: bytes, context: ProcessingContext, time_limit: float) -> ReadOutcome:
    started = time.process_time()
    signal.setitimer(signal.ITIMER_REAL, time_limit)
    try:
        outcome = read_document(data, context)
        return ReadOutcome(
            result_type=outcome.result_type.value,
            data=dict(outcome.data),
            cpu_seconds=time.process_time() - started,
        )
    except ProcessingError as exc:
        return ReadOutcome(
            failure_code=exc.code.value,
            failure_message=exc.message,
            failure_details=exc.details or None,
            failed_at_intake=isinstance(exc, IntakeRejected),
            cpu_seconds=time.process_time() - started,
        )
    except _DocumentTimeLimit:
        return ReadOutcome(
            failure_code=FailureCode.PROCESSING_FAILED.value,
            failure_message=f"Reading the document took longer than {time_limit:g} s.",
            cpu_seconds=time.process_time() - started,
        )
    except Exception as exc:
        log.exception("processor error")
        return ReadOutcome(
            failure_code=FailureCode.PROCESSING_FAILED.value,
            failure_message=f"The service could not process the file ({type(exc).__name__}).",
            cpu_seconds=time.process_time() - started,
        )
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


class DocumentExecutor:
    def __init__(self, processes: int | None = None, time_limit: float = 60.0) -> None:
        self.processes = processes or os.cpu_count() or 1
        self.time_limit = time_limit
        self._lock = threading.Lock()
        self._pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        context = multiprocessing.get_context("forkserver")
        return ProcessPoolExecutor(self.processes, mp_context=context, initializer=_start_reader)

    def warm_up(self) -> None:
        """Start every child now (and let it compile the rules)."""
        futures = [self._pool.submit(time.sleep, 0) for _ in range(self.processes)]
        for future in futures:
            future.result()

    def read(self, data: bytes, context: ProcessingContext) -> ReadOutcome:
        with self._lock:
            pool = self._pool
        try:
            future: Future[ReadOutcome] = pool.submit(read_in_child, data, context, self.time_limit)
            return future.result(timeout=self.time_limit + HARD_LIMIT_GRACE_SECONDS)
        except FutureTimeout:
            log.error("document over the hard time limit; restarting the process pool")
            self._replace(pool)
            return ReadOutcome(
                failure_code=FailureCode.PROCESSING_FAILED.value,
                failure_message=f"Reading the document took longer than {self.time_limit:g} s.",
            )
        except BrokenProcessPool as exc:
            self._replace(pool)
            raise WorkerLost(str(exc)) from exc

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._pool is not broken:
                return
            self._pool = self._new_pool()
        for process in list(getattr(broken, "_processes", {}).values()):
            process.kill()
        broken.shutdown(wait=False, cancel_futures=True)

    def shutdown(self) -> None:
        with self._lock:
            self._pool.shutdown(wait=True, cancel_futures=True)

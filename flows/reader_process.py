"""The reading process: where a client's bytes are parsed, and nowhere else.

Each process warms up (compiles the validation artefacts), then puts kernel limits on
itself and serves one request at a time over a pipe:
- address space (`RLIMIT_AS`) and data segment (`RLIMIT_DATA`): what the warmed-up
  process holds plus `memory_bytes`. Both are needed: Saxon reserves 32 GiB of address
  space at start and commits its heap inside it, which only `RLIMIT_DATA` sees;
  pdfium and Python map new memory, which both see.
- CPU time (`RLIMIT_CPU`): before each request, the CPU used so far plus
  `cpu_seconds`. The kernel kills the process with SIGXCPU past it, wherever it is.
- A wall-clock timer interrupts Python code past the document time limit.
Python code that runs out of memory gets MemoryError and the document fails alone;
code in C that does is killed, and the parent charges the death to that request only.
"""

from __future__ import annotations

import gc
import logging
import math
import os
import pickle
import resource
import signal
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from types import FrameType
from typing import Any

from processors.base import Failure, FailureCode, ProcessingContext, ProcessingError, Reading
from processors.pipeline import read_document
from storage.errors import ServiceUnavailable
from storage.objectstore import ObjectMissing, ObjectStore

log = logging.getLogger(__name__)

# Reading is throughput work; the API and the process that records outcomes are
# latency work. On a machine they share, readers yield the CPU to them first.
READER_NICENESS = 10
READY = "ready"
TOO_BIG_TO_RECEIVE = "too big to receive"
# Sent when a request's bytes are in this process (`document_in_hand`): from then on
# its time and CPU limits run, and a death of this process is the request's concern.
IN_HAND = "in hand"


@dataclass(frozen=True, slots=True)
class ReaderLimits:
    """Per-request limits of a reading process (settings: DOCINTAKE_READER_*)."""

    time_limit: float = 60.0
    cpu_seconds: float = 60.0
    memory_bytes: int = 1536 * 1024 * 1024


class DocumentTimeLimit(BaseException):
    """Past the wall-clock limit; a BaseException so no `except Exception` swallows it."""


class _Alarm:
    """Whether the document's timer went off. The exception alone is not enough: an alarm
    that lands in a weakref callback during a garbage collection (SQLAlchemy's
    `_collection_gced`, in CI) is swallowed there as unraisable, and the read went on."""

    fired = False


def _on_alarm(_signum: int, _frame: FrameType | None) -> None:
    _Alarm.fired = True
    raise DocumentTimeLimit


def warm_up(compile_rules: bool = True) -> None:
    """Compile every validation artefact once per process, not on the first document of
    its kind (a schema or stylesheet takes 0.1-1 s to compile; all of them about 8 s of
    CPU). Without `compile_rules` only Saxon starts, and each artefact is compiled on
    first use, inside the process's memory limit."""
    signal.signal(signal.SIGALRM, _on_alarm)
    try:
        from processors.einvoice import rules
        from processors.einvoice.profiles import every_artefact
        from processors.sepa import compile_schemas

        rules.start_saxon()
        if compile_rules:
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


def _status_bytes(field_name: str) -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field_name + ":"):
                return int(line.split()[1]) * 1024
    raise LookupError(field_name)


def limit_memory(memory_bytes: int) -> None:
    """From now on at most `memory_bytes` more of address space and of data; the hard
    limit equals the soft one, so nothing in this process can lift it."""
    for limit, field_name in ((resource.RLIMIT_AS, "VmSize"), (resource.RLIMIT_DATA, "VmData")):
        ceiling = _status_bytes(field_name) + memory_bytes
        resource.setrlimit(limit, (ceiling, ceiling))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


# Within this of the address-space limit, a failure may be an allocation that failed.
MEMORY_MARGIN_BYTES = 32 * 1024 * 1024


def hit_memory_limit() -> bool:
    """Whether this process came near its address-space limit. Its peak is never reset,
    so a process that did is replaced after its answer."""
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return soft != resource.RLIM_INFINITY and _status_bytes("VmPeak") + MEMORY_MARGIN_BYTES >= soft


def _cpu_used() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def limit_cpu(seconds: float) -> None:
    """SIGXCPU (default action: the kernel ends the process) once this request has used
    `seconds` of CPU. The hard limit stays open: an unprivileged process can never
    raise it again for its next request."""
    soft = math.ceil(_cpu_used() + seconds)
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


# Set by `serve` for the request at hand, cleared once it announced itself.
_announce: Callable[[], None] | None = None


def document_in_hand() -> None:
    """The request's bytes are in this process from now on: tell the parent (its
    clock starts there) and start the request's CPU limit. Only a request's first call
    counts; outside a reading process (tests calling `read_in_child`) nothing happens."""
    global _announce
    announce, _announce = _announce, None
    if announce is not None:
        announce()


def read_in_child(data: bytes, context: ProcessingContext, limits: ReaderLimits) -> Reading:
    """The typed result or failure, sent back to the parent as it is."""
    document_in_hand()
    _Alarm.fired = False
    reading = _read_timed(data, context, limits)
    if _Alarm.fired:
        return Failure(FailureCode.PROCESSING_FAILED, time_message(limits))
    return reading


def _read_timed(data: bytes, context: ProcessingContext, limits: ReaderLimits) -> Reading:
    try:
        # Armed inside the try: a short limit may pass before the next line runs.
        signal.setitimer(signal.ITIMER_REAL, limits.time_limit)
        return read_document(data, context)
    except ProcessingError as exc:
        if hit_memory_limit():  # parsers report a failed allocation as broken input
            return Failure(FailureCode.PROCESSING_FAILED, memory_message(limits))
        return Failure.of(exc)
    except DocumentTimeLimit:
        return Failure(FailureCode.PROCESSING_FAILED, time_message(limits))
    except MemoryError:
        return Failure(FailureCode.PROCESSING_FAILED, memory_message(limits))
    except Exception as exc:
        log.exception("processor error")
        message = f"The service could not process the file ({type(exc).__name__})."
        return Failure(FailureCode.PROCESSING_FAILED, message)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def time_message(limits: ReaderLimits) -> str:
    return f"Reading the document took longer than {limits.time_limit:g} s."


@dataclass(frozen=True, slots=True)
class StoreTrouble:
    """The store did not hand over the document's bytes: `missing` if it answered that
    they are gone, else it did not answer (the work waits)."""

    message: str
    missing: bool = False


_stores: dict[bytes, ObjectStore] = {}


def _store(pickled: bytes) -> ObjectStore:
    """The store a worker handed over, made once per process (and its connections)."""
    store = _stores.get(pickled)
    if store is None:
        store = _stores[pickled] = pickle.loads(pickled)
    return store


def read_stored_in_child(
    pickled_store: bytes, key: str, context: ProcessingContext, limits: ReaderLimits
) -> Reading | StoreTrouble:
    """Fetch the document here and read it: its bytes never pass through the worker.
    The fetch comes before the document's clock (`document_in_hand`): a slow store is
    not the document's fault. Every store error is trouble, never a death of this
    process: "missing" when the store answered that the object is not there, else
    "unavailable" (AccessDenied, a timeout, an answer the client did not expect)."""
    try:
        data = _store(pickled_store).read_bytes(key)
    except ObjectMissing:
        return StoreTrouble(f"{key} is not in the object store", missing=True)
    except ServiceUnavailable as exc:
        return StoreTrouble(str(exc))
    except Exception as exc:
        return StoreTrouble(f"object store error: {type(exc).__name__}: {exc}")
    return read_in_child(data, context, limits)


# Requests that fetch their bytes before they announce them in hand; any other request
# is in hand as soon as it is received.
FETCHES_FIRST: frozenset[Callable[..., Any]] = frozenset({read_stored_in_child})


def memory_message(limits: ReaderLimits) -> str:
    mib = limits.memory_bytes // (1024 * 1024)
    return f"Reading the document needed more than the {mib} MiB of memory a document may use."


def cpu_message(limits: ReaderLimits) -> str:
    return f"Reading the document used more than {limits.cpu_seconds:g} s of CPU time."


def _in_hand_announcer(conn: Connection, limits: ReaderLimits) -> Callable[[], None]:
    def announce() -> None:
        limit_cpu(limits.cpu_seconds)
        conn.send(IN_HAND)

    return announce


def serve(conn: Connection, limits: ReaderLimits, niceness: int, compile_rules: bool) -> None:
    """A reading process's life: warm up, limit itself, then answer requests until the
    pipe closes. A request is a picklable callable and its arguments; the process says
    when the request's bytes are in hand (`IN_HAND`), then answers with what the
    callable returned and whether this process retires after it.
    Ctrl-C in a terminal reaches every process of the group: the worker shuts down, and
    this process finishes its request instead of dying in it."""
    global _announce
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.nice(niceness)
    warm_up(compile_rules)
    limit_memory(limits.memory_bytes)
    conn.send(READY)
    while True:
        try:
            call, args = conn.recv()
        except EOFError:
            return
        except MemoryError:  # the request itself does not fit in the limit
            conn.send((TOO_BIG_TO_RECEIVE, True))
            return
        limit_cpu(limits.cpu_seconds)  # a fetch is bounded too, until the request's own limit
        _announce = _in_hand_announcer(conn, limits)
        if call not in FETCHES_FIRST:
            document_in_hand()
        answer = call(*args)  # a request's callable answers every outcome itself
        _announce = None
        retiring = hit_memory_limit()  # then the parent starts a fresh process
        conn.send((answer, retiring))
        if retiring:
            return

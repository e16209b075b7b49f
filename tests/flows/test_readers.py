"""Reading processes under kernel limits: only the request whose process died is told
so, the others go on; limits end a request alone. Real processes, no database."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from dataclasses import replace

import pytest

from flows.executor import DocumentExecutor, OverLimit, ReaderKilled, WorkerLost
from flows.fair_queue import FairQueue
from flows.reader_process import ReaderLimits
from processors.base import (
    CompanyProfile,
    DocumentType,
    Failure,
    Outcome,
    ProcessingContext,
    Reading,
)
from testkit.samples import blank_pdf, corpus_file
from tests.flows.processes import python_output

LIMITS = ReaderLimits(time_limit=20.0, cpu_seconds=2.0, memory_bytes=256 * 1024 * 1024)
CONTEXT = ProcessingContext(DocumentType.AUTO, "x.pdf", CompanyProfile("Acme GmbH"))


def _what(reading: Reading) -> str:
    """The result type read, or the failure's code."""
    return reading.result_type if isinstance(reading, Outcome) else reading.code


def allocate(size: int) -> int:
    return len(bytearray(size))


def crash() -> None:
    os.kill(os.getpid(), signal.SIGSEGV)


def be_killed() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def spin() -> None:
    while True:
        pass


def nap(seconds: float) -> str:
    time.sleep(seconds)
    return "rested"


@pytest.fixture(scope="module")
def readers() -> Iterator[DocumentExecutor]:
    executor = DocumentExecutor(processes=2, limits=LIMITS, compile_rules=False)
    executor.warm_up()
    yield executor
    executor.shutdown()


def test_a_dying_reader_fails_only_its_own_request(readers: DocumentExecutor) -> None:
    sleeping = readers.submit("company-a", nap, 1.0)
    time.sleep(0.2)  # the nap is in one process
    dying = readers.submit("company-b", crash)
    with pytest.raises(WorkerLost, match="exit code -11"):
        dying.result()
    assert sleeping.result() == "rested"
    # The slot started a new process: documents are read as before.
    assert _what(readers.read(blank_pdf("after"), CONTEXT)) == "other_document"


def test_a_reader_killed_while_it_reads_is_the_request_s_concern(
    readers: DocumentExecutor,
) -> None:
    """SIGKILL in the middle of a request: the OOM killer picks the process that grew, in
    a container smaller than its readers' limits together (a kill used to cost the
    request nothing, so such a document was read again forever)."""
    with pytest.raises(WorkerLost, match="SIGKILL"):
        readers.submit("a", be_killed).result()
    assert _what(readers.read(blank_pdf("after"), CONTEXT)) == "other_document"


def test_readers_killed_while_idle_cost_the_next_requests_nothing(
    readers: DocumentExecutor,
) -> None:
    readers.warm_up()
    for pid in readers.reader_pids():
        os.kill(pid, signal.SIGKILL)
    # Each next request finds its process dead: it is started again, or (when the death
    # was not yet seen as the request was sent) the request hears ReaderKilled.
    for n in range(4):
        try:
            outcome = readers.read(blank_pdf(f"after-{n}"), CONTEXT)
        except ReaderKilled as killed:
            assert "before the request was in its hands" in str(killed)
            continue
        assert _what(outcome) == "other_document"


def test_a_shutdown_signal_is_not_the_request_s_concern(readers: DocumentExecutor) -> None:
    """SIGTERM reaches the readers when a service manager stops the whole group; Ctrl-C
    (SIGINT) reaches every process of a terminal's group, and a reader finishes its
    request through it."""
    napping = readers.submit("a", nap, 3.0)
    _wait_until_busy(readers)
    for pid in readers.reading_pids():
        os.kill(pid, signal.SIGINT)
    assert napping.result() == "rested"
    napping = readers.submit("a", nap, 3.0)
    _wait_until_busy(readers)
    for pid in readers.reading_pids():
        os.kill(pid, signal.SIGTERM)
    with pytest.raises(ReaderKilled, match="in a shutdown"):
        napping.result()


def test_a_death_after_the_executor_closes_is_not_the_request_s_concern() -> None:
    executor = DocumentExecutor(processes=1, limits=LIMITS, compile_rules=False)
    executor.warm_up()
    napping = executor.submit("a", nap, 5.0)
    _wait_until_busy(executor)
    closing = threading.Thread(target=executor.shutdown)
    closing.start()  # it waits for the request in hand
    time.sleep(0.5)
    os.kill(executor.reader_pids()[0], signal.SIGKILL)
    closing.join(timeout=60)
    with pytest.raises(ReaderKilled, match="in a shutdown"):
        napping.result()


def _wait_until_busy(executor: DocumentExecutor) -> None:
    """Until a request is in a reading process's hands (its clock runs)."""
    deadline = time.monotonic() + 30
    while not executor.reading_pids():
        assert time.monotonic() < deadline, "no request got in hand"
        time.sleep(0.05)


def test_memory_past_the_limit_fails_the_request_in_its_process(
    readers: DocumentExecutor,
) -> None:
    assert readers.submit("a", allocate, 64 * 1024 * 1024).result() == 64 * 1024 * 1024
    with pytest.raises(WorkerLost):  # MemoryError outside a reader's own handling
        readers.submit("a", allocate, 512 * 1024 * 1024).result()
    assert readers.submit("a", allocate, 1024).result() == 1024


def test_cpu_past_the_limit_ends_the_process_by_the_kernel(readers: DocumentExecutor) -> None:
    # SIGXCPU from the kernel, not the wall-clock limit ("took longer than").
    with pytest.raises(OverLimit, match="2 s of CPU"):
        readers.submit("a", spin).result()


def test_without_warm_up_each_rule_is_compiled_on_first_use_inside_the_limits(
    readers: DocumentExecutor,
) -> None:
    name, invoice = corpus_file("invalid_e_invoice", ".xml")
    outcome = readers.read(invoice, replace(CONTEXT, file_name=name))
    assert isinstance(outcome, Failure) and outcome.code == "invalid_e_invoice", outcome
    name, invoice = corpus_file("accept", ".xml")
    read = readers.read(invoice, replace(CONTEXT, file_name=name))
    assert isinstance(read, Outcome) and read.result_type == "invoice", read


def test_a_document_over_the_memory_limit_fails_processing_failed() -> None:
    _, invoice = corpus_file("accept", ".xml")
    small = ReaderLimits(time_limit=20.0, cpu_seconds=20.0, memory_bytes=48 * 1024 * 1024)
    executor = DocumentExecutor(processes=1, limits=small)
    try:
        big = invoice.replace(b"</", b"<!-- " + b"x" * 60_000_000 + b" --></", 1)
        outcome = executor.read(big, CONTEXT)
        after = executor.read(invoice, CONTEXT)
    finally:
        executor.shutdown()
    assert isinstance(outcome, Failure) and outcome.code == "processing_failed", outcome
    assert "48 MiB of memory" in outcome.message
    assert isinstance(after, Outcome) or after.code == "invalid_e_invoice"


def test_the_reading_processes_answer_while_one_spins(readers: DocumentExecutor) -> None:
    spinning = readers.submit("a", spin)
    answers = [readers.read(blank_pdf(str(n)), CONTEXT) for n in range(3)]
    assert [_what(answer) for answer in answers] == ["other_document"] * 3
    with pytest.raises(OverLimit):
        spinning.result()


def test_the_executor_tells_whether_requests_wait_for_a_reading_process(
    readers: DocumentExecutor,
) -> None:
    """The recorder gathers outcomes only while answers follow at the full rate: every
    reading process busy and more requests queued behind them."""
    busy = [readers.submit("a", nap, 0.3) for _ in range(readers.processes)]
    assert not readers.backlogged()
    queued = readers.submit("b", nap, 0.3)
    assert readers.backlogged()
    assert [future.result() for future in [*busy, queued]] == ["rested"] * (readers.processes + 1)
    assert not readers.backlogged()


def test_lanes_take_turns() -> None:
    queue: FairQueue[str] = FairQueue()
    for n in range(3):
        queue.put("big", f"big-{n}")
    queue.put("small", "small-0")
    taken = [queue.get() for _ in range(4)]
    assert taken == [("big", "big-0"), ("small", "small-0"), ("big", "big-1"), ("big", "big-2")]
    assert queue.close() == []
    assert queue.get() is None


def _getter(queue: FairQueue[str], newcomers_only: bool) -> list[tuple[str, str]]:
    """A thread that keeps getting; what it got, in order."""
    got: list[tuple[str, str]] = []

    def get() -> None:
        while (taken := queue.get(newcomers_only)) is not None:
            got.append(taken)

    threading.Thread(target=get, daemon=True).start()
    return got


def test_the_express_getter_takes_only_a_newcomer_while_the_others_are_busy() -> None:
    queue: FairQueue[str] = FairQueue()
    for n in range(3):
        queue.put("bulk", f"bulk-{n}")
    assert queue.get() == ("bulk", "bulk-0")  # the ordinary getters are busy with the bulk
    express = _getter(queue, newcomers_only=True)
    time.sleep(0.2)
    assert express == []  # "bulk" has one in flight
    queue.put("single", "single-0")
    time.sleep(0.2)
    assert express == [("single", "single-0")]
    ordinary = _getter(queue, newcomers_only=False)  # takes the bulk's rest, then idles
    time.sleep(0.2)
    assert ordinary == [("bulk", "bulk-1"), ("bulk", "bulk-2")]
    queue.put("late", "late-0")  # an idle ordinary getter takes it, not the express one
    time.sleep(0.2)
    assert (ordinary[-1], len(express)) == (("late", "late-0"), 1)
    queue.close()


def test_a_closed_queue_wakes_its_readers() -> None:
    queue: FairQueue[str] = FairQueue()
    got: list[str | None] = []
    reader = threading.Thread(target=lambda: got.append(queue.get()))
    reader.start()
    queue.close()
    reader.join(timeout=5)
    assert got == [None]


LOADED_IN_A_READER = """
from flows.executor import DocumentExecutor
executor = DocumentExecutor(processes=1, compile_rules=False)
print(executor.submit("", eval, "'flows.unpack' in __import__('sys').modules").result())
executor.shutdown()
"""


def test_reading_processes_start_with_their_modules_loaded() -> None:
    """The forkserver imports them once (a fresh interpreter: the forkserver is one per
    process, and other tests start it without them); a reading process forked from it,
    the first or one started again after a death, does not import them itself."""
    assert python_output(LOADED_IN_A_READER).strip() == "True"

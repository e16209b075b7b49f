"""Sending: each plan is sent (or, when the journal says it was accepted, looked up),
then polled until finished; N plans at a time. A Ctrl-C stops every batch at once."""

from __future__ import annotations

import io
import threading
import zipfile
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field

from docintake_client.client import DocintakeClient
from docintake_client.errors import ProblemError
from docintake_client.importer.journal import Journal
from docintake_client.importer.model import ImportEvent, ImportOptions, Plan
from docintake_client.models import Batch
from docintake_client.retry import poll_delay

FIXED_ZIP_TIME = (2020, 1, 1, 0, 0, 0)

# What became of a plan: the finished (or, when stopped, last seen) batch, the problem
# that refused it, or None when it was never started.
Outcome = Batch | ProblemError | None


def build_archive(plan: Plan) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as out:
        for document in plan.documents:
            # A fixed timestamp: a resent plan is byte for byte the archive sent before,
            # which the server's idempotency (same externalId, same file) requires.
            info = zipfile.ZipInfo(plan.name_in_archive(document), date_time=FIXED_ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            out.writestr(info, document.read(), compresslevel=1)
    return buffer.getvalue()


@dataclass
class ImportRun:
    """What the threads sending plans share."""

    client: DocintakeClient
    options: ImportOptions
    journal: Journal
    emit: Callable[[ImportEvent], None]
    stop: threading.Event = field(default_factory=threading.Event)
    counts: Counter[str] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, what: str) -> None:
        with self.lock:
            self.counts[what] += 1


def _send(run: ImportRun, plan: Plan) -> Batch:
    body = plan.archive if plan.archive is not None else build_archive(plan)
    batch = run.client.upload_batch(
        body, run.options.document_type, plan.external_id, file_name=f"{plan.external_id}.zip"
    )
    run.journal.record_accepted(plan, batch.id)
    run.count("replayed" if batch.replayed else "sent")
    run.emit(ImportEvent("sent", plan, batch))
    return batch


def _poll(run: ImportRun, plan: Plan, batch: Batch) -> Batch:
    while not batch.is_terminal:
        if run.stop.wait(poll_delay(batch.retry_after, run.options.max_poll_seconds)):
            return batch
        batch = run.client.get_batch(batch.id)
        run.emit(ImportEvent("polled", plan, batch))
    run.emit(ImportEvent("finished", plan, batch))
    return batch


def _process(run: ImportRun, plan: Plan) -> Outcome:
    if run.stop.is_set():
        return None
    try:
        batch_id = run.journal.accepted.get(plan.external_id)
        if batch_id is None:
            batch = _send(run, plan)
        else:
            batch = run.client.get_batch(batch_id)
            run.count("resumed")
            run.emit(ImportEvent("resumed", plan, batch))
        return _poll(run, plan, batch)
    except ProblemError as problem:
        run.emit(ImportEvent("refused", plan, problem=problem))
        return problem
    except BaseException:
        run.stop.set()  # an interrupt (or a bug) stops the other batches at once
        raise


def send_all(run: ImportRun, plans: Sequence[Plan]) -> tuple[dict[str, Outcome], bool]:
    """Every plan's outcome by externalId, and whether a Ctrl-C cut the run short."""
    outcomes: dict[str, Outcome] = {}
    interrupted = False
    with ThreadPoolExecutor(max_workers=max(1, run.options.parallel)) as pool:
        futures: dict[str, Future[Outcome]] = {
            plan.external_id: pool.submit(_process, run, plan) for plan in plans
        }
        try:
            for external_id, future in futures.items():
                outcomes[external_id] = future.result()
        except KeyboardInterrupt:
            interrupted = True
            run.stop.set()
            pool.shutdown(wait=True, cancel_futures=True)
            for external_id, future in futures.items():
                if future.done() and not future.cancelled() and future.exception() is None:
                    outcomes[external_id] = future.result()
        except BaseException:
            run.stop.set()
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    return outcomes, interrupted

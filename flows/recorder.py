"""Recording outcomes in groups (group commit).

A document's outcome is a few rows: its result, its upload's new status, a history row.
Written one document per transaction, the round trips and commits cost the recording
process more CPU than many documents take to read. So the threads that read documents
hand their outcomes to one writer thread, which writes the outcomes that arrive close
together in one transaction: one per document when documents arrive far apart, one per
several when they arrive a few milliseconds apart (a batch, busy singles). Writing what
had arrived by the time the last transaction ended made groups of one: 780 transactions
for 800 documents of eight batches; waiting for the next outcome (up to 150 ms, at most
500 ms in all) makes about 60 (docs/throughput.md, tenth round). The writer waits
only while requests queue for the reading processes (`more_coming`): then outcomes
follow each other at the full rate and gathering saves CPU the machine is short of.
With a reading process to spare (the last documents of a batch, single uploads at a
steady rate) it writes at once: the CPU is there, and a client polls for the upload.

Each caller waits until its own outcome is committed, so a caller that returned knows
its document is booked, and an error (a database away) reaches every caller of the
group, each of which then gives its upload back.

A group's transaction loads no upload: the held ones are locked and listed by id, the
results inserted, and the uploads moved with the named moves on the whole group
(storage/repositories/upload_groups.py): one UPDATE for those completed and one for
those failed, each with its history rows in one statement.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from flows.jobs import Booked, Job, JobEnd
from processors.base import Failure, Outcome, Reading, ResultType
from storage.db import Database
from storage.models import Result
from storage.repositories import bank_accounts
from storage.repositories import results as result_repo
from storage.repositories import work as work_repo
from storage.repositories.results import Booking
from storage.states import UploadStatus

log = logging.getLogger(__name__)

MAX_GROUP = 32
# A transaction costs this process as much CPU as nine outcomes in it (ORM flush,
# look-ups, commit: 6.5 ms and 0.7 ms an outcome on a slow machine), and documents take
# from milliseconds to seconds to read, so outcomes arrive irregularly. A 50 ms gap made
# groups of 4.9 on average in a sustained run, a 150 ms one groups of 13.5, and this
# process spent about a tenth less CPU (docs/throughput.md, tenth round). The wait
# happens only while requests queue for the readers (`more_coming`).
GATHER_GAP_SECONDS = 0.15
GATHER_MAX_SECONDS = 0.5


@dataclass(eq=False)
class _Entry:
    """One outcome waiting to be written. `reading` None: the job's content was booked
    before, complete the upload with that result."""

    job: Job
    reading: Reading | None
    done: threading.Event = field(default_factory=threading.Event)
    end: JobEnd | None = None
    error: BaseException | None = None


def _always() -> bool:
    return True


class Recorder:
    def __init__(self, db: Database, owner: str, more_coming: Callable[[], bool] = _always) -> None:
        """`more_coming`: whether outcomes follow at the full rate (requests queue for
        the reading processes); while it says no, the writer does not wait for one."""
        self.db = db
        self.owner = owner
        self.more_coming = more_coming
        self._queue: queue.SimpleQueue[_Entry] = queue.SimpleQueue()
        self._start_lock = threading.Lock()
        self._writer: threading.Thread | None = None

    def record(self, job: Job, reading: Reading) -> JobEnd:
        """Book what came of reading the job's document; returns once committed."""
        end = self._wait(_Entry(job, reading))
        assert end is not None
        return end

    def record_duplicate(self, job: Job) -> JobEnd | None:
        """Complete the job with the result booked before for its content; None when
        that result was deleted meanwhile (the document is then read anew)."""
        return self._wait(_Entry(job, None))

    def _wait(self, entry: _Entry) -> JobEnd | None:
        self._ensure_writer()
        self._queue.put(entry)
        entry.done.wait()
        if entry.error is not None:
            raise entry.error
        return entry.end

    def _ensure_writer(self) -> None:
        with self._start_lock:
            if self._writer is None or not self._writer.is_alive():
                self._writer = threading.Thread(
                    target=self._write_forever, name="recorder", daemon=True
                )
                self._writer.start()

    def _write_forever(self) -> None:
        while True:
            self._write(self._gather(self._queue.get()))

    def _gather(self, first: _Entry) -> list[_Entry]:
        """The first outcome and those that follow it closely: while outcomes keep
        arriving within `GATHER_GAP_SECONDS` of each other, for at most
        `GATHER_MAX_SECONDS`, and documents are being read, they share one transaction.
        Outcomes already waiting always join."""
        group = [first]
        until = time.monotonic() + GATHER_MAX_SECONDS
        while len(group) < MAX_GROUP:
            with contextlib.suppress(queue.Empty):
                group.append(self._queue.get_nowait())
                continue
            wait = min(GATHER_GAP_SECONDS, until - time.monotonic())
            if wait <= 0 or not self.more_coming():
                break
            try:
                group.append(self._queue.get(timeout=wait))
            except queue.Empty:
                break
        return group

    def _write(self, group: list[_Entry]) -> None:
        try:
            self._transaction(group, one_by_one=False)
        except IntegrityError:
            # Another worker booked the same content and type between our look-up and
            # our insert: write each outcome on its own, answering with that booking.
            for entry in group:
                self._write_alone(entry)
        except BaseException as exc:  # every waiting caller must hear of it
            for entry in group:
                entry.error = exc
        finally:
            for entry in group:
                entry.done.set()

    def _write_alone(self, entry: _Entry) -> None:
        """One outcome in its own transaction; an error is this caller's alone (those
        written before it in the same group stay written and are told so)."""
        try:
            self._transaction([entry], one_by_one=True)
        except BaseException as exc:
            entry.error = exc

    def _transaction(self, group: list[_Entry], one_by_one: bool) -> None:
        with self.db.session() as session:
            ids = [entry.job.upload_id for entry in group]
            held = work_repo.held_upload_ids(session, ids, self.owner)
            booked = self._book_results(session, group, held, one_by_one)
            moves = _Moves()
            ends = [
                moves.decide(session, entry, entry.job.upload_id in held, booked) for entry in group
            ]
            work_repo.complete_uploads(session, moves.completed)
            work_repo.fail_uploads(session, moves.failed)
            session.commit()
        for entry, end in zip(group, ends, strict=True):
            entry.end = end

    def _book_results(
        self,
        session: Session,
        group: list[_Entry],
        held: set[uuid.UUID],
        one_by_one: bool,
    ) -> dict[Booking, Booked]:
        """The result of every succeeded outcome's content and type: booked before (by
        anyone) or added now, once per content and type even when the group holds it
        twice."""
        readings = [
            (entry.job, entry.reading)
            for entry in group
            if isinstance(entry.reading, Outcome) and entry.job.upload_id in held
        ]
        if one_by_one:
            return {
                _booking(job, outcome): _book_one(session, job, outcome)
                for job, outcome in readings
            }
        booked = {
            booking: (result_id, ResultType(result_type))
            for booking, (result_id, result_type) in result_repo.live_results_for_bookings(
                session, {_booking(job, outcome) for job, outcome in readings}
            ).items()
        }
        added: list[Result] = []
        for job, outcome in readings:
            booking = _booking(job, outcome)
            if booking not in booked:
                result = result_repo.new_result(*booking, outcome.data)
                session.add(result)
                added.append(result)
                booked[booking] = (result.id, outcome.result_type)
        session.flush()
        for result in added:  # in booking order: each compared with those before it
            _note_bank_accounts(session, result)
        return booked


def _booking(job: Job, outcome: Outcome) -> Booking:
    """What a succeeded outcome is booked under: company, content, result type."""
    return job.company_id, job.sha256, outcome.result_type


def _book_one(session: Session, job: Job, outcome: Outcome) -> Booked:
    result = result_repo.book_result(session, *_booking(job, outcome), outcome.data)
    _note_bank_accounts(session, result)
    return result.id, ResultType(result.type)


def _note_bank_accounts(session: Session, result: Result) -> None:
    """A supplier invoice's IBANs against the supplier's earlier ones (docs/checks.md):
    booked with the result, so the warning is there when the result is."""
    if result.type == ResultType.INVOICE:
        bank_accounts.note_invoice(session, result.company_id, result.id, result.data)


@dataclass
class _Moves:
    """The moves a group's transaction makes, gathered to be made on the whole group."""

    completed: dict[uuid.UUID, uuid.UUID] = field(default_factory=dict)
    failed: dict[uuid.UUID, Failure] = field(default_factory=dict)

    def decide(
        self, session: Session, entry: _Entry, held: bool, booked: dict[Booking, Booked]
    ) -> JobEnd | None:
        job, reading = entry.job, entry.reading
        if not held:
            log.warning("upload %s: lease lost, another worker has it", job.upload_id)
            return JobEnd(job, None)
        if reading is None:
            assert job.booked is not None
            if result_repo.lock_live_result(session, job.booked[0]) is None:
                return None
            return self._complete(job, job.booked)
        if isinstance(reading, Outcome):
            return self._complete(job, booked[_booking(job, reading)])
        self.failed[job.upload_id] = reading
        return JobEnd(job, UploadStatus.FAILED, failure=reading.code)

    def _complete(self, job: Job, result: Booked) -> JobEnd:
        self.completed[job.upload_id] = result[0]
        return JobEnd(job, UploadStatus.COMPLETED, result=result)

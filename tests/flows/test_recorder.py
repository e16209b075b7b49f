"""Recording outcomes in groups, on a database that really commits (both backends)."""

from __future__ import annotations

import dataclasses
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, ClassVar

import pytest
from sqlalchemy import Engine, create_engine, event, func, select
from sqlalchemy.exc import OperationalError

from flows.jobs import Job, JobEnd
from flows.recorder import GATHER_GAP_SECONDS, MAX_GROUP, Recorder, _Entry
from processors.base import Failure, FailureCode, Outcome, Reading, ResultType
from storage.db import Database
from storage.models import Result, StatusChange, Upload, utcnow
from storage.repositories import results as result_repo
from storage.repositories import uploads as upload_repo
from storage.repositories import work as work_repo
from storage.states import UploadStatus
from tests.conftest import make_tenant

OWNER = "recorder-test"


@dataclass(frozen=True)
class _Invoice:
    RESULT_TYPE: ClassVar[ResultType] = ResultType.INVOICE
    VERSION: ClassVar[int] = 1

    def to_dict(self) -> dict[str, Any]:
        return {"invoice": {"number": "1"}}


INVOICE = Outcome(_Invoice())
FAILED = Failure(FailureCode.INVALID_E_INVOICE, "BR-01", {"rule": "BR-01"})


@pytest.fixture
def db(fresh_engine: Engine) -> Database:
    return Database(fresh_engine)


def _claimed(db: Database, contents: list[str]) -> list[Job]:
    """Uploads of one company with these contents, claimed by OWNER."""
    company_id = make_tenant(db, f"Recorder {uuid.uuid4().hex[:6]}").company_id
    with db.session() as session:
        uploads = [
            Upload(
                id=uuid.uuid4(),
                company_id=company_id,
                file_name=f"{index}.xml",
                external_id=f"request-{index}",  # the same content may come twice
                document_type="auto",
                sha256=sha256,
                size_bytes=1,
                attempts=0,
                object_key=f"k/{index}",
            )
            for index, sha256 in enumerate(contents)
        ]
        upload_repo.add_uploads(session, [(upload, UploadStatus.QUEUED) for upload in uploads])
        claimed = work_repo.claim_uploads(session, OWNER, len(uploads), timedelta(minutes=1))
        jobs = [Job.of(upload) for upload in claimed]
        session.commit()
    return jobs


def _record_together(recorder: Recorder, jobs: list[Job], outcome: Reading) -> list[Any]:
    """Record from one thread per job, all released at once; results or errors."""
    start = threading.Barrier(len(jobs))
    answers: list[Any] = [None] * len(jobs)

    def record(index: int) -> None:
        start.wait()
        try:
            answers[index] = recorder.record(jobs[index], outcome)
        except Exception as exc:
            answers[index] = exc

    threads = [threading.Thread(target=record, args=(i,)) for i in range(len(jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return answers


def _statuses(db: Database, jobs: list[Job]) -> list[str]:
    with db.read_session() as session:
        rows = session.execute(
            select(Upload.id, Upload.status).where(Upload.id.in_([j.upload_id for j in jobs]))
        )
        by_id = {row.id: row.status for row in rows}
    return [by_id[job.upload_id] for job in jobs]


def test_outcomes_arriving_together_share_transactions(db: Database) -> None:
    jobs = _claimed(db, [f"{i:064x}" for i in range(20)])
    commits: list[int] = []
    event.listen(db.engine, "commit", lambda _connection: commits.append(1))

    answers = _record_together(Recorder(db, OWNER), jobs, INVOICE)

    assert all(isinstance(a, JobEnd) and a.status is UploadStatus.COMPLETED for a in answers), (
        answers
    )
    assert _statuses(db, jobs) == ["completed"] * 20
    assert len(commits) < 10, "each outcome was committed on its own"
    with db.read_session() as session:
        history = session.scalar(
            select(func.count())
            .select_from(StatusChange)
            .where(StatusChange.to_status == UploadStatus.COMPLETED)
        )
    assert history == 20


def test_same_content_twice_in_a_group_is_booked_once(db: Database) -> None:
    jobs = _claimed(db, ["a" * 64] * 6 + ["b" * 64] * 2)

    answers = _record_together(Recorder(db, OWNER), jobs, INVOICE)

    assert {a.status for a in answers} == {UploadStatus.COMPLETED}
    assert len({a.result for a in answers}) == 2
    with db.read_session() as session:
        assert session.scalar(select(func.count()).select_from(Result)) == 2


def test_failures_and_lost_leases_in_one_group(db: Database) -> None:
    kept, failing, taken_over = _claimed(db, ["c" * 64, "d" * 64, "e" * 64])
    with db.session() as session:
        upload = session.get(Upload, taken_over.upload_id)
        assert upload is not None
        upload.lease_owner = "another-worker"
        session.commit()
    recorder = Recorder(db, OWNER)

    answers = {
        job.upload_id: recorder.record(job, outcome)
        for job, outcome in ((kept, INVOICE), (failing, FAILED), (taken_over, INVOICE))
    }

    assert answers[kept.upload_id].status is UploadStatus.COMPLETED
    assert answers[failing.upload_id].failure is FailureCode.INVALID_E_INVOICE
    assert answers[taken_over.upload_id].status is None
    assert _statuses(db, [kept, failing, taken_over]) == ["completed", "failed", "processing"]
    with db.read_session() as session:
        failed = session.get(Upload, failing.upload_id)
        assert failed is not None
        assert (failed.error_code, failed.error_message, failed.error_details) == (
            "invalid_e_invoice",
            "BR-01",
            {"rule": "BR-01"},
        )


def test_a_duplicate_of_a_deleted_result_is_read_anew(db: Database) -> None:
    original, repeat = _claimed(db, ["f" * 64, "f" * 64])
    recorder = Recorder(db, OWNER)
    booked = recorder.record(original, INVOICE).result
    assert booked is not None
    with db.session() as session:
        result = session.get(Result, booked[0])
        assert result is not None
        result.deleted_at = utcnow()
        session.commit()

    duplicate = dataclasses.replace(repeat, booked=booked)
    assert recorder.record_duplicate(duplicate) is None
    assert _statuses(db, [repeat]) == ["processing"]


def test_content_booked_by_another_worker_meanwhile(
    db: Database, backend: str, fresh_engine: Engine
) -> None:
    if not backend.startswith("postgres"):
        pytest.skip("on SQLite write transactions are serialised: no one books in between")
    (first,) = _claimed(db, ["1" * 64])
    other = Database(create_engine(fresh_engine.url.render_as_string(hide_password=False)))
    theirs: list[uuid.UUID] = []

    def book_in_between(*args: Any) -> None:
        statement = str(args[2])
        if not theirs and "FROM results" in statement and "deleted_at IS NULL" in statement:
            with other.session() as session:
                result = result_repo.new_result(first.company_id, first.sha256, "invoice", {})
                session.add(result)
                session.commit()
                theirs.append(result.id)

    event.listen(db.engine, "after_cursor_execute", book_in_between)
    answer = Recorder(db, OWNER).record(first, INVOICE)
    other.engine.dispose()

    assert theirs, "the other worker's booking did not happen"
    assert answer.status is UploadStatus.COMPLETED
    assert answer.result == (theirs[0], ResultType.INVOICE)
    assert _statuses(db, [first]) == ["completed"]
    with db.read_session() as session:
        assert session.scalar(select(func.count()).select_from(Result)) == 1


@pytest.fixture
def unreachable() -> Iterator[Database]:
    engine = create_engine(
        "postgresql+psycopg://nobody@127.0.0.1:9/none", connect_args={"connect_timeout": 2}
    )
    yield Database(engine)
    engine.dispose()


def test_a_database_error_reaches_every_caller_of_the_group(unreachable: Database) -> None:
    jobs = [
        Job(uuid.uuid4(), uuid.uuid4(), None, f"{i}.xml", "auto", "0" * 64, None) for i in range(4)
    ]

    answers = _record_together(Recorder(unreachable, OWNER), jobs, INVOICE)

    assert all(isinstance(answer, OperationalError) for answer in answers), answers


def test_outcomes_that_follow_closely_are_gathered_into_one_group(db: Database) -> None:
    """The writer waits a moment for the next outcome before it writes: documents that
    finish a few milliseconds apart share a transaction."""
    jobs = _claimed(db, [f"{i:064x}" for i in range(40)])
    recorder = Recorder(db, OWNER)
    entries = [_Entry(job, INVOICE) for job in jobs]
    for entry in entries[1:]:
        recorder._queue.put(entry)
    group = recorder._gather(entries[0])
    assert group == entries[:MAX_GROUP]
    assert recorder._gather(recorder._queue.get()) == entries[MAX_GROUP:]


def test_the_writer_does_not_wait_while_nothing_is_being_read(db: Database) -> None:
    """A lone outcome (the last of a batch, a single upload) is written at once; those
    already waiting still join it."""
    jobs = _claimed(db, [f"{i:064x}" for i in range(3)])
    recorder = Recorder(db, OWNER, more_coming=lambda: False)
    entries = [_Entry(job, INVOICE) for job in jobs]
    for entry in entries[1:]:
        recorder._queue.put(entry)
    started = time.monotonic()
    assert recorder._gather(entries[0]) == entries
    assert time.monotonic() - started < GATHER_GAP_SECONDS / 2


def _statements_to_record(db: Database, size: int) -> int:
    jobs = _claimed(db, ["9" * 64] * size)
    recorder = Recorder(db, OWNER)
    entries = [_Entry(job, INVOICE if n % 2 else FAILED) for n, job in enumerate(jobs)]
    statements: list[str] = []

    def count(*args: Any) -> None:
        statements.append(str(args[2]))

    event.listen(db.engine, "before_cursor_execute", count)
    recorder._transaction(entries, one_by_one=False)
    event.remove(db.engine, "before_cursor_execute", count)
    assert _statuses(db, jobs) == ["failed", "completed"] * (size // 2)
    return len(statements)


def test_a_group_is_recorded_in_as_many_statements_whatever_its_size(db: Database) -> None:
    """No upload is loaded or flushed one by one: the held ones are locked in one
    statement, and the completed and the failed ones each moved in one UPDATE with their
    history rows in one INSERT."""
    assert _statements_to_record(db, 2) == _statements_to_record(db, 24)


def test_a_claim_takes_a_group_in_one_update(db: Database) -> None:
    company_id = make_tenant(db, "Claims").company_id
    with db.session() as session:
        uploads = [
            Upload(
                id=uuid.uuid4(),
                company_id=company_id,
                file_name=f"{n}.xml",
                document_type="auto",
                sha256=f"{n:064x}",
                size_bytes=1,
                attempts=0,
            )
            for n in range(12)
        ]
        upload_repo.add_uploads(session, [(upload, UploadStatus.QUEUED) for upload in uploads])
        session.commit()
    statements: list[str] = []
    event.listen(db.engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    with db.session() as session:
        claimed = work_repo.claim_uploads(session, OWNER, 10, timedelta(minutes=1))
        session.commit()
    writes = [s for s in statements if not s.lstrip().upper().startswith(("BEGIN", "SELECT"))]
    assert len(claimed) == 10
    assert [s.split()[0] for s in writes] in (["WITH", "INSERT"], ["UPDATE", "INSERT"]), writes

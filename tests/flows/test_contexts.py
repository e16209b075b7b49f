"""Two execution contexts beside the reading processes (issue 38): one dispatcher thread
talks to every reading process, and the recorder's thread books; a document in flight
is not a thread. Counted on real processes, a real database and Prefect server."""

from __future__ import annotations

import threading
import time

from fastapi.testclient import TestClient
from sqlalchemy import func, select

from flows.executor import DocumentExecutor
from flows.reader_process import ReaderLimits
from flows.work import WorkerEnv
from flows.worker import Worker
from storage.models import Upload
from testkit.samples import blank_pdf
from tests.api.helpers import make_zip, post_batch
from tests.conftest import Tenant

LIMITS = ReaderLimits(time_limit=20.0, cpu_seconds=20.0, memory_bytes=256 * 1024 * 1024)


def test_one_thread_serves_every_reading_process() -> None:
    before = set(threading.enumerate())
    executor = DocumentExecutor(processes=2, limits=LIMITS, compile_rules=False)
    try:
        executor.warm_up()
        # time.sleep: a callable the reading processes import without this module
        naps = [executor.submit(str(n), time.sleep, 0.5) for n in range(4)]
        assert [future.result(timeout=120) for future in naps] == [None] * 4
        assert len(executor.reader_pids()) == 3  # two and the express one
        new = [thread.name for thread in set(threading.enumerate()) - before]
    finally:
        executor.shutdown()
    assert [name for name in new if name.startswith("reader")] == ["reader-dispatch"], new


def test_documents_in_flight_are_not_threads(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    """Forty documents of four batches, sixteen in flight at a time: the worker's threads
    are its loops and a host per flow run, whatever the number of documents (a thread
    per document in flight used to wait for its reading process and its booking)."""
    for label in ("one", "two", "three", "four"):
        files = {f"{label}-{i}.pdf": blank_pdf(f"{label} {i}") for i in range(10)}
        answer = post_batch(api, company.headers, make_zip(files))
        assert answer.status_code == 202, answer.text
    before = set(threading.enumerate())
    seen: set[threading.Thread] = set()
    worker = Worker(env)

    def watch() -> None:
        while not worker.stop.is_set():
            seen.update(threading.enumerate())
            time.sleep(0.01)

    watcher = threading.Thread(target=watch)
    watcher.start()
    worker.run(idle_seconds=2.0)
    watcher.join()
    names = sorted(thread.name for thread in seen - before - {watcher})
    with env.db.read_session() as session:
        done = session.scalar(
            select(func.count()).select_from(Upload).where(Upload.status == "completed")
        )
    assert done == 40
    assert not [name for name in names if name.startswith(("read", "upload"))], names
    # Seen here: claims, heartbeat, recorder, work-news, four flow-run hosts, two
    # unpacking ahead, and eight of Prefect and the test client (18); a read thread per
    # document in flight made 8 loops and 16 a batch, two batches at once (40 and more).
    assert len(names) < 24, names

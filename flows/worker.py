"""A pipeline worker process: `docintake worker`.

Three loops share one process pool: single uploads (drain windows), batches (one flow
run each) and a heartbeat that extends the leases of the work in hand. Run as many
workers as you like, on as many machines: every claim is atomic in the database.
Infrastructure trouble (database or object store away) makes a loop back off and try
again; nothing is failed for it.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable

from prefect import tags

from flows import runtime
from flows.pipeline import process_batch, process_uploads
from flows.work import INFRASTRUCTURE_ERRORS, WorkerEnv, heartbeat, recover_singles
from storage.models import utcnow
from storage.repositories import work as work_repo

log = logging.getLogger(__name__)

IDLE_POLL_SECONDS = 0.1
RECOVERY_EVERY_SECONDS = 5.0
MAX_BACKOFF_SECONDS = 10.0


def _guarded(name: str, stop: threading.Event, step: Callable[[], bool]) -> None:
    """Run `step` until stopped; it returns True when it did work. Errors back off."""
    backoff = 0.5
    while not stop.is_set():
        try:
            busy = step()
            backoff = 0.5
        except INFRASTRUCTURE_ERRORS as exc:
            log.warning("%s: dependency unavailable (%s); retrying in %.1f s", name, exc, backoff)
            stop.wait(backoff)
            backoff = min(backoff * 2, MAX_BACKOFF_SECONDS)
            continue
        except Exception:
            log.exception("%s: unexpected error", name)
            stop.wait(backoff)
            backoff = min(backoff * 2, MAX_BACKOFF_SECONDS)
            continue
        if not busy:
            stop.wait(IDLE_POLL_SECONDS)


class Worker:
    def __init__(self, env: WorkerEnv) -> None:
        self.env = env
        self.stop = threading.Event()
        self.current_batch: uuid.UUID | None = None
        self._last_recovery = 0.0

    def singles_step(self) -> bool:
        now = time.monotonic()
        if now - self._last_recovery > RECOVERY_EVERY_SECONDS:
            recover_singles(self.env)
            self._last_recovery = now
        with self.env.db.read_session() as session:
            queued = work_repo.has_queued_singles(session)
        if not queued:
            return False
        with tags("single-uploads"):
            process_uploads(window=utcnow().strftime("%Y-%m-%dT%H:%M:%SZ"))
        return True

    def batch_step(self) -> bool:
        with self.env.db.session() as session:
            batch = work_repo.claim_batch(session, self.env.owner, self.env.lease)
            claimed = (batch.id, batch.company_id, batch.document_type) if batch else None
            session.commit()
        if claimed is None:
            return False
        batch_id, company_id, document_type = claimed
        self.current_batch = batch_id
        try:
            with tags("batch", f"company:{company_id}", f"document-type:{document_type}"):
                process_batch(str(batch_id))
        finally:
            self.current_batch = None
        return True

    def heartbeat_step(self) -> bool:
        heartbeat(self.env)
        batch_id = self.current_batch
        if batch_id is not None:
            with self.env.db.session() as session:
                work_repo.extend_batch_lease(session, batch_id, self.env.owner, self.env.lease)
                session.commit()
        self.stop.wait(self.env.lease.total_seconds() / 3)
        return True

    def run(self) -> None:
        loops = {
            "singles": self.singles_step,
            "batches": self.batch_step,
            "heartbeat": self.heartbeat_step,
        }
        threads = [
            threading.Thread(target=_guarded, args=(name, self.stop, step), name=name, daemon=True)
            for name, step in loops.items()
        ]
        for thread in threads:
            thread.start()
        try:
            while any(thread.is_alive() for thread in threads):
                self.stop.wait(0.5)
        finally:
            self.stop.set()
            for thread in threads:
                thread.join(timeout=30)


def start(processes: int | None = None) -> Worker:
    from storage.settings import get_settings

    env = runtime.build_env(get_settings(), processes)
    env.executor.warm_up()
    runtime.install(env)
    return Worker(env)

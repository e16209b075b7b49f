"""What waits in the queue, asked of the database at most once per poll interval however
many ask (flows/worker.py)."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable

from flows.work import WorkerEnv
from storage.models import utcnow
from storage.repositories import work as work_repo
from storage.work_news import BATCH, SINGLE

IDLE_POLL_SECONDS = 0.1


class WorkProbe:
    """What waits in the queue, by kind (`SINGLE`, `BATCH`), asked of the database at
    most once per poll interval however many loops ask (the singles loop and each batch
    loop used to ask on their own, ten times a second each). News of a kind answers for
    that kind without asking; the other kind's answer keeps its own age, so a stream of
    news of one kind never hides work of the other that nobody announced (a batch whose
    holder died)."""

    def __init__(
        self, env: WorkerEnv, poll_seconds: Callable[[], float] = lambda: IDLE_POLL_SECONDS
    ) -> None:
        """`poll_seconds`: the loops' poll interval now (longer while news is heard)."""
        self.env = env
        self.poll_seconds = poll_seconds
        self._lock = threading.Lock()
        self._asked_at = {SINGLE: -math.inf, BATCH: -math.inf}
        self._answers = {SINGLE: False, BATCH: False}

    def waits(self, kind: str) -> bool:
        with self._lock:
            if time.monotonic() - self._asked_at[kind] >= self.poll_seconds():
                with self.env.db.standalone_reads() as session:
                    found = work_repo.waiting_work(session, utcnow())
                self._answers = {SINGLE: found.singles, BATCH: found.batch}
                self._asked_at = dict.fromkeys(self._asked_at, time.monotonic())
            return self._answers[kind]

    def heard(self, kind: str) -> None:
        """News of new work of this kind; text of any other kind forgets both answers."""
        with self._lock:
            if kind in self._answers:
                self._answers[kind], self._asked_at[kind] = True, time.monotonic()
            else:
                self._asked_at = dict.fromkeys(self._asked_at, -math.inf)

    def forget(self) -> None:
        """After a claim: the next loop to ask sees the queue as it is now."""
        with self._lock:
            self._asked_at = dict.fromkeys(self._asked_at, -math.inf)

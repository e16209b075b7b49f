"""Where idle loops sleep: until their poll interval passes or news of work wakes them
(storage/work_news.py)."""

from __future__ import annotations

import threading
import time

from sqlalchemy import Engine

from storage.work_news import WorkListener, can_listen, concerns, hears

# A loop sleeping on news sees its stop event this often.
STOP_CHECK_SECONDS = 1.0


class Wakeup:
    """A loop passes the count it saw before its step, so news that came during the step
    ends its sleep at once instead of being missed."""

    def __init__(self) -> None:
        self._news = threading.Condition()
        self._count = 0

    def seen(self) -> int:
        with self._news:
            return self._count

    def wake(self) -> None:
        with self._news:
            self._count += 1
            self._news.notify_all()

    def sleep(self, seconds: float, seen: int) -> bool:
        """Whether news came (else the time passed)."""
        with self._news:
            return self._news.wait_for(lambda: self._count != seen, timeout=seconds)


class NewsWatch:
    """One loop woken by news of some kinds of work, where the database carries news (a
    `WorkListener` of its own). While it hears news the loop polls only for what nobody
    announces, so it may poll seldom."""

    def __init__(self, engine: Engine, kinds: tuple[str, ...]) -> None:
        self.kinds = kinds
        self.wakeup = Wakeup()
        self.listener = WorkListener(engine, self._heard).start() if can_listen(engine) else None

    def _heard(self, kind: str) -> None:
        if concerns(kind, self.kinds):
            self.wakeup.wake()

    def poll_seconds(self, without_news: float, with_news: float) -> float:
        return with_news if hears(self.listener) else without_news

    def sleep(self, seconds: float, seen: int, stop: threading.Event) -> None:
        """Until `seconds` pass, news comes or `stop` is set (seen within a second)."""
        until = time.monotonic() + seconds
        while not stop.is_set() and (left := until - time.monotonic()) > 0:
            if self.wakeup.sleep(min(left, STOP_CHECK_SECONDS), seen):
                return

    def __enter__(self) -> NewsWatch:
        return self

    def __exit__(self, *_exc: object) -> None:
        if self.listener is not None:
            self.listener.stop()

"""New work announced through Postgres (`NOTIFY`), so idle pipeline loops start at once.

The API announces a new single upload or batch in the transaction that inserts it
(`repositories.work.announce_work`):
Postgres delivers the notification when that transaction commits, and drops it when
it rolls back. A worker's `WorkListener` holds one connection that `LISTEN`s and calls
back on each notification, whichever host the worker runs on. On SQLite there is no
such channel: the loops keep polling (flows/worker.py).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

import psycopg
from sqlalchemy import Engine

log = logging.getLogger(__name__)

CHANNEL = "docintake_work"
RECONNECT_SECONDS = 2.0


def can_listen(engine: Engine) -> bool:
    return engine.dialect.name == "postgresql"


class WorkListener:
    """A thread that listens on the work channel and calls `on_news` for each
    notification. A lost connection is opened again after RECONNECT_SECONDS; until then
    the loops poll as before."""

    def __init__(self, engine: Engine, on_news: Callable[[], None]) -> None:
        url = engine.url.set(drivername="postgresql")
        self._conninfo = url.render_as_string(hide_password=False)
        self._on_news = on_news
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._listen_forever, name="work-news", daemon=True)
        self.listening = threading.Event()

    def start(self) -> WorkListener:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _listen_forever(self) -> None:
        while not self._stop.is_set():
            try:
                self._listen()
            except psycopg.Error as exc:
                log.warning("work announcements unavailable (%s); polling meanwhile", exc)
            self.listening.clear()
            self._stop.wait(RECONNECT_SECONDS)

    def _listen(self) -> None:
        with psycopg.connect(self._conninfo, autocommit=True, connect_timeout=5) as connection:
            connection.execute(f"LISTEN {CHANNEL}")
            self.listening.set()
            log.info("listening for new work on channel %s", CHANNEL)
            while not self._stop.is_set():
                # Wakes at least once a second to see whether it was stopped.
                for _ in connection.notifies(timeout=1.0):
                    self._on_news()

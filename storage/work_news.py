"""New work announced to idle loops, so they start at once instead of at their next poll.

The API announces a new single upload or batch in the transaction that inserts it, the
webhook outbox the deliveries it adds (`repositories.news.announce_work`); the news goes
out only if that transaction commits.
- Postgres: `pg_notify`, which Postgres delivers at commit and drops on rollback, on a
  channel of the schema's own (`CHANNEL_SQL`): stacks in other schemas of the same
  database do not hear each other. A worker's `WorkListener` holds one connection that
  `LISTEN`s, whichever host it is on.
- SQLite (the embedded stack, one machine): after the commit, one datagram to each
  listener's Unix socket in a folder beside the database file (`<db>.news/`). A socket
  nobody serves any more (its worker died) is removed by the next sender.
Each piece of news names its kind (`SINGLE`, `BATCH`, `WEBHOOK`), so a process wakes
only the loops that take that kind: the pipeline's loops (flows/worker.py), the
dispatcher (single uploads and batches) and the webhook sender. Without news they poll
as before; news only makes them early, so while they hear it they poll seldom.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
import uuid
from collections.abc import Callable
from pathlib import Path

import psycopg
from sqlalchemy import Engine, event
from sqlalchemy.engine import URL
from sqlalchemy.orm import Session

log = logging.getLogger(__name__)

# The channel of the connection's schema, worked out by Postgres on both sides (a
# channel name is at most 63 bytes; a schema name may be as long).
CHANNEL_SQL = "'docintake_work_' || left(md5(current_schema()), 16)"
SINGLE = "single"
BATCH = "batch"
WEBHOOK = "webhook"
KINDS = (SINGLE, BATCH, WEBHOOK)
RECONNECT_SECONDS = 2.0
_PENDING = "docintake.work_news"
MAX_SOCKET_PATH = 107  # bytes of a Unix socket's path on Linux, without the final NUL


def local_folder(url: URL) -> Path | None:
    """Where the listeners of a SQLite database file keep their sockets."""
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    return Path(f"{url.database}.news")


def can_listen(engine: Engine) -> bool:
    return engine.dialect.name == "postgresql" or local_folder(engine.url) is not None


def tell_after_commit(session: Session, folder: Path, kind: str) -> None:
    """SQLite: send the news once this session's transaction has committed."""
    _, kinds = session.info.setdefault(_PENDING, (folder, set()))
    kinds.add(kind)


@event.listens_for(Session, "after_commit")
def _send_pending(session: Session) -> None:
    pending = session.info.pop(_PENDING, None)
    if pending is not None:
        folder, kinds = pending
        for kind in sorted(kinds):
            tell_local_listeners(folder, kind)


@event.listens_for(Session, "after_rollback")
def _drop_pending(session: Session) -> None:
    session.info.pop(_PENDING, None)


def tell_local_listeners(folder: Path, kind: str) -> None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sender:
        sender.setblocking(False)
        for path in folder.glob("*.sock"):  # none while no worker ever listened
            try:
                sender.sendto(kind.encode(), str(path))
            except (ConnectionRefusedError, FileNotFoundError):
                path.unlink(missing_ok=True)  # its listener is gone
            except OSError:  # a full buffer: that listener has news waiting already
                pass


def hears(listener: WorkListener | None) -> bool:
    """Whether news reaches a loop now (a listener, connected); if not, it polls often."""
    return listener is not None and listener.listening.is_set()


def concerns(kind: str, mine: tuple[str, ...]) -> bool:
    """Whether news of `kind` is for a listener that takes `mine`: one of them, or a
    kind this version does not know (a sender of another version)."""
    return kind in mine or kind not in KINDS


class WorkListener:
    """A thread that receives the news and calls `on_news` with the kind of each (any
    other text, from a sender of another version, is taken as any kind: see `concerns`).
    A lost connection is opened again after RECONNECT_SECONDS; until then the loops poll
    as before."""

    def __init__(self, engine: Engine, on_news: Callable[[str], None]) -> None:
        self._url = engine.url
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
        folder = local_folder(self._url)
        while not self._stop.is_set():
            try:
                if folder is None:
                    self._listen_to_postgres()
                else:
                    self._listen_on_socket(folder)
            except (psycopg.Error, OSError) as exc:
                log.warning("work announcements unavailable (%s); polling meanwhile", exc)
            self.listening.clear()
            self._stop.wait(RECONNECT_SECONDS)

    def _listen_to_postgres(self) -> None:
        conninfo = self._url.set(drivername="postgresql").render_as_string(hide_password=False)
        with psycopg.connect(conninfo, autocommit=True, connect_timeout=5) as connection:
            row = connection.execute(f"SELECT {CHANNEL_SQL}").fetchone()
            assert row is not None
            channel = str(row[0])  # a fixed prefix and hex digits
            connection.execute(f'LISTEN "{channel}"')
            self._listening(channel)
            while not self._stop.is_set():
                # Wakes at least once a second to see whether it was stopped.
                for notice in connection.notifies(timeout=1.0):
                    self._on_news(notice.payload)

    def _listen_on_socket(self, folder: Path) -> None:
        folder.mkdir(mode=0o700, exist_ok=True)
        path = folder / f"{uuid.uuid4().hex[:12]}.sock"
        if len(str(path).encode()) > MAX_SOCKET_PATH:
            log.warning("no work announcements: the path %s is too long for a socket", path)
            self._stop.wait()  # poll only, for good
            return
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as receiver:
            receiver.bind(str(path))
            receiver.settimeout(1.0)
            self._listening(str(path))
            try:
                while not self._stop.is_set():
                    with contextlib.suppress(TimeoutError):
                        self._on_news(receiver.recv(64).decode(errors="replace"))
            finally:
                path.unlink(missing_ok=True)

    def _listening(self, where: str) -> None:
        self.listening.set()
        log.info("listening for new work on %s", where)

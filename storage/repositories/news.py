"""Announcing news to listening processes (storage/work_news.py) in the transaction
that causes it: it goes out only if that transaction commits."""

from __future__ import annotations

from sqlalchemy import Engine, text
from sqlalchemy.orm import Session

from storage import work_news


def announce_work(session: Session, kind: str) -> None:
    """Tell listeners, once this transaction commits, that work of this kind waits
    (`work_news.SINGLE`, `BATCH`, `WEBHOOK`)."""
    engine = session.get_bind().engine
    if engine.dialect.name == "postgresql":
        session.execute(text(f"SELECT pg_notify({work_news.CHANNEL_SQL}, :kind)"), {"kind": kind})
    elif (folder := work_news.local_folder(engine.url)) is not None:
        work_news.tell_after_commit(session, folder, kind)


def announce_committed(engine: Engine, kind: str) -> None:
    """SQLite: tell listeners now of work a Core transaction has just committed (on
    Postgres `pg_notify` went with that transaction)."""
    if engine.dialect.name != "postgresql" and (folder := work_news.local_folder(engine.url)):
        work_news.tell_local_listeners(folder, kind)

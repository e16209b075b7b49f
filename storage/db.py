"""Engine and sessions. Only the request or task boundary commits."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, Select, create_engine, event, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, sessionmaker

from storage.errors import ServiceUnavailable

Rows = TypeVar("Rows", bound=tuple[Any, ...])


def locked(session: Session, statement: Select[Rows], skip_locked: bool = False) -> Select[Rows]:
    """Row locks on Postgres (`FOR UPDATE`, optionally `SKIP LOCKED`). SQLite needs none:
    every writer takes the database's write lock at `BEGIN IMMEDIATE`."""
    if session.get_bind().dialect.name == "postgresql":
        return statement.with_for_update(skip_locked=skip_locked)
    return statement


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


READ_ONLY = "docintake_read_only"


def _sqlite_begin(connection: Any) -> None:
    # Writers take the write lock at BEGIN, so two writers wait on busy_timeout instead
    # of failing with "database is locked" when a read transaction tries to upgrade.
    # Readers stay deferred: in WAL mode they never block anyone.
    read_only = connection.get_execution_options().get(READ_ONLY, False)
    connection.exec_driver_sql("BEGIN" if read_only else "BEGIN IMMEDIATE")


def make_engine(url: str, **kwargs: Any) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(
            url, connect_args={"check_same_thread": False, "isolation_level": None}, **kwargs
        )
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    kwargs.setdefault("pool_size", 10)
    kwargs.setdefault("max_overflow", 20)
    # No ping before each checkout: it is a round trip per session, a third of a poll's
    # (measured: batch GET p99 under load 25-88 ms with it, 32-40 ms without). After a
    # database restart the first statement on a stale connection fails (503 for that
    # request, a back-off for a worker loop) and SQLAlchemy discards the whole pool.
    kwargs.setdefault("pool_recycle", 1800)
    return create_engine(url, **kwargs)


class Database:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sessions = sessionmaker(bind=engine, expire_on_commit=False)
        self.read_sessions = sessionmaker(
            bind=engine.execution_options(**{READ_ONLY: True}), expire_on_commit=False
        )
        self._standalone_bind = (
            engine.execution_options(**{READ_ONLY: True})
            if self.is_sqlite
            else engine.execution_options(isolation_level="AUTOCOMMIT")
        )
        self.standalone_read_sessions = (
            self.read_sessions
            if self.is_sqlite
            else sessionmaker(bind=self._standalone_bind, expire_on_commit=False)
        )
        self._bound: Connection | None = None

    @classmethod
    def bound_to(cls, connection: Connection) -> Database:
        """Sessions that join the connection's open transaction through savepoints, so a
        caller (the test suite) can roll back everything they committed."""
        database = cls.__new__(cls)
        database.engine = connection.engine
        database.sessions = sessionmaker(
            bind=connection, expire_on_commit=False, join_transaction_mode="create_savepoint"
        )
        database.read_sessions = database.sessions
        database.standalone_read_sessions = database.sessions
        database._bound = connection
        return database

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session for one unit of work; the caller commits, anything else rolls back."""
        session = self.sessions()
        try:
            yield session
        finally:
            session.close()

    @contextmanager
    def read_session(self) -> Iterator[Session]:
        """A session that only reads; on SQLite it never takes the write lock."""
        session = self.read_sessions()
        try:
            yield session
        finally:
            session.close()

    @contextmanager
    def standalone_reads(self) -> Iterator[Session]:
        """A session whose reads each stand alone. On Postgres every statement is its own
        transaction (autocommit): a poll is one round trip instead of three (BEGIN, the
        statement, ROLLBACK), each of which waits for a busy server. Under READ COMMITTED
        a transaction would not hold one snapshot across statements either. Not for
        streamed results: a server-side cursor lives only inside a transaction."""
        session = self.standalone_read_sessions()
        try:
            yield session
        finally:
            session.close()

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """A Core transaction without an ORM session, committed when the block ends,
        rolled back on an error (for the single upload's claim: a session's bookkeeping
        cost about 150 us of its 400, SQLite)."""
        if self._bound is not None:
            with self._bound.begin_nested():
                yield self._bound
            return
        with self.engine.begin() as connection:
            yield connection

    @contextmanager
    def standalone_connection(self) -> Iterator[Connection]:
        """`standalone_reads` without an ORM session, for one Core statement that every
        request runs (the API key): a session's own bookkeeping cost more than the
        statement (about 35 of 95 us on SQLite)."""
        if self._bound is not None:
            yield self._bound
            return
        with self._standalone_bind.connect() as connection:
            yield connection

    def ping(self) -> None:
        try:
            with self.read_session() as session:
                session.execute(text("SELECT 1"))
        except DBAPIError as exc:
            raise ServiceUnavailable("database does not answer") from exc

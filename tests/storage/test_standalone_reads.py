"""Standalone reads: on Postgres each statement is its own transaction, so a poll makes
one round trip; the pooled connection is transactional again for the next session."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import psycopg
import pytest
from psycopg.pq import TransactionStatus
from sqlalchemy import Engine, text
from sqlalchemy.orm import Session

from storage.db import Database, make_engine
from testkit.databases import POSTGRES_URL, migrated_sqlite


@pytest.fixture
def postgres() -> Iterator[Database]:
    engine = make_engine(POSTGRES_URL, pool_size=1, max_overflow=0)
    try:
        yield Database(engine)
    finally:
        engine.dispose()


def _transaction_status(session: Session) -> TransactionStatus:
    driver = cast(psycopg.Connection[Any], session.connection().connection.driver_connection)
    return driver.info.transaction_status


def test_a_standalone_read_leaves_no_transaction_open(postgres: Database) -> None:
    with postgres.standalone_reads() as session:
        assert session.execute(text("SELECT 1")).scalar_one() == 1
        assert _transaction_status(session) is TransactionStatus.IDLE


def test_other_sessions_on_the_same_connection_are_transactions_again(
    postgres: Database,
) -> None:
    with postgres.standalone_reads() as session:
        session.execute(text("SELECT 1"))
    for factory in (postgres.read_session, postgres.session):
        with factory() as session:
            session.execute(text("SELECT 1"))
            assert _transaction_status(session) is TransactionStatus.INTRANS


def test_statements_of_one_standalone_session_each_see_the_latest_commit(
    postgres: Database,
) -> None:
    with postgres.standalone_reads() as reader:
        first = reader.execute(text("SELECT txid_current()")).scalar_one()
        second = reader.execute(text("SELECT txid_current()")).scalar_one()
    assert second > first  # two transactions, not one


def test_on_sqlite_standalone_reads_do_not_wait_for_a_writer(tmp_path: Path) -> None:
    with migrated_sqlite(tmp_path) as engine:
        _read_while_writing(engine)


def _read_while_writing(engine: Engine) -> None:
    database = Database(engine)
    with database.session() as writer:
        writer.execute(text("CREATE TABLE t (x INTEGER)"))  # holds the write lock
        with database.standalone_reads() as reader:
            assert reader.execute(text("SELECT count(*) FROM uploads")).scalar_one() == 0
        writer.rollback()


def test_a_standalone_connection_leaves_no_transaction_open(postgres: Database) -> None:
    with postgres.standalone_connection() as connection:
        assert connection.execute(text("SELECT 1")).scalar_one() == 1
        driver = cast(psycopg.Connection[Any], connection.connection.driver_connection)
        assert driver.info.transaction_status is TransactionStatus.IDLE
    with postgres.session() as session:
        session.execute(text("SELECT 1"))
        assert _transaction_status(session) is TransactionStatus.INTRANS


def test_on_sqlite_a_standalone_connection_does_not_wait_for_a_writer(tmp_path: Path) -> None:
    with migrated_sqlite(tmp_path) as engine:
        database = Database(engine)
        with database.session() as writer:
            writer.execute(text("CREATE TABLE t (x INTEGER)"))  # holds the write lock
            with database.standalone_connection() as reader:
                assert reader.execute(text("SELECT count(*) FROM uploads")).scalar_one() == 0
            writer.rollback()


def test_a_database_bound_to_a_connection_reads_through_it(postgres: Database) -> None:
    with postgres.engine.connect() as outer:
        outer.execute(text("CREATE TEMPORARY TABLE seen_only_here (x INTEGER)"))
        with Database.bound_to(outer).standalone_connection() as connection:
            assert connection is outer
            assert connection.execute(text("SELECT count(*) FROM seen_only_here")).scalar_one() == 0
        outer.rollback()

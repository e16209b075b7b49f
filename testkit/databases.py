"""Test databases: a SQLite file, or a fresh schema in the real Postgres."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine, text

from storage.db import make_engine
from storage.migrate import upgrade

POSTGRES_URL = os.environ.get(
    "DOCINTAKE_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)


def postgres_reachable() -> bool:
    engine = make_engine(POSTGRES_URL, pool_size=1)
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        return True
    except Exception:
        return False
    finally:
        engine.dispose()


@contextmanager
def migrated_postgres(**engine_kwargs: object) -> Iterator[Engine]:
    """A schema of its own in the test database, migrated, dropped afterwards."""
    schema = f"test_{uuid.uuid4().hex[:12]}"
    admin = make_engine(POSTGRES_URL, pool_size=1)
    with admin.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    # The schema is in the URL itself, so another process can use the same database.
    separator = "&" if "?" in POSTGRES_URL else "?"
    engine = make_engine(
        f"{POSTGRES_URL}{separator}options=-csearch_path%3D{schema}", **engine_kwargs
    )
    try:
        upgrade(engine)
        yield engine
    finally:
        engine.dispose()
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@contextmanager
def migrated_sqlite(directory: Path) -> Iterator[Engine]:
    engine = make_engine(f"sqlite:///{directory / f'{uuid.uuid4().hex}.db'}")
    try:
        upgrade(engine)
        yield engine
    finally:
        engine.dispose()

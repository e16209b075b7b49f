"""The migrations build exactly the schema the models describe, on both databases."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Engine

from storage.models import Base


def test_migrated_schema_matches_the_models(fresh_engine: Engine) -> None:
    with fresh_engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    assert differences == []

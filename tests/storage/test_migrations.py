"""The migrations build exactly the schema the models describe, on both databases."""

from __future__ import annotations

import uuid

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection, Engine, text

from storage.migrate import alembic_config
from storage.models import Base
from storage.secret_box import SecretBox
from storage.settings import get_settings


def test_migrated_schema_matches_the_models(fresh_engine: Engine) -> None:
    with fresh_engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    assert differences == []


def test_existing_webhook_secrets_are_sealed_by_the_migration(fresh_engine: Engine) -> None:
    """Back to 0006 (plain secrets), a row, forward: sealed; back again: plain."""
    config = alembic_config(fresh_engine.url.render_as_string(hide_password=False))
    plain = "whsec_" + "A" * 43 + "="
    with fresh_engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0006")
        _insert_plain_endpoint(connection, uuid.uuid4(), uuid.uuid4(), plain)
        command.upgrade(config, "head")
        (row,) = connection.execute(text("SELECT * FROM webhook_endpoints")).mappings()
        assert "secret" not in row and plain[6:] not in str(dict(row))
        assert SecretBox.for_webhooks(get_settings()).open(row["sealed_secret"]) == plain
        command.downgrade(config, "0006")
        assert connection.execute(text("SELECT secret FROM webhook_endpoints")).scalar() == plain
        command.upgrade(config, "head")


def _insert_plain_endpoint(
    connection: Connection, company_id: uuid.UUID, endpoint_id: uuid.UUID, secret: str
) -> None:
    connection.execute(
        text(
            "INSERT INTO companies (id, name, vat_ids, ibans, locale, created_at)"
            " VALUES (:id, 'A', '[]', '[]', 'de', :at)"
        ),
        {"id": company_id.hex, "at": "2026-01-01 00:00:00"},
    )
    connection.execute(
        text(
            "INSERT INTO webhook_endpoints (id, company_id, url, events, secret, created_at)"
            " VALUES (:id, :company, 'http://h/', '[]', :secret, :at)"
        ),
        {"id": endpoint_id.hex, "company": company_id.hex, "secret": secret, "at": "2026-01-01"},
    )

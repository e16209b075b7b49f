"""webhook secrets sealed at rest, secret rotation, deliveries in flight

Revision ID: 0009
Revises: 0007
Create Date: 2026-11-28 13:40:00

`webhook_endpoints.secret` (plain text) becomes `sealed_secret`: every existing secret is
sealed here under the key derived from DOCINTAKE_SECRET_KEY (storage/secret_box.py), so
the migration must run with the production settings. `sealed_previous_secret` and
`previous_secret_until` hold a rotated secret while it still signs.
`webhook_deliveries.leased_until` marks a delivery a sender holds (an attempt in flight).
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa
from alembic import op

from storage.secret_box import SEALED_LENGTH, SecretBox
from storage.settings import get_settings

revision = "0009"
down_revision = "0007"
branch_labels = None
depends_on = None

ENDPOINTS = sa.table(
    "webhook_endpoints",
    sa.column("id", sa.Uuid()),
    sa.column("secret", sa.String()),
    sa.column("sealed_secret", sa.String()),
)


def upgrade() -> None:
    with op.batch_alter_table("webhook_endpoints", schema=None) as batch_op:
        batch_op.add_column(sa.Column("sealed_secret", sa.String(SEALED_LENGTH), nullable=True))
        batch_op.add_column(
            sa.Column("sealed_previous_secret", sa.String(SEALED_LENGTH), nullable=True)
        )
        batch_op.add_column(
            sa.Column("previous_secret_until", sa.DateTime(timezone=True), nullable=True)
        )
    _convert("secret", "sealed_secret", SecretBox.for_webhooks(get_settings()).seal)
    with op.batch_alter_table("webhook_endpoints", schema=None) as batch_op:
        batch_op.alter_column(
            "sealed_secret", existing_type=sa.String(SEALED_LENGTH), nullable=False
        )
        batch_op.drop_column("secret")
    with op.batch_alter_table("webhook_deliveries", schema=None) as batch_op:
        batch_op.add_column(sa.Column("leased_until", sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index("ix_webhook_deliveries_leased_until", ["leased_until"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("webhook_deliveries", schema=None) as batch_op:
        batch_op.drop_index("ix_webhook_deliveries_leased_until")
        batch_op.drop_column("leased_until")
    with op.batch_alter_table("webhook_endpoints", schema=None) as batch_op:
        batch_op.add_column(sa.Column("secret", sa.String(64), nullable=True))
    _convert("sealed_secret", "secret", SecretBox.for_webhooks(get_settings()).open)
    with op.batch_alter_table("webhook_endpoints", schema=None) as batch_op:
        batch_op.alter_column("secret", existing_type=sa.String(64), nullable=False)
        batch_op.drop_column("previous_secret_until")
        batch_op.drop_column("sealed_previous_secret")
        batch_op.drop_column("sealed_secret")


def _convert(source: str, target: str, change: Callable[[str], str]) -> None:
    connection = op.get_bind()
    rows = connection.execute(sa.select(ENDPOINTS.c.id, ENDPOINTS.c[source])).all()
    for endpoint_id, value in rows:
        connection.execute(
            sa.update(ENDPOINTS)
            .where(ENDPOINTS.c.id == endpoint_id)
            .values({target: change(value)})
        )

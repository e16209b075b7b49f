"""status history: events that keep the status (a deleted upload purged)

Revision ID: 0010
Revises: 0006
Create Date: 2026-11-28 13:30:00

`status_history.event` is null for every status change (every row before this);
`purged` marks the row written when a deleted upload's stored bytes and result data
were removed after the retention period (storage/retention.py, docs/retention.md).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("status_history", schema=None) as batch_op:
        batch_op.add_column(sa.Column("event", sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("status_history", schema=None) as batch_op:
        batch_op.drop_column("event")

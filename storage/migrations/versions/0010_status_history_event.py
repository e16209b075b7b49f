"""retention: status history events (a deleted upload purged), the purge's index

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-28 13:30:00

`status_history.event` is null for every status change (every row before this);
`purged` marks the row written when a deleted upload's stored bytes and result data
were removed after the retention period (storage/retention.py, docs/retention.md).
`ix_uploads_deleted_with_bytes` holds the deleted uploads that still have stored bytes,
the purge's candidates, so its hourly look stays small however many were purged.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


_DELETED_WITH_BYTES = sa.text("status = 'deleted' AND object_key IS NOT NULL")


def upgrade() -> None:
    with op.batch_alter_table("status_history", schema=None) as batch_op:
        batch_op.add_column(sa.Column("event", sa.String(length=16), nullable=True))
    with op.batch_alter_table("uploads", schema=None) as batch_op:
        batch_op.create_index(
            "ix_uploads_deleted_with_bytes",
            ["id"],
            sqlite_where=_DELETED_WITH_BYTES,
            postgresql_where=_DELETED_WITH_BYTES,
        )


def downgrade() -> None:
    with op.batch_alter_table("uploads", schema=None) as batch_op:
        batch_op.drop_index(
            "ix_uploads_deleted_with_bytes",
            sqlite_where=_DELETED_WITH_BYTES,
            postgresql_where=_DELETED_WITH_BYTES,
        )
    with op.batch_alter_table("status_history", schema=None) as batch_op:
        batch_op.drop_column("event")

"""reader crashes: the blame counters of uploads and batches

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24 02:45:00

`attempts` counts how often a worker took the work in hand (any worker death makes
another take). `crashes` counts only the deaths of the process that was reading that
document or unpacking that archive: the work's own fault, capped (flows/executor.py).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for table in ("uploads", "batches"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(
                sa.Column("crashes", sa.Integer(), nullable=False, server_default="0")
            )


def downgrade() -> None:
    for table in ("uploads", "batches"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column("crashes")

"""store waits: a company's uploads wait while the object store is in trouble

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-28 13:40:00

When the object store does not hand over a company's file (away, too slow, an error
such as AccessDenied), none of the company's uploads is claimed before
`companies.store_wait_until`. `store_wait_seconds` is the last wait: 1 s at first,
doubled while the trouble lasts, at most 60 s (flows/work.py).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("companies", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("store_wait_until", sa.DateTime(timezone=True), nullable=True)
        )
        batch_op.add_column(
            sa.Column("store_wait_seconds", sa.Float(), nullable=False, server_default="0")
        )


def downgrade() -> None:
    # Not a batch: SQLite would copy `companies`, which other tables' rows point at.
    op.drop_column("companies", "store_wait_seconds")
    op.drop_column("companies", "store_wait_until")

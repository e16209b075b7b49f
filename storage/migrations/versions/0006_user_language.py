"""user language: the web application's language each user chose

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26 14:40:00

`users.language` is "de" or "en"; null (every user before this) follows the company's
locale, which is German unless the company chose English.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("language", sa.String(length=8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("language")

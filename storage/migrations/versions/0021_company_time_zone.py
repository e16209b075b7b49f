"""a company's time zone: the web application shows times in it

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-28 19:45:00

`companies.time_zone` is an IANA zone name (zoneinfo), Europe/Berlin unless the company
chose another in its settings (api/web/settings_pages.py, docs/webapp.md "Times").
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Not a batch: SQLite would copy `companies`, which other tables' rows point at.
    op.add_column(
        "companies",
        sa.Column(
            "time_zone", sa.String(length=64), server_default="Europe/Berlin", nullable=False
        ),
    )


def downgrade() -> None:
    op.drop_column("companies", "time_zone")

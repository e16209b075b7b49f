"""results: one live result per content and result type

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30 10:00:00

A file filed as an other document and later sent as `bank_statement` is read again
(storage/idempotency.py, `may_reuse`), and its statement import is a second live result
of the same content. The same content is still booked once per result type.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_LIVE = sa.text("deleted_at IS NULL")


def upgrade() -> None:
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.drop_index("uq_results_company_sha256", sqlite_where=_LIVE, postgresql_where=_LIVE)
        batch_op.create_index(
            "uq_results_company_sha256_type",
            ["company_id", "sha256", "type"],
            unique=True,
            sqlite_where=_LIVE,
            postgresql_where=_LIVE,
        )


def downgrade() -> None:
    """Fails while a content has live results of two types: delete one of them first."""
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.drop_index(
            "uq_results_company_sha256_type", sqlite_where=_LIVE, postgresql_where=_LIVE
        )
        batch_op.create_index(
            "uq_results_company_sha256",
            ["company_id", "sha256"],
            unique=True,
            sqlite_where=_LIVE,
            postgresql_where=_LIVE,
        )

"""results: a change sequence per company, for the results API's sync listing

Revision ID: 0012
Revises: 0010
Create Date: 2026-11-28 14:00:00

`results.change_seq` is set from the company's counter `companies.result_changes` each
time a result is created, deleted or confirmed (storage/result_changes.py);
`results.updated_at` is when. Existing results are numbered in the order they were
made, per company.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0010"
branch_labels = None
depends_on = None

_NUMBERED = sa.text(
    "UPDATE results SET change_seq = (SELECT numbered.n FROM (SELECT id, row_number() OVER"
    " (PARTITION BY company_id ORDER BY created_at, id) AS n FROM results) AS numbered"
    " WHERE numbered.id = results.id), updated_at = COALESCE(deleted_at, created_at)"
)
_COUNTED = sa.text(
    "UPDATE companies SET result_changes ="
    " (SELECT count(*) FROM results WHERE results.company_id = companies.id)"
)


def upgrade() -> None:
    with op.batch_alter_table("companies", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("result_changes", sa.BigInteger(), nullable=False, server_default="0")
        )
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("change_seq", sa.BigInteger(), nullable=False, server_default="0")
        )
        batch_op.add_column(sa.Column("updated_at", sa.DateTime(timezone=True), nullable=True))
    op.execute(_NUMBERED)
    op.execute(_COUNTED)
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.create_index(
            "ix_results_company_change_seq", ["company_id", "change_seq"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.drop_index("ix_results_company_change_seq")
        batch_op.drop_column("updated_at")
        batch_op.drop_column("change_seq")
    # Not a batch: SQLite would copy `companies`, which other tables' rows point at.
    op.drop_column("companies", "result_changes")

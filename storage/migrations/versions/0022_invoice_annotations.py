"""invoice annotations: notes on an invoice, an e-invoice's XML staying untouched

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-28 21:00:00

`invoice_annotations` holds one row per note added to an invoice result in the web
application (text up to 2,000 characters, who, when; storage/approval_models.py,
docs/webapp.md). The rows go with the result when that is purged (ON DELETE CASCADE).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "invoice_annotations",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("result_id", sa.Uuid(), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("text", sa.String(length=2000), nullable=False),
        sa.ForeignKeyConstraint(
            ["result_id"],
            ["results.id"],
            name=op.f("fk_invoice_annotations_result_id_results"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_invoice_annotations_user_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_invoice_annotations")),
    )
    with op.batch_alter_table("invoice_annotations", schema=None) as batch_op:
        batch_op.create_index("ix_invoice_annotations_result", ["result_id", "at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("invoice_annotations", schema=None) as batch_op:
        batch_op.drop_index("ix_invoice_annotations_result")
    op.drop_table("invoice_annotations")

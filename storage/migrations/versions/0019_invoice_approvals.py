"""invoice approvals and corrections: approving an invoice, withdrawing an approval,
correcting a PDF invoice's fields, each with a trail

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-28 18:00:00

`invoice_approvals` holds one row per approval or withdrawal of an invoice result (who,
when, approved or withdrawn; storage/approval_models.py, docs/webapp.md);
`invoice_corrections` one row per corrected field (old and new value, who, when). Both
go with the result when that is purged (ON DELETE CASCADE).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "invoice_approvals",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("result_id", sa.Uuid(), nullable=False),
        sa.Column("approved", sa.Boolean(), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["result_id"],
            ["results.id"],
            name=op.f("fk_invoice_approvals_result_id_results"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_invoice_approvals_user_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_invoice_approvals")),
    )
    with op.batch_alter_table("invoice_approvals", schema=None) as batch_op:
        batch_op.create_index("ix_invoice_approvals_result", ["result_id", "at"], unique=False)
    op.create_table(
        "invoice_corrections",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("result_id", sa.Uuid(), nullable=False),
        sa.Column("field", sa.String(length=32), nullable=False),
        sa.Column("old_value", sa.Text(), nullable=True),
        sa.Column("new_value", sa.Text(), nullable=True),
        sa.Column("user_id", sa.Uuid(), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["result_id"],
            ["results.id"],
            name=op.f("fk_invoice_corrections_result_id_results"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_invoice_corrections_user_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_invoice_corrections")),
    )
    with op.batch_alter_table("invoice_corrections", schema=None) as batch_op:
        batch_op.create_index("ix_invoice_corrections_result", ["result_id", "at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("invoice_corrections", schema=None) as batch_op:
        batch_op.drop_index("ix_invoice_corrections_result")
    op.drop_table("invoice_corrections")
    with op.batch_alter_table("invoice_approvals", schema=None) as batch_op:
        batch_op.drop_index("ix_invoice_approvals_result")
    op.drop_table("invoice_approvals")

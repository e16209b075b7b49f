"""payment matches: confirmed statement transactions proposed as invoice payments

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-28 17:00:00

`payment_matches` holds each proposal (a transaction of a confirmed statement, the
invoice it pays, the part of the amount, the score and its reasons) and the
accountant's decision (storage/payment_match_models.py, docs/checks.md). It goes with
either result when that is purged (ON DELETE CASCADE).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "payment_matches",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("company_id", sa.Uuid(), nullable=False),
        sa.Column("statement_result_id", sa.Uuid(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("invoice_result_id", sa.Uuid(), nullable=False),
        sa.Column("amount", sa.Numeric(precision=18, scale=2), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("reasons", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decided_by", sa.Uuid(), nullable=True),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["company_id"], ["companies.id"], name=op.f("fk_payment_matches_company_id_companies")
        ),
        sa.ForeignKeyConstraint(
            ["statement_result_id"],
            ["results.id"],
            name=op.f("fk_payment_matches_statement_result_id_results"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["invoice_result_id"],
            ["results.id"],
            name=op.f("fk_payment_matches_invoice_result_id_results"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["decided_by"], ["users.id"], name=op.f("fk_payment_matches_decided_by_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_payment_matches")),
        sa.UniqueConstraint(
            "statement_result_id", "position", "invoice_result_id", name="uq_payment_matches_pair"
        ),
    )
    with op.batch_alter_table("payment_matches", schema=None) as batch_op:
        batch_op.create_index("ix_payment_matches_invoice", ["invoice_result_id"], unique=False)
        batch_op.create_index(
            "ix_payment_matches_company_status", ["company_id", "status"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("payment_matches", schema=None) as batch_op:
        batch_op.drop_index("ix_payment_matches_company_status")
        batch_op.drop_index("ix_payment_matches_invoice")
    op.drop_table("payment_matches")

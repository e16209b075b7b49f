"""vat confirmations: online answers of eVatR or VIES on foreign VAT ids

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-28 18:00:00

`vat_confirmations` keeps each answer (service, status, request id, name/place/postcode/
street comparison) with the invoice result it was asked for, as proof, and serves as the
cache of the same question (storage/vat_confirmation_models.py, docs/checks.md). It goes
with the result when that is purged (ON DELETE CASCADE).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "vat_confirmations",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("company_id", sa.Uuid(), nullable=False),
        sa.Column("result_id", sa.Uuid(), nullable=False),
        sa.Column("party", sa.String(length=8), nullable=False),
        sa.Column("query_key", sa.String(length=500), nullable=False),
        sa.Column("service", sa.String(length=8), nullable=False),
        sa.Column("confirmed", sa.String(length=16), nullable=False),
        sa.Column("answer", sa.JSON(), nullable=False),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("cached", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["company_id"], ["companies.id"], name=op.f("fk_vat_confirmations_company_id_companies")
        ),
        sa.ForeignKeyConstraint(
            ["result_id"],
            ["results.id"],
            name=op.f("fk_vat_confirmations_result_id_results"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_vat_confirmations")),
    )
    with op.batch_alter_table("vat_confirmations", schema=None) as batch_op:
        batch_op.create_index("ix_vat_confirmations_result", ["result_id"], unique=False)
        batch_op.create_index(
            "ix_vat_confirmations_cache", ["company_id", "query_key", "answered_at"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("vat_confirmations", schema=None) as batch_op:
        batch_op.drop_index("ix_vat_confirmations_cache")
        batch_op.drop_index("ix_vat_confirmations_result")
    op.drop_table("vat_confirmations")

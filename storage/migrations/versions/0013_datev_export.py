"""datev: the company's DATEV settings, and the record of DATEV exports

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28 14:10:00

`companies.datev` holds the DATEV settings as JSON (null: not set up).
`datev_exports` records each export (who, when, period, format); `datev_export_results`
the results it held, so an export marks a result that was exported before.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("companies", schema=None) as batch_op:
        batch_op.add_column(sa.Column("datev", sa.JSON(), nullable=True))
    op.create_table(
        "datev_exports",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("company_id", sa.Uuid(), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=True),
        sa.Column("api_key_id", sa.Uuid(), nullable=True),
        sa.Column("format", sa.String(length=16), nullable=False),
        sa.Column("period_from", sa.Date(), nullable=False),
        sa.Column("period_to", sa.Date(), nullable=False),
        sa.Column("included_held", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["company_id"], ["companies.id"], name=op.f("fk_datev_exports_company_id_companies")
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_datev_exports_user_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["api_key_id"], ["api_keys.id"], name=op.f("fk_datev_exports_api_key_id_api_keys")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_datev_exports")),
    )
    with op.batch_alter_table("datev_exports", schema=None) as batch_op:
        batch_op.create_index(
            "ix_datev_exports_company_created", ["company_id", "created_at"], unique=False
        )
    op.create_table(
        "datev_export_results",
        sa.Column("export_id", sa.Uuid(), nullable=False),
        sa.Column("result_id", sa.Uuid(), nullable=False),
        sa.ForeignKeyConstraint(
            ["export_id"],
            ["datev_exports.id"],
            name=op.f("fk_datev_export_results_export_id_datev_exports"),
        ),
        sa.PrimaryKeyConstraint("export_id", "result_id", name=op.f("pk_datev_export_results")),
    )
    with op.batch_alter_table("datev_export_results", schema=None) as batch_op:
        batch_op.create_index("ix_datev_export_results_result", ["result_id"], unique=False)


def downgrade() -> None:
    op.drop_table("datev_export_results")
    op.drop_table("datev_exports")
    # Not a batch: SQLite would copy `companies`, which other tables' rows point at.
    op.drop_column("companies", "datev")

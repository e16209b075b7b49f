"""bank accounts: the IBANs supplier invoices asked to be paid into, and the warnings

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-28 14:40:00

`payee_accounts` holds each supplier invoice's IBANs under its supplier's key;
`bank_account_warnings` the warnings about them (a new IBAN for a supplier, an IBAN of
another country) with the accountant's decision (storage/bank_account_models.py,
docs/checks.md). Both go with their result when it is purged (ON DELETE CASCADE).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def _result_and_company(table: str) -> list[sa.ForeignKeyConstraint]:
    return [
        sa.ForeignKeyConstraint(
            ["company_id"], ["companies.id"], name=op.f(f"fk_{table}_company_id_companies")
        ),
        sa.ForeignKeyConstraint(
            ["result_id"],
            ["results.id"],
            name=op.f(f"fk_{table}_result_id_results"),
            ondelete="CASCADE",
        ),
    ]


def upgrade() -> None:
    op.create_table(
        "payee_accounts",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column("company_id", sa.Uuid(), nullable=False),
        sa.Column("result_id", sa.Uuid(), nullable=False),
        sa.Column("supplier_key", sa.String(length=210), nullable=False),
        sa.Column("iban", sa.String(length=34), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        *_result_and_company("payee_accounts"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_payee_accounts")),
    )
    with op.batch_alter_table("payee_accounts", schema=None) as batch_op:
        batch_op.create_index(
            "ix_payee_accounts_company_supplier", ["company_id", "supplier_key"], unique=False
        )
        batch_op.create_index("ix_payee_accounts_result_id", ["result_id"], unique=False)
    op.create_table(
        "bank_account_warnings",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("company_id", sa.Uuid(), nullable=False),
        sa.Column("result_id", sa.Uuid(), nullable=False),
        sa.Column("supplier_key", sa.String(length=210), nullable=False),
        sa.Column("iban", sa.String(length=34), nullable=False),
        sa.Column("reason", sa.String(length=16), nullable=False),
        sa.Column("supplier_country", sa.String(length=2), nullable=True),
        sa.Column("known_ibans", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decision", sa.String(length=16), nullable=True),
        sa.Column("decided_by", sa.Uuid(), nullable=True),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        *_result_and_company("bank_account_warnings"),
        sa.ForeignKeyConstraint(
            ["decided_by"],
            ["users.id"],
            name=op.f("fk_bank_account_warnings_decided_by_users"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_bank_account_warnings")),
    )
    with op.batch_alter_table("bank_account_warnings", schema=None) as batch_op:
        batch_op.create_index("ix_bank_account_warnings_result_id", ["result_id"], unique=False)


def downgrade() -> None:
    op.drop_table("bank_account_warnings")
    op.drop_table("payee_accounts")

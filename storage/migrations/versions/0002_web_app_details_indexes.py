"""web application, error details, export indexes

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22 05:09:48.470138
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:

    op.create_table(
        "login_attempts",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column("email", sa.String(length=320), nullable=False),
        sa.Column("client", sa.String(length=64), nullable=False),
        sa.Column("succeeded", sa.Boolean(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_login_attempts")),
    )
    with op.batch_alter_table("login_attempts", schema=None) as batch_op:
        batch_op.create_index("ix_login_attempts_client_at", ["client", "at"], unique=False)
        batch_op.create_index("ix_login_attempts_email_at", ["email", "at"], unique=False)

    op.create_table(
        "users",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("company_id", sa.Uuid(), nullable=False),
        sa.Column("email", sa.String(length=320), nullable=False),
        sa.Column("password_hash", sa.String(length=255), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_login_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["company_id"], ["companies.id"], name=op.f("fk_users_company_id_companies")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_users")),
        sa.UniqueConstraint("email", name=op.f("uq_users_email")),
    )
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_users_company_id"), ["company_id"], unique=False)

    op.create_table(
        "transaction_confirmations",
        sa.Column("result_id", sa.Uuid(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("confirmed_by", sa.Uuid(), nullable=True),
        sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["confirmed_by"],
            ["users.id"],
            name=op.f("fk_transaction_confirmations_confirmed_by_users"),
        ),
        sa.ForeignKeyConstraint(
            ["result_id"],
            ["results.id"],
            name=op.f("fk_transaction_confirmations_result_id_results"),
        ),
        sa.PrimaryKeyConstraint("result_id", "position", name=op.f("pk_transaction_confirmations")),
    )
    op.create_table(
        "web_sessions",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("csrf_token", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_web_sessions_user_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_web_sessions")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_web_sessions_token_hash")),
    )
    with op.batch_alter_table("web_sessions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_web_sessions_user_id"), ["user_id"], unique=False)

    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.add_column(sa.Column("duplicate_key", sa.String(length=255), nullable=True))
        batch_op.create_index(
            "ix_results_company_duplicate_key", ["company_id", "duplicate_key"], unique=False
        )

    with op.batch_alter_table("status_history", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_status_history_at"), ["at"], unique=False)

    with op.batch_alter_table("uploads", schema=None) as batch_op:
        batch_op.add_column(sa.Column("error_details", sa.JSON(), nullable=True))
        batch_op.create_index(
            "ix_uploads_company_status_created",
            ["company_id", "status", "created_at"],
            unique=False,
        )
        batch_op.create_index(
            "ix_uploads_company_type_created",
            ["company_id", "document_type", "created_at"],
            unique=False,
        )
        batch_op.create_index("ix_uploads_result_id", ["result_id"], unique=False)
        batch_op.create_index("ix_uploads_updated_at", ["updated_at"], unique=False)


def downgrade() -> None:

    with op.batch_alter_table("uploads", schema=None) as batch_op:
        batch_op.drop_index("ix_uploads_updated_at")
        batch_op.drop_index("ix_uploads_result_id")
        batch_op.drop_index("ix_uploads_company_type_created")
        batch_op.drop_index("ix_uploads_company_status_created")
        batch_op.drop_column("error_details")

    with op.batch_alter_table("status_history", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_status_history_at"))

    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.drop_index("ix_results_company_duplicate_key")
        batch_op.drop_column("duplicate_key")

    with op.batch_alter_table("web_sessions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_web_sessions_user_id"))

    op.drop_table("web_sessions")
    op.drop_table("transaction_confirmations")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_users_company_id"))

    op.drop_table("users")
    with op.batch_alter_table("login_attempts", schema=None) as batch_op:
        batch_op.drop_index("ix_login_attempts_email_at")
        batch_op.drop_index("ix_login_attempts_client_at")

    op.drop_table("login_attempts")

"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-22 02:59:26.833241
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "companies",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("name", sa.String(length=255), nullable=False),
        sa.Column("vat_ids", sa.JSON(), nullable=False),
        sa.Column("tax_number", sa.String(length=64), nullable=True),
        sa.Column("ibans", sa.JSON(), nullable=False),
        sa.Column("locale", sa.String(length=8), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_companies")),
    )
    op.create_table(
        "api_keys",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("company_id", sa.Uuid(), nullable=False),
        sa.Column("name", sa.String(length=255), nullable=True),
        sa.Column("prefix", sa.String(length=16), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["company_id"], ["companies.id"], name=op.f("fk_api_keys_company_id_companies")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_api_keys")),
        sa.UniqueConstraint("key_hash", name=op.f("uq_api_keys_key_hash")),
    )
    with op.batch_alter_table("api_keys", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_api_keys_company_id"), ["company_id"], unique=False)

    op.create_table(
        "batches",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("company_id", sa.Uuid(), nullable=False),
        sa.Column("external_id", sa.String(length=255), nullable=True),
        sa.Column("document_type", sa.String(length=32), nullable=False),
        sa.Column("file_name", sa.String(length=1024), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("size_bytes", sa.BigInteger(), nullable=False),
        sa.Column("object_key", sa.String(length=255), nullable=False),
        sa.Column("unpack_state", sa.String(length=16), nullable=False),
        sa.Column("error_code", sa.String(length=64), nullable=True),
        sa.Column("error_message", sa.Text(), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("lease_owner", sa.String(length=255), nullable=True),
        sa.Column("lease_expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["company_id"], ["companies.id"], name=op.f("fk_batches_company_id_companies")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_batches")),
    )
    with op.batch_alter_table("batches", schema=None) as batch_op:
        batch_op.create_index(
            "ix_batches_company_created", ["company_id", "created_at"], unique=False
        )
        batch_op.create_index(
            "ix_batches_finished_created", ["finished_at", "created_at"], unique=False
        )
        batch_op.create_index(
            "uq_batches_company_content",
            ["company_id", "sha256", "document_type"],
            unique=True,
            sqlite_where=sa.text("external_id IS NULL"),
            postgresql_where=sa.text("external_id IS NULL"),
        )
        batch_op.create_index(
            "uq_batches_company_external_id",
            ["company_id", "external_id"],
            unique=True,
            sqlite_where=sa.text("external_id IS NOT NULL"),
            postgresql_where=sa.text("external_id IS NOT NULL"),
        )

    op.create_table(
        "results",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("company_id", sa.Uuid(), nullable=False),
        sa.Column("type", sa.String(length=32), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["company_id"], ["companies.id"], name=op.f("fk_results_company_id_companies")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_results")),
    )
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.create_index(
            "uq_results_company_sha256",
            ["company_id", "sha256"],
            unique=True,
            sqlite_where=sa.text("deleted_at IS NULL"),
            postgresql_where=sa.text("deleted_at IS NULL"),
        )

    op.create_table(
        "uploads",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("company_id", sa.Uuid(), nullable=False),
        sa.Column("batch_id", sa.Uuid(), nullable=True),
        sa.Column("position", sa.Integer(), nullable=True),
        sa.Column("external_id", sa.String(length=255), nullable=True),
        sa.Column("file_name", sa.String(length=1024), nullable=False),
        sa.Column("document_type", sa.String(length=32), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("size_bytes", sa.BigInteger(), nullable=False),
        sa.Column("object_key", sa.String(length=255), nullable=True),
        sa.Column("result_id", sa.Uuid(), nullable=True),
        sa.Column("error_code", sa.String(length=64), nullable=True),
        sa.Column("error_message", sa.Text(), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("lease_owner", sa.String(length=255), nullable=True),
        sa.Column("lease_expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["batch_id"], ["batches.id"], name=op.f("fk_uploads_batch_id_batches")
        ),
        sa.ForeignKeyConstraint(
            ["company_id"], ["companies.id"], name=op.f("fk_uploads_company_id_companies")
        ),
        sa.ForeignKeyConstraint(
            ["result_id"], ["results.id"], name=op.f("fk_uploads_result_id_results")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_uploads")),
    )
    with op.batch_alter_table("uploads", schema=None) as batch_op:
        batch_op.create_index(
            "ix_uploads_company_created", ["company_id", "created_at"], unique=False
        )
        batch_op.create_index("ix_uploads_status_created", ["status", "created_at"], unique=False)
        batch_op.create_index(
            "uq_uploads_batch_position",
            ["batch_id", "position"],
            unique=True,
            sqlite_where=sa.text("batch_id IS NOT NULL"),
            postgresql_where=sa.text("batch_id IS NOT NULL"),
        )
        batch_op.create_index(
            "uq_uploads_company_content",
            ["company_id", "sha256", "document_type"],
            unique=True,
            sqlite_where=sa.text("batch_id IS NULL AND external_id IS NULL"),
            postgresql_where=sa.text("batch_id IS NULL AND external_id IS NULL"),
        )
        batch_op.create_index(
            "uq_uploads_company_external_id",
            ["company_id", "external_id"],
            unique=True,
            sqlite_where=sa.text("batch_id IS NULL AND external_id IS NOT NULL"),
            postgresql_where=sa.text("batch_id IS NULL AND external_id IS NOT NULL"),
        )

    op.create_table(
        "status_history",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column("upload_id", sa.Uuid(), nullable=False),
        sa.Column("from_status", sa.String(length=16), nullable=True),
        sa.Column("to_status", sa.String(length=16), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["upload_id"], ["uploads.id"], name=op.f("fk_status_history_upload_id_uploads")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_status_history")),
    )
    with op.batch_alter_table("status_history", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_status_history_upload_id"), ["upload_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("status_history", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_status_history_upload_id"))

    op.drop_table("status_history")
    with op.batch_alter_table("uploads", schema=None) as batch_op:
        batch_op.drop_index(
            "uq_uploads_company_external_id",
            sqlite_where=sa.text("batch_id IS NULL AND external_id IS NOT NULL"),
            postgresql_where=sa.text("batch_id IS NULL AND external_id IS NOT NULL"),
        )
        batch_op.drop_index(
            "uq_uploads_company_content",
            sqlite_where=sa.text("batch_id IS NULL AND external_id IS NULL"),
            postgresql_where=sa.text("batch_id IS NULL AND external_id IS NULL"),
        )
        batch_op.drop_index(
            "uq_uploads_batch_position",
            sqlite_where=sa.text("batch_id IS NOT NULL"),
            postgresql_where=sa.text("batch_id IS NOT NULL"),
        )
        batch_op.drop_index("ix_uploads_status_created")
        batch_op.drop_index("ix_uploads_company_created")

    op.drop_table("uploads")
    with op.batch_alter_table("results", schema=None) as batch_op:
        batch_op.drop_index(
            "uq_results_company_sha256",
            sqlite_where=sa.text("deleted_at IS NULL"),
            postgresql_where=sa.text("deleted_at IS NULL"),
        )

    op.drop_table("results")
    with op.batch_alter_table("batches", schema=None) as batch_op:
        batch_op.drop_index(
            "uq_batches_company_external_id",
            sqlite_where=sa.text("external_id IS NOT NULL"),
            postgresql_where=sa.text("external_id IS NOT NULL"),
        )
        batch_op.drop_index(
            "uq_batches_company_content",
            sqlite_where=sa.text("external_id IS NULL"),
            postgresql_where=sa.text("external_id IS NULL"),
        )
        batch_op.drop_index("ix_batches_finished_created")
        batch_op.drop_index("ix_batches_company_created")

    op.drop_table("batches")
    with op.batch_alter_table("api_keys", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_api_keys_company_id"))

    op.drop_table("api_keys")
    op.drop_table("companies")

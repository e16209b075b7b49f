"""e-mail intake: companies' intake address tokens, a batch's source

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-28 14:30:00

`mail_addresses` holds each company's intake address tokens (docs/email.md): the
SHA-256 the SMTP server looks up, the token sealed for the settings page, and when a
rotated token stops working. `batches.source_type` is "api" for every batch before
this; an e-mail batch keeps its sender, subject, Message-ID, arrival and the MTA's
Authentication-Results.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "mail_addresses",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("company_id", sa.Uuid(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("sealed_token", sa.String(length=255), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("retired_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["company_id"],
            ["companies.id"],
            name=op.f("fk_mail_addresses_company_id_companies"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_mail_addresses")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_mail_addresses_token_hash")),
    )
    with op.batch_alter_table("mail_addresses", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_mail_addresses_company_id"), ["company_id"], unique=False
        )
    with op.batch_alter_table("batches", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("source_type", sa.String(length=16), server_default="api", nullable=False)
        )
        batch_op.add_column(sa.Column("mail_from", sa.String(length=1024), nullable=True))
        batch_op.add_column(sa.Column("mail_subject", sa.String(length=1024), nullable=True))
        batch_op.add_column(sa.Column("message_id", sa.String(length=1024), nullable=True))
        batch_op.add_column(sa.Column("received_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("authentication_results", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("batches", schema=None) as batch_op:
        for column in (
            "authentication_results",
            "received_at",
            "message_id",
            "mail_subject",
            "mail_from",
            "source_type",
        ):
            batch_op.drop_column(column)
    with op.batch_alter_table("mail_addresses", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_mail_addresses_company_id"))
    op.drop_table("mail_addresses")

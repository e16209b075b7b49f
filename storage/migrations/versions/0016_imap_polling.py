"""IMAP polling of a company's own mailbox; refusing mail that fails DMARC

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-28 16:40:00

`imap_mailboxes` holds a company's mailbox settings (the password sealed, as webhook
secrets are) and the lease a poller holds on it; `imap_messages` the messages taken
from it, keyed by mailbox, UIDVALIDITY and UID, so each is taken exactly once
(storage/imap_models.py, docs/email.md). `companies.refuse_dmarc_fail` refuses mail
whose Authentication-Results say dmarc=fail.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "imap_mailboxes",
        sa.Column("company_id", sa.Uuid(), nullable=False),
        sa.Column("host", sa.String(length=255), nullable=False),
        sa.Column("port", sa.Integer(), nullable=False),
        sa.Column("security", sa.String(length=16), nullable=False),
        sa.Column("username", sa.String(length=255), nullable=False),
        sa.Column("sealed_password", sa.String(length=255), nullable=False),
        sa.Column("folder", sa.String(length=255), nullable=False),
        sa.Column("after_import", sa.String(length=16), nullable=False),
        sa.Column("move_to", sa.String(length=255), nullable=True),
        sa.Column("document_type", sa.String(length=32), nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("lease_owner", sa.String(length=128), nullable=True),
        sa.Column("lease_expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_polled_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["company_id"], ["companies.id"], name=op.f("fk_imap_mailboxes_company_id_companies")
        ),
        sa.PrimaryKeyConstraint("company_id", name=op.f("pk_imap_mailboxes")),
    )
    op.create_table(
        "imap_messages",
        sa.Column("company_id", sa.Uuid(), nullable=False),
        sa.Column("uidvalidity", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("uid", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("batch_id", sa.Uuid(), nullable=True),
        sa.Column("left_because", sa.String(length=255), nullable=True),
        sa.Column("taken_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["batch_id"], ["batches.id"], name=op.f("fk_imap_messages_batch_id_batches")
        ),
        sa.ForeignKeyConstraint(
            ["company_id"],
            ["imap_mailboxes.company_id"],
            name=op.f("fk_imap_messages_company_id_imap_mailboxes"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("company_id", "uidvalidity", "uid", name=op.f("pk_imap_messages")),
    )
    # Not a batch: SQLite would copy `companies`, which other tables' rows point at.
    op.add_column(
        "companies",
        sa.Column("refuse_dmarc_fail", sa.Boolean(), server_default=sa.false(), nullable=False),
    )


def downgrade() -> None:
    op.drop_column("companies", "refuse_dmarc_fail")
    op.drop_table("imap_messages")
    op.drop_table("imap_mailboxes")

"""inbox search and reclassification: the words each result is found by, and the trail of
uploads read again as another kind of document

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-28 19:45:00

`result_search` holds, per result, the words the inbox's search finds it by (parties,
number, amounts; storage/search_text.py, storage/search_models.py), with a GIN index over
the words (a tsvector on Postgres); existing results are backfilled here.
`upload_reclassifications` holds one row per "read this again as ..." of the web
application (who, when, from what it was read as, to what it is read as now;
storage/approval_models.py, docs/webapp.md).
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

from storage.search_text import SEARCHED_WORDS, search_text

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None

BACKFILL_CHUNK = 500
_WORDS = sa.Text().with_variant(postgresql.TSVECTOR(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "result_search",
        sa.Column("result_id", sa.Uuid(), nullable=False),
        sa.Column("company_id", sa.Uuid(), nullable=False),
        sa.Column("words", _WORDS, nullable=False),
        sa.ForeignKeyConstraint(
            ["company_id"], ["companies.id"], name=op.f("fk_result_search_company_id_companies")
        ),
        sa.ForeignKeyConstraint(
            ["result_id"],
            ["results.id"],
            name=op.f("fk_result_search_result_id_results"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("result_id", name=op.f("pk_result_search")),
    )
    with op.batch_alter_table("result_search", schema=None) as batch_op:
        batch_op.create_index("ix_result_search_company", ["company_id"], unique=False)
        batch_op.create_index(
            "ix_result_search_words", ["words"], unique=False, postgresql_using="gin"
        )
    _create_reclassifications()
    _backfill(op.get_bind())


def _create_reclassifications() -> None:
    op.create_table(
        "upload_reclassifications",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("upload_id", sa.Uuid(), nullable=False),
        sa.Column("from_type", sa.String(length=32), nullable=False),
        sa.Column("to_type", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.Uuid(), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["upload_id"],
            ["uploads.id"],
            name=op.f("fk_upload_reclassifications_upload_id_uploads"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_upload_reclassifications_user_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_upload_reclassifications")),
    )
    with op.batch_alter_table("upload_reclassifications", schema=None) as batch_op:
        batch_op.create_index(
            "ix_upload_reclassifications_upload", ["upload_id", "at"], unique=False
        )


_results = sa.table(
    "results",
    sa.column("id", sa.Uuid()),
    sa.column("company_id", sa.Uuid()),
    sa.column("type", sa.String()),
    sa.column("data", sa.JSON()),
)
_search = sa.table(
    "result_search",
    sa.column("result_id", sa.Uuid()),
    sa.column("company_id", sa.Uuid()),
    sa.column("words", _WORDS),
)


def _backfill(connection: sa.Connection) -> None:
    """Every result of a searched type gets its words, a chunk of rows at a time."""
    statement = sa.select(_results).where(_results.c.type.in_(list(SEARCHED_WORDS)))
    rows = connection.execute(statement, execution_options={"yield_per": BACKFILL_CHUNK})
    for chunk in rows.partitions():
        values = [_words_of(row) for row in chunk]
        found = [value for value in values if value is not None]
        if found:
            connection.execute(sa.insert(_search), found)


def _words_of(row: Any) -> dict[str, Any] | None:
    data = row.data if isinstance(row.data, dict) else {}
    words = search_text(row.type, data)
    if words is None:
        return None
    return {"result_id": row.id, "company_id": row.company_id, "words": words}


def downgrade() -> None:
    with op.batch_alter_table("upload_reclassifications", schema=None) as batch_op:
        batch_op.drop_index("ix_upload_reclassifications_upload")
    op.drop_table("upload_reclassifications")
    with op.batch_alter_table("result_search", schema=None) as batch_op:
        batch_op.drop_index("ix_result_search_words")
        batch_op.drop_index("ix_result_search_company")
    op.drop_table("result_search")

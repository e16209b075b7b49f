"""The words each result is found by in the inbox's search (issue 43;
storage/search_text.py): a row per result that has any, written when the result is
booked (storage/repositories/results.py) and going with it when it is purged (ON DELETE
CASCADE). On Postgres the words are a tsvector with a GIN index, which serves the full
text search; SQLite scans the company's rows with LIKE. Imported at the end of
storage/models.py, so the one metadata holds the table too.
"""

from __future__ import annotations

import uuid

from sqlalchemy import ForeignKey, Index, Text
from sqlalchemy.dialects.postgresql import TSVECTOR
from sqlalchemy.orm import Mapped, backref, mapped_column, relationship

from storage.models import Base, Result

# Postgres: a tsvector of the words as they are (lower-cased by storage/search_text.py,
# not parsed again), searched with a tsquery of typed words made the same way. SQLite:
# the words as text, searched with LIKE.
WORDS_TYPE = Text().with_variant(TSVECTOR(), "postgresql")


class ResultSearchRow(Base):
    __tablename__ = "result_search"
    __table_args__ = (
        Index("ix_result_search_company", "company_id"),
        # Postgres: the full text index. SQLite has no use for it (its LIKE scans the
        # company's rows) but keeps it, as one schema serves both.
        Index("ix_result_search_words", "words", postgresql_using="gin"),
    )

    result_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("results.id", ondelete="CASCADE"), primary_key=True
    )
    company_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("companies.id"))
    words: Mapped[str] = mapped_column(WORDS_TYPE)
    # Booked with its result: adding the result to a session adds this row too.
    result: Mapped[Result] = relationship(
        backref=backref("search_row", uselist=False, passive_deletes=True)
    )

"""The inbox's search (issue 43): which of a company's results a typed search finds, by
the words of storage/search_text.py. Postgres: the typed words as a tsquery of prefixes
against the stored tsvector (its GIN index); SQLite: a LIKE per word over the stored
text. Both find a result when every typed term begins one of its words."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from sqlalchemy import ColumnElement, Select, and_, bindparam, cast, literal, or_, select
from sqlalchemy.dialects.postgresql import TSQUERY

from storage.search_models import ResultSearchRow
from storage.search_text import SearchTerm


def matching_results(
    company_id: uuid.UUID, terms: Sequence[SearchTerm], postgres: bool
) -> Select[tuple[uuid.UUID]]:
    """The ids of the company's results the terms find (a subquery for an IN)."""
    found = _full_text(terms) if postgres else _like(terms)
    return select(ResultSearchRow.result_id).where(ResultSearchRow.company_id == company_id, found)


def tsquery(terms: Sequence[SearchTerm]) -> str:
    """`('a':* & 'b':*) | ('c':*)` per term, the terms joined by &. The words are letters,
    digits and points only (storage/search_text.py), so quoting them is enough."""
    return " & ".join(
        "(" + " | ".join(" & ".join(f"'{word}':*" for word in words) for words in term) + ")"
        for term in terms
    )


def _full_text(terms: Sequence[SearchTerm]) -> ColumnElement[bool]:
    query = cast(bindparam("search", tsquery(terms)), TSQUERY)
    return ResultSearchRow.words.op("@@")(query)


def _like(terms: Sequence[SearchTerm]) -> ColumnElement[bool]:
    text = literal(" ") + ResultSearchRow.words
    return and_(
        *(
            or_(*(and_(*(text.like(f"% {word}%") for word in words)) for words in term))
            for term in terms
        )
    )

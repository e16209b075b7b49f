"""Results: what was made of a file. One per content per company (no second booking)."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from storage.models import Company, Result


def live_result_for_content(session: Session, company_id: uuid.UUID, sha256: str) -> Result | None:
    statement = select(Result).where(
        Result.company_id == company_id, Result.sha256 == sha256, Result.deleted_at.is_(None)
    )
    return session.scalars(statement).one_or_none()


def book_result(
    session: Session, company_id: uuid.UUID, sha256: str, result_type: str, data: dict[str, Any]
) -> Result:
    """Store a result, or answer with the one another worker booked for the same content."""
    result = Result(
        id=uuid.uuid4(), company_id=company_id, type=result_type, sha256=sha256, data=data
    )
    try:
        with session.begin_nested():
            session.add(result)
            session.flush()
    except IntegrityError:
        existing = live_result_for_content(session, company_id, sha256)
        if existing is None:
            raise
        return existing
    return result


def company_of(session: Session, company_id: uuid.UUID) -> Company | None:
    return session.get(Company, company_id)

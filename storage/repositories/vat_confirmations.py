"""Online confirmations of foreign VAT ids (issue 42, part 2): the answers kept as proof
per invoice result, and the cache of the same question. Nothing here commits."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from processors.vat_confirmation import Confirmed, VatAnswer
from storage.models import utcnow
from storage.resources import utc_z
from storage.vat_confirmation_models import VatConfirmationRow


def cached_answer(
    session: Session, company_id: uuid.UUID, query_key: str, max_age: timedelta
) -> VatConfirmationRow | None:
    """The company's latest answer to the same question, younger than max_age. Only
    real answers count: an unanswered question is asked again next time."""
    if max_age <= timedelta(0):
        return None
    since = utcnow() - max_age
    return session.scalars(
        select(VatConfirmationRow)
        .where(
            VatConfirmationRow.company_id == company_id,
            VatConfirmationRow.query_key == query_key,
            VatConfirmationRow.answered_at >= since,
            VatConfirmationRow.confirmed != Confirmed.UNANSWERED.value,
        )
        .order_by(VatConfirmationRow.answered_at.desc())
        .limit(1)
    ).first()


def keep_answer(
    session: Session,
    company_id: uuid.UUID,
    result_id: uuid.UUID,
    party: str,
    query_key: str,
    answer: VatAnswer,
) -> VatConfirmationRow:
    row = VatConfirmationRow(
        company_id=company_id,
        result_id=result_id,
        party=party,
        query_key=query_key,
        service=answer.service.value,
        confirmed=answer.confirmed.value,
        answer=answer.as_json(),
    )
    session.add(row)
    session.flush()
    return row


def keep_cached(
    session: Session, result_id: uuid.UUID, party: str, earlier: VatConfirmationRow
) -> VatConfirmationRow:
    """The earlier answer, kept for this result too (its time is the earlier answer's)."""
    row = VatConfirmationRow(
        company_id=earlier.company_id,
        result_id=result_id,
        party=party,
        query_key=earlier.query_key,
        service=earlier.service,
        confirmed=earlier.confirmed,
        answer=dict(earlier.answer),
        answered_at=earlier.answered_at,
        cached=True,
    )
    session.add(row)
    session.flush()
    return row


def confirmations_of(session: Session, result_id: uuid.UUID) -> list[dict[str, Any]]:
    """The result's confirmations, latest first per party, as the result JSON and the
    invoice page show them (`vatConfirmations`)."""
    rows = session.scalars(
        select(VatConfirmationRow)
        .where(VatConfirmationRow.result_id == result_id)
        .order_by(VatConfirmationRow.created_at.desc())
    ).all()
    return [_shown(row) for row in rows]


def confirmations_of_results(
    session: Session, result_ids: list[uuid.UUID]
) -> dict[uuid.UUID, list[dict[str, Any]]]:
    found: dict[uuid.UUID, list[dict[str, Any]]] = {}
    if not result_ids:
        return found
    statement = (
        select(VatConfirmationRow)
        .where(VatConfirmationRow.result_id.in_(result_ids))
        .order_by(VatConfirmationRow.created_at.desc())
    )
    for row in session.scalars(statement):
        found.setdefault(row.result_id, []).append(_shown(row))
    return found


def _shown(row: VatConfirmationRow) -> dict[str, Any]:
    return {
        "party": row.party,
        **row.answer,
        "answeredAt": _iso(row.answered_at),
        "cached": row.cached,
    }


def _iso(moment: datetime) -> str:
    return utc_z(moment)

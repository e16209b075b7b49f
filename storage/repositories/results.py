"""Results: what was made of a file. One live result per content and result type in a
company (no second booking)."""

from __future__ import annotations

import re
import uuid
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from storage import result_changes  # noqa: F401  (numbers every change of a result)
from storage.db import locked
from storage.models import Company, Result, TransactionConfirmation, Upload
from storage.search_models import ResultSearchRow
from storage.search_text import search_text

Content = tuple[uuid.UUID, str]  # company, sha256
Booking = tuple[uuid.UUID, str, str]  # company, sha256, result type


@dataclass(frozen=True, slots=True)
class LiveResult:
    """A live result of a content, and the documentTypes of the uploads completed with it
    (what it was read as, and what it answered since)."""

    id: uuid.UUID
    type: str
    read_as: frozenset[str]


def live_result_for_content(
    session: Session, company_id: uuid.UUID, sha256: str, result_type: str
) -> Result | None:
    statement = select(Result).where(
        Result.company_id == company_id,
        Result.sha256 == sha256,
        Result.type == result_type,
        Result.deleted_at.is_(None),
    )
    return session.scalars(statement).one_or_none()


def live_results_for_bookings(
    session: Session, bookings: Collection[Booking]
) -> dict[Booking, tuple[uuid.UUID, str]]:
    """The live results (id, type) booked for any of these (company, sha256, type)."""
    if not bookings:
        return {}
    rows = _live_rows(
        session, {company for company, _, _ in bookings}, {sha256 for _, sha256, _ in bookings}
    )
    found = {(row.company_id, row.sha256, row.type): (row.id, row.type) for row in rows}
    return {booking: found[booking] for booking in bookings if booking in found}


def _live_rows(session: Session, companies: set[uuid.UUID], contents: set[str]) -> Any:
    """Live results of any of these companies with any of these contents, oldest first
    (a superset of the pairs asked for: callers pick theirs)."""
    parameters = {"companies": list(companies), "contents": list(contents)}
    return session.execute(_LIVE_RESULTS, parameters)


# Built once: the recorder asks in every transaction, a claim in every claim.
_LIVE_RESULTS = (
    select(Result.company_id, Result.sha256, Result.id, Result.type)
    .where(
        Result.company_id.in_(bindparam("companies", expanding=True)),
        Result.sha256.in_(bindparam("contents", expanding=True)),
        Result.deleted_at.is_(None),
    )
    .order_by(Result.created_at, Result.id)
)


def live_results_for_contents(
    session: Session, contents: Collection[Content]
) -> dict[Content, list[LiveResult]]:
    """Every live result of these (company, sha256) pairs, oldest first."""
    if not contents:
        return {}
    live = _live_rows(
        session, {company for company, _ in contents}, {sha256 for _, sha256 in contents}
    )
    rows = [row for row in live if (row.company_id, row.sha256) in contents]
    read_as = _document_types_of(session, [row.id for row in rows])
    found: dict[Content, list[LiveResult]] = {}
    for row in rows:
        live = LiveResult(row.id, row.type, frozenset(read_as.get(row.id, ())))
        found.setdefault((row.company_id, row.sha256), []).append(live)
    return found


def _document_types_of(session: Session, result_ids: list[uuid.UUID]) -> dict[uuid.UUID, set[str]]:
    if not result_ids:
        return {}
    statement = (
        select(Upload.result_id, Upload.document_type)
        .where(Upload.result_id.in_(result_ids))
        .distinct()
    )
    types: dict[uuid.UUID, set[str]] = {}
    for result_id, document_type in session.execute(statement):
        types.setdefault(result_id, set()).add(document_type)
    return types


def lock_live_result(session: Session, result_id: uuid.UUID) -> Result | None:
    """The result, locked against a concurrent delete until commit; None once deleted."""
    statement = select(Result).where(Result.id == result_id, Result.deleted_at.is_(None))
    return session.scalars(locked(session, statement)).one_or_none()


def book_result(
    session: Session, company_id: uuid.UUID, sha256: str, result_type: str, data: dict[str, Any]
) -> Result:
    """Store a result, or answer with the one another worker booked for the same content
    and type."""
    result = new_result(company_id, sha256, result_type, data)
    try:
        with session.begin_nested():
            session.add(result)
            session.flush()
    except IntegrityError:
        existing = live_result_for_content(session, company_id, sha256, result_type)
        if existing is None:
            raise
        return existing
    return result


def new_result(
    company_id: uuid.UUID, sha256: str, result_type: str, data: dict[str, Any]
) -> Result:
    """A result to add; the live (company, content, type) index refuses a second booking."""
    result = Result(
        id=uuid.uuid4(),
        company_id=company_id,
        type=result_type,
        sha256=sha256,
        data=data,
        duplicate_key=invoice_duplicate_key(data) if result_type == "invoice" else None,
    )
    words = search_text(result_type, data)
    if words is not None:  # added with the result (the row's relationship cascades)
        ResultSearchRow(result=result, company_id=company_id, words=words)
    return result


def company_of(session: Session, company_id: uuid.UUID) -> Company | None:
    return session.get(Company, company_id)


def invoice_duplicate_key(data: dict[str, Any]) -> str | None:
    """Seller, invoice number and gross total, normalized: two invoices with the same key
    are possibly the same invoice booked twice (different files, same content)."""
    invoice = data.get("invoice")
    if not isinstance(invoice, dict):
        return None
    seller = invoice.get("seller") or {}
    who = seller.get("vatId") or seller.get("taxNumber") or seller.get("name")
    number = invoice.get("number")
    gross = _amount((invoice.get("totals") or {}).get("gross"))
    if not (who and number and gross is not None):
        return None
    return "|".join((_token(str(who)), _token(str(number)), str(gross)))[:255]


def _token(text: str) -> str:
    return re.sub(r"[^0-9A-Z]", "", text.upper())


def _amount(value: Any) -> Decimal | None:
    try:
        return Decimal(str(value)).quantize(Decimal("0.01")) if value is not None else None
    except InvalidOperation:
        return None


def possible_duplicates(session: Session, result: Result, limit: int = 20) -> list[Result]:
    """Other live results of the same company with the same duplicate key."""
    if result.duplicate_key is None:
        return []
    statement = (
        select(Result)
        .where(
            Result.company_id == result.company_id,
            Result.duplicate_key == result.duplicate_key,
            Result.id != result.id,
            Result.deleted_at.is_(None),
        )
        .order_by(Result.created_at)
        .limit(limit)
    )
    return list(session.scalars(statement))


# --- the results API -------------------------------------------------------------------


def changed_results(
    session: Session,
    company_id: uuid.UUID,
    after: int,
    limit: int,
    *,
    result_type: str | None = None,
    since: datetime | None = None,
) -> list[Result]:
    """The company's results whose last change is numbered after `after`, deleted ones
    too, in change order (storage/result_changes.py)."""
    statement = select(Result).where(Result.company_id == company_id, Result.change_seq > after)
    if result_type is not None:
        statement = statement.where(Result.type == result_type)
    if since is not None:
        statement = statement.where(Result.updated_at >= since)
    return list(session.scalars(statement.order_by(Result.change_seq).limit(limit)))


def confirmations_of(
    session: Session, result_ids: Collection[uuid.UUID]
) -> dict[uuid.UUID, dict[int, datetime]]:
    """The confirmed transactions of these bank statements: when, by position."""
    if not result_ids:
        return {}
    statement = select(
        TransactionConfirmation.result_id,
        TransactionConfirmation.position,
        TransactionConfirmation.confirmed_at,
    ).where(TransactionConfirmation.result_id.in_(list(result_ids)))
    found: dict[uuid.UUID, dict[int, datetime]] = {}
    for result_id, position, at in session.execute(statement):
        found.setdefault(result_id, {})[position] = at
    return found

"""Webhook endpoints and the outbox of deliveries: every statement on these tables.

Claims are atomic like the pipeline's (storage/repositories/work.py): `FOR UPDATE SKIP
LOCKED` on Postgres, the database write lock on SQLite, so any number of senders share
the outbox. A delivery is claimed by moving its `next_attempt_at` a lease ahead; a
sender that dies mid-delivery leaves it to be claimed again when the lease ends.
"""

from __future__ import annotations

import base64
import secrets
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, Select, bindparam, exists, func, select, update
from sqlalchemy.orm import Session, aliased

from storage.db import locked
from storage.models import UTCDateTime, utcnow
from storage.webhook_models import WebhookDelivery, WebhookEndpoint

SECRET_PREFIX = "whsec_"
MAX_ERROR_LENGTH = 1000


def new_secret() -> str:
    """`whsec_` + base64 of 32 random bytes (the Standard Webhooks form)."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode("ascii")


def new_message_id() -> str:
    return f"msg_{uuid.uuid4().hex}"


# --- endpoints -------------------------------------------------------------------------


def create_endpoint(
    session: Session, company_id: uuid.UUID, url: str, events: Sequence[str]
) -> WebhookEndpoint:
    endpoint = WebhookEndpoint(
        company_id=company_id, url=url, events=list(events), secret=new_secret()
    )
    session.add(endpoint)
    session.flush()
    return endpoint


def live_endpoints(session: Session, company_id: uuid.UUID) -> list[WebhookEndpoint]:
    statement = (
        select(WebhookEndpoint)
        .where(WebhookEndpoint.company_id == company_id, WebhookEndpoint.deleted_at.is_(None))
        .order_by(WebhookEndpoint.created_at, WebhookEndpoint.id)
    )
    return list(session.scalars(statement))


def delete_endpoint(session: Session, company_id: uuid.UUID, endpoint_id: uuid.UUID) -> bool:
    """Mark the company's endpoint deleted; its pending deliveries are never claimed
    again. False when the company has no such live endpoint."""
    result = session.execute(
        update(WebhookEndpoint)
        .where(
            WebhookEndpoint.id == endpoint_id,
            WebhookEndpoint.company_id == company_id,
            WebhookEndpoint.deleted_at.is_(None),
        )
        .values(deleted_at=utcnow())
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


def endpoints_of_companies(
    session: Session, company_ids: Iterable[uuid.UUID]
) -> list[WebhookEndpoint]:
    """The live endpoints of these companies: who hears of a state change."""
    wanted = list(set(company_ids))
    if not wanted:
        return []
    return list(session.scalars(_ENDPOINTS_OF_COMPANIES, {"companies": wanted}))


# Built once: every commit that moves an upload asks it (storage/webhook_outbox.py).
_ENDPOINTS_OF_COMPANIES = select(WebhookEndpoint).where(
    WebhookEndpoint.company_id.in_(bindparam("companies", expanding=True)),
    WebhookEndpoint.deleted_at.is_(None),
)


# --- the outbox ------------------------------------------------------------------------


def add_delivery(
    session: Session,
    endpoint_id: uuid.UUID,
    event_type: str,
    subject_id: uuid.UUID,
    payload: dict[str, Any],
    now: datetime,
) -> None:
    session.add(
        WebhookDelivery(
            message_id=new_message_id(),
            endpoint_id=endpoint_id,
            event_type=event_type,
            subject_id=subject_id,
            payload=payload,
            attempts=0,
            next_attempt_at=now,
            created_at=now,
        )
    )


@dataclass(frozen=True, slots=True)
class ClaimedDelivery:
    """What a sender needs to make one attempt."""

    id: int
    message_id: str
    url: str
    secret: str
    payload: dict[str, Any]
    attempts: int  # including this one


def _due(now: datetime | ColumnElement[datetime], limit: int) -> Select[tuple[int]]:
    """Due deliveries to live endpoints, oldest due first. A delivery waits while an
    earlier one of the same subject to the same endpoint is pending: one upload's
    events arrive in the order of its states."""
    delivery = WebhookDelivery
    earlier = aliased(WebhookDelivery)
    blocked = exists().where(
        earlier.endpoint_id == delivery.endpoint_id,
        earlier.subject_id == delivery.subject_id,
        earlier.id < delivery.id,
        earlier.next_attempt_at.is_not(None),
    )
    live = select(WebhookEndpoint.id).where(WebhookEndpoint.deleted_at.is_(None))
    return (
        select(delivery.id)
        .where(delivery.next_attempt_at <= now, delivery.endpoint_id.in_(live), ~blocked)
        .order_by(delivery.next_attempt_at, delivery.id)
        .limit(limit)
    )


def has_due(session: Session, now: datetime) -> bool:
    """Whether a claim would find anything: a read, cheaper than a claim's write."""
    return session.scalars(_ANY_DUE, {"now": now}).first() is not None


# Built once: the sender asks five times a second.
_ANY_DUE = _due(bindparam("now", type_=UTCDateTime()), 1)


def claim_due(
    session: Session, now: datetime, limit: int, lease: timedelta
) -> list[ClaimedDelivery]:
    """Up to `limit` due deliveries (see `_due`), each moved a lease ahead and counted
    as an attempt."""
    delivery = WebhookDelivery
    statement = select(delivery).where(delivery.id.in_(_due(now, limit))).order_by(delivery.id)
    claimed = list(session.scalars(locked(session, statement, skip_locked=True)))
    if not claimed:
        return []
    targets = _targets(session, {row.endpoint_id for row in claimed})
    for row in claimed:
        row.attempts += 1
        row.next_attempt_at = now + lease
        row.last_attempt_at = now
    session.flush()
    return [
        ClaimedDelivery(
            row.id, row.message_id, *targets[row.endpoint_id], row.payload, row.attempts
        )
        for row in claimed
    ]


def _targets(session: Session, endpoint_ids: set[uuid.UUID]) -> dict[uuid.UUID, tuple[str, str]]:
    statement = select(WebhookEndpoint.id, WebhookEndpoint.url, WebhookEndpoint.secret).where(
        WebhookEndpoint.id.in_(endpoint_ids)
    )
    return {endpoint_id: (url, secret) for endpoint_id, url, secret in session.execute(statement)}


def record_delivered(session: Session, delivery_id: int, status_code: int, now: datetime) -> None:
    session.execute(
        update(WebhookDelivery)
        .where(WebhookDelivery.id == delivery_id)
        .values(
            delivered_at=now,
            next_attempt_at=None,
            last_status_code=status_code,
            last_error=None,
        )
    )


def record_failed(
    session: Session,
    delivery_id: int,
    status_code: int | None,
    error: str,
    now: datetime,
    retry_at: datetime | None,
) -> None:
    """A failed attempt: tried again at `retry_at`, or given up when that is None."""
    session.execute(
        update(WebhookDelivery)
        .where(WebhookDelivery.id == delivery_id, WebhookDelivery.delivered_at.is_(None))
        .values(
            next_attempt_at=retry_at,
            gave_up_at=now if retry_at is None else None,
            last_status_code=status_code,
            last_error=error[:MAX_ERROR_LENGTH],
        )
    )


# --- the web application ---------------------------------------------------------------


def recent_deliveries(
    session: Session, endpoint_id: uuid.UUID, limit: int
) -> list[WebhookDelivery]:
    statement = (
        select(WebhookDelivery)
        .where(WebhookDelivery.endpoint_id == endpoint_id)
        .order_by(WebhookDelivery.id.desc())
        .limit(limit)
    )
    return list(session.scalars(statement))


def send_again(session: Session, company_id: uuid.UUID, message_id: str) -> bool:
    """Schedule one of the company's deliveries (to a live endpoint) now, with the same
    `webhook-id` and a fresh retry schedule. False when there is no such delivery."""
    own = select(WebhookEndpoint.id).where(
        WebhookEndpoint.company_id == company_id, WebhookEndpoint.deleted_at.is_(None)
    )
    statement = select(WebhookDelivery).where(
        WebhookDelivery.message_id == message_id, WebhookDelivery.endpoint_id.in_(own)
    )
    delivery = session.scalars(locked(session, statement)).one_or_none()
    if delivery is None:
        return False
    delivery.attempts = 0
    delivery.next_attempt_at = utcnow()
    delivery.delivered_at = delivery.gave_up_at = None
    session.flush()
    return True


def pending_count(session: Session) -> int:
    """Deliveries not yet delivered nor given up (tests, benchmarks)."""
    statement = select(func.count()).where(WebhookDelivery.next_attempt_at.is_not(None))
    return int(session.scalar(statement) or 0)

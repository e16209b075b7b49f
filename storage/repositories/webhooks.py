"""Webhook endpoints and the outbox of deliveries: every statement on these tables but
the claims (storage/repositories/webhook_claims.py).

Secrets are stored sealed (storage/secret_box.py): a new one is shown to its caller
once, in the clear only on its way out of here.
"""

from __future__ import annotations

import base64
import secrets
import uuid
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, func, select, update
from sqlalchemy.orm import Session

from storage import errors
from storage.db import locked
from storage.models import Company, utcnow
from storage.secret_box import SecretBox
from storage.webhook_models import WebhookDelivery, WebhookEndpoint

SECRET_PREFIX = "whsec_"
MAX_ERROR_LENGTH = 1000
# Each event is multiplied by the company's endpoints: a bound on what one company can
# make the outbox and the senders carry.
MAX_ENDPOINTS_PER_COMPANY = 20
# After a rotation the previous secret still signs (a second `v1,` signature) this long,
# so receivers can switch over without losing an event (Standard Webhooks).
PREVIOUS_SECRET_VALID = timedelta(hours=24)


def new_secret() -> str:
    """`whsec_` + base64 of 32 random bytes (the Standard Webhooks form)."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode("ascii")


def new_message_id() -> str:
    return f"msg_{uuid.uuid4().hex}"


# --- endpoints -------------------------------------------------------------------------


def create_endpoint(
    session: Session, company_id: uuid.UUID, url: str, events: Sequence[str], box: SecretBox
) -> tuple[WebhookEndpoint, str]:
    """A new endpoint and its secret (stored sealed, in the clear only here);
    `TooManyWebhookEndpoints` when the company has the most it may.
    The company's row lock makes the count and the insert one step on Postgres (SQLite
    writers hold the database's write lock anyway)."""
    session.execute(locked(session, select(Company.id).where(Company.id == company_id)))
    live = select(func.count()).where(
        WebhookEndpoint.company_id == company_id, WebhookEndpoint.deleted_at.is_(None)
    )
    if (session.scalar(live) or 0) >= MAX_ENDPOINTS_PER_COMPANY:
        raise errors.TooManyWebhookEndpoints(
            f"a company may have at most {MAX_ENDPOINTS_PER_COMPANY} webhook endpoints;"
            " delete one first"
        )
    secret = new_secret()
    endpoint = WebhookEndpoint(
        company_id=company_id, url=url, events=list(events), sealed_secret=box.seal(secret)
    )
    session.add(endpoint)
    session.flush()
    return endpoint, secret


def rotate_secret(
    session: Session, company_id: uuid.UUID, endpoint_id: uuid.UUID, box: SecretBox
) -> tuple[WebhookEndpoint, str] | None:
    """A new secret, which signs from now on; the current one keeps signing beside it for
    `PREVIOUS_SECRET_VALID` (a secret rotated out before is dropped). None when the
    company has no such live endpoint."""
    statement = select(WebhookEndpoint).where(
        WebhookEndpoint.id == endpoint_id,
        WebhookEndpoint.company_id == company_id,
        WebhookEndpoint.deleted_at.is_(None),
    )
    endpoint = session.scalars(locked(session, statement)).one_or_none()
    if endpoint is None:
        return None
    secret = new_secret()
    endpoint.sealed_previous_secret = endpoint.sealed_secret
    endpoint.previous_secret_until = utcnow() + PREVIOUS_SECRET_VALID
    endpoint.sealed_secret = box.seal(secret)
    session.flush()
    return endpoint, secret


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


def record_delivered(session: Session, delivery_id: int, status_code: int, now: datetime) -> None:
    session.execute(
        update(WebhookDelivery)
        .where(WebhookDelivery.id == delivery_id)
        .values(
            delivered_at=now,
            next_attempt_at=None,
            leased_until=None,
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
            leased_until=None,
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

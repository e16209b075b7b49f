"""Webhook endpoints and the outbox of deliveries: every statement on these tables.

Claims are atomic like the pipeline's (storage/repositories/work.py): `FOR UPDATE SKIP
LOCKED` on Postgres, the database write lock on SQLite, so any number of senders share
the outbox. A delivery is claimed by moving its `next_attempt_at` a lease ahead; a
sender that dies mid-delivery leaves it to be claimed again when the lease ends.

Claims go in turns: the company with the fewest attempts in flight first, and never more
than a cap in flight per endpoint and per company (`InFlightCaps`), so one company's
backlog to an endpoint that never answers cannot hold every sender's slots.

Secrets are stored sealed (storage/secret_box.py): a new one is shown to its caller
once, and claims hand the sender sealed ones, which it opens only to sign.
"""

from __future__ import annotations

import base64
import secrets
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from sqlalchemy import ColumnElement, Select, bindparam, exists, func, select, update
from sqlalchemy.orm import Session, aliased

from storage import errors
from storage.db import locked
from storage.models import Company, UTCDateTime, utcnow
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


@dataclass(frozen=True, slots=True)
class ClaimedDelivery:
    """What a sender needs to make one attempt."""

    id: int
    message_id: str
    url: str
    # The secrets that sign it, sealed: the current one, then a rotated one still valid.
    sealed_secrets: tuple[str, ...]
    payload: dict[str, Any]
    attempts: int  # including this one


@dataclass(frozen=True)
class InFlightCaps:
    """How many attempts may be in flight at once, over all senders, to one endpoint and
    for one company. Two senders claiming at the same moment may each fill a cap (each
    sees the other's claims only once committed)."""

    endpoint: int
    company: int


def _due(
    now: datetime | ColumnElement[datetime], limit: int, caps: InFlightCaps
) -> Select[tuple[int]]:
    """Due deliveries to live endpoints, in turns: first those of the companies with the
    fewest attempts in flight, oldest due first within a company; none that would take an
    endpoint or a company over its cap. A delivery waits while an earlier one of the same
    subject to the same endpoint is pending: one upload's events arrive in the order of
    its states."""
    delivery, endpoint = WebhookDelivery, WebhookEndpoint
    earlier = aliased(WebhookDelivery)
    blocked = exists().where(
        earlier.endpoint_id == delivery.endpoint_id,
        earlier.subject_id == delivery.subject_id,
        earlier.id < delivery.id,
        earlier.next_attempt_at.is_not(None),
    )
    held = aliased(WebhookDelivery)
    held_endpoint = aliased(WebhookEndpoint)
    per_endpoint = (
        select(held.endpoint_id, func.count().label("n"))
        .where(held.leased_until > now)
        .group_by(held.endpoint_id)
        .subquery()
    )
    per_company = (
        select(held_endpoint.company_id, func.count().label("n"))
        .join(held, held.endpoint_id == held_endpoint.id)
        .where(held.leased_until > now)
        .group_by(held_endpoint.company_id)
        .subquery()
    )
    oldest_first = (delivery.next_attempt_at, delivery.id)
    candidates = (
        select(
            delivery.id,
            delivery.next_attempt_at,
            endpoint.company_id,
            (
                func.row_number().over(partition_by=delivery.endpoint_id, order_by=oldest_first)
                + func.coalesce(per_endpoint.c.n, 0)
            ).label("endpoint_load"),
            func.coalesce(per_company.c.n, 0).label("company_held"),
        )
        .join(endpoint, endpoint.id == delivery.endpoint_id)
        .outerjoin(per_endpoint, per_endpoint.c.endpoint_id == delivery.endpoint_id)
        .outerjoin(per_company, per_company.c.company_id == endpoint.company_id)
        .where(delivery.next_attempt_at <= now, endpoint.deleted_at.is_(None), ~blocked)
        .subquery()
    )
    turns = (
        select(
            candidates.c.id,
            candidates.c.next_attempt_at,
            (
                func.row_number().over(
                    partition_by=candidates.c.company_id,
                    order_by=(candidates.c.next_attempt_at, candidates.c.id),
                )
                + candidates.c.company_held
            ).label("turn"),
        )
        .where(candidates.c.endpoint_load <= caps.endpoint)
        .subquery()
    )
    return (
        select(turns.c.id)
        .where(turns.c.turn <= caps.company)
        .order_by(turns.c.turn, turns.c.next_attempt_at, turns.c.id)
        .limit(limit)
    )


def has_due(session: Session, now: datetime, caps: InFlightCaps) -> bool:
    """Whether a claim would find anything: a read, cheaper than a claim's write."""
    return session.scalars(_any_due(caps), {"now": now}).first() is not None


@lru_cache(maxsize=8)
def _any_due(caps: InFlightCaps) -> Select[tuple[int]]:
    """Built once per caps: the sender asks at every poll."""
    return _due(bindparam("now", type_=UTCDateTime()), 1, caps)


def claim_due(
    session: Session, now: datetime, limit: int, lease: timedelta, caps: InFlightCaps
) -> list[ClaimedDelivery]:
    """Up to `limit` due deliveries (see `_due`), each moved a lease ahead, held until
    then, and counted as an attempt."""
    delivery = WebhookDelivery
    statement = (
        select(delivery).where(delivery.id.in_(_due(now, limit, caps))).order_by(delivery.id)
    )
    claimed = list(session.scalars(locked(session, statement, skip_locked=True)))
    if not claimed:
        return []
    secrets_of = _sealed_secrets(session, {row.endpoint_id for row in claimed}, now)
    for row in claimed:
        row.attempts += 1
        row.next_attempt_at = row.leased_until = now + lease
        row.last_attempt_at = now
    session.flush()
    return [
        ClaimedDelivery(
            row.id, row.message_id, *secrets_of[row.endpoint_id], row.payload, row.attempts
        )
        for row in claimed
    ]


def _sealed_secrets(
    session: Session, endpoint_ids: set[uuid.UUID], now: datetime
) -> dict[uuid.UUID, tuple[str, tuple[str, ...]]]:
    """Each endpoint's URL and the sealed secrets that sign for it now."""
    statement = select(WebhookEndpoint).where(WebhookEndpoint.id.in_(endpoint_ids))
    return {
        endpoint.id: (endpoint.url, signing_secrets(endpoint, now))
        for endpoint in session.scalars(statement)
    }


def signing_secrets(endpoint: WebhookEndpoint, now: datetime) -> tuple[str, ...]:
    previous, until = endpoint.sealed_previous_secret, endpoint.previous_secret_until
    if previous is not None and until is not None and until > now:
        return (endpoint.sealed_secret, previous)
    return (endpoint.sealed_secret,)


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

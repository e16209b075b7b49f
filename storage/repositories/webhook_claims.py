"""Claiming due webhook deliveries: which ones a sender takes next, and what it needs
to make the attempt.

Claims are atomic like the pipeline's (storage/repositories/work.py): `FOR UPDATE SKIP
LOCKED` on Postgres, the database write lock on SQLite, so any number of senders share
the outbox. A delivery is claimed by moving its `next_attempt_at` a lease ahead and
holding it (`leased_until`) until then; a sender that dies mid-delivery leaves it to be
claimed again when the lease ends.

Claims go in turns: the company with the fewest attempts in flight first, oldest due
first within a company, and never more than a cap in flight per endpoint and per company
(`InFlightCaps`), so one company's backlog to an endpoint that never answers cannot hold
every sender's slots. Secrets come out sealed (storage/secret_box.py): the sender opens
them only to sign.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from sqlalchemy import ColumnElement, Select, bindparam, exists, func, select
from sqlalchemy.orm import Session, aliased

from storage.column_types import UTCDateTime
from storage.db import locked
from storage.webhook_models import WebhookDelivery, WebhookEndpoint


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
        .where(
            delivery.next_attempt_at <= now,
            endpoint.deleted_at.is_(None),
            # Full endpoints and companies out before the costlier checks: a backlog behind
            # a full cap is what a claim meets most while an endpoint does not answer.
            func.coalesce(per_endpoint.c.n, 0) < caps.endpoint,
            func.coalesce(per_company.c.n, 0) < caps.company,
            ~blocked,
        )
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

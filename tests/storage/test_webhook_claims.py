"""Claims go in turns per company, within the caps in flight per endpoint and per
company; a lease that ended frees its place. Both backends, rolled back per test."""

from __future__ import annotations

import uuid
from datetime import timedelta

from sqlalchemy import select

from storage.db import Database
from storage.models import utcnow
from storage.repositories import webhook_claims
from storage.repositories import webhooks as webhook_repo
from storage.repositories.webhook_claims import ClaimedDelivery, InFlightCaps
from storage.secret_box import SecretBox
from storage.webhook_models import WebhookDelivery
from tests.conftest import Tenant

BOX = SecretBox("test-key", b"test")
LEASE = timedelta(minutes=1)
CAPS = InFlightCaps(endpoint=3, company=5)


def _endpoint(db: Database, company_id: uuid.UUID) -> uuid.UUID:
    with db.session() as session:
        endpoint, _ = webhook_repo.create_endpoint(
            session, company_id, "http://127.0.0.1:9/hook", ["upload.failed"], BOX
        )
        session.commit()
    return endpoint.id


def _due(db: Database, endpoint_id: uuid.UUID, count: int, age: timedelta) -> set[int]:
    """`count` deliveries to the endpoint, due since `age` ago; their ids."""
    since = utcnow() - age
    with db.session() as session:
        for _ in range(count):
            payload = {"type": "upload.failed", "timestamp": "t", "data": {}}
            webhook_repo.add_delivery(
                session, endpoint_id, "upload.failed", uuid.uuid4(), payload, since
            )
        session.commit()
    with db.read_session() as session:
        ids = select(WebhookDelivery.id).where(WebhookDelivery.endpoint_id == endpoint_id)
        return set(session.scalars(ids))


def _claim(db: Database, limit: int = 100) -> list[ClaimedDelivery]:
    with db.session() as session:
        claimed = webhook_claims.claim_due(session, utcnow(), limit, LEASE, CAPS)
        session.commit()
    return claimed


def test_a_company_with_a_backlog_takes_turns_with_another(
    database: Database, tenant: Tenant, other_tenant: Tenant
) -> None:
    backlog = _due(database, _endpoint(database, tenant.company_id), 10, timedelta(hours=1))
    single = _due(database, _endpoint(database, other_tenant.company_id), 1, timedelta(0))
    first_two = {claim.id for claim in _claim(database, limit=2)}
    assert len(first_two & backlog) == 1 and first_two & single == single


def test_caps_bound_what_is_in_flight_per_endpoint_and_per_company(
    database: Database, tenant: Tenant, other_tenant: Tenant
) -> None:
    one = _due(database, _endpoint(database, tenant.company_id), 10, timedelta(hours=1))
    two = _due(database, _endpoint(database, tenant.company_id), 10, timedelta(hours=1))
    single = _due(database, _endpoint(database, other_tenant.company_id), 1, timedelta(0))

    claimed = {claim.id for claim in _claim(database)}
    assert claimed & single == single
    assert len(claimed & one) <= CAPS.endpoint and len(claimed & two) <= CAPS.endpoint
    assert len(claimed & (one | two)) == CAPS.company
    assert _claim(database) == []  # both caps are full while the attempts are in flight

    with database.session() as session:
        webhook_repo.record_delivered(session, min(claimed & one), 204, utcnow())
        session.commit()
    (next_one,) = _claim(database)
    assert next_one.id in one | two


def test_a_lease_that_ended_no_longer_counts_as_in_flight(
    database: Database, tenant: Tenant
) -> None:
    _due(database, _endpoint(database, tenant.company_id), 5, timedelta(hours=1))
    assert len(_claim(database)) == CAPS.endpoint
    later = utcnow() + LEASE + timedelta(seconds=1)  # the sender died: its leases ended
    with database.session() as session:
        again = webhook_claims.claim_due(session, later, 100, LEASE, CAPS)
    assert len(again) == CAPS.endpoint

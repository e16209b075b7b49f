"""One company's backlog to an endpoint that never answers does not hold up another
company's event: the sender claims in turns per company and holds at most a few
attempts per endpoint (storage/repositories/webhook_claims.py). A real sender, a real
receiver on loopback, a real black hole (connections never accepted), both backends.

Oldest first over all companies on 8 slots, as before, the other company's event waited
for the whole backlog: 75.9 s (measured on SQLite, 2026-11-28)."""

from __future__ import annotations

import time
import uuid
from pathlib import Path

from sqlalchemy import Engine, func, select

from storage.db import Database
from storage.models import utcnow
from storage.repositories import webhooks as webhook_repo
from storage.webhook_models import WebhookDelivery
from testkit.webhook_receiver import black_hole, new_receiver, receiving
from tests.conftest import Tenant, make_tenant
from tests.flows.test_webhook_sender import (
    endpoint,
    failed_upload,
    fast_settings,
    sending,
    wait_for,
)

BACKLOG = 300
# The other company's event reaches its receiver within this of its state change: the
# sender's poll (0.2 s, or news at once), a claim, one attempt, on a loaded machine.
WITHIN_SECONDS = 5.0


def backlog(db: Database, tenant: Tenant, count: int) -> None:
    """`count` events of the tenant's, due now, to its (only) endpoint."""
    now = utcnow()
    payload = {"type": "upload.failed", "timestamp": "t", "data": {}}
    with db.session() as session:
        (target,) = webhook_repo.live_endpoints(session, tenant.company_id)
        for _ in range(count):
            webhook_repo.add_delivery(
                session, target.id, "upload.failed", uuid.uuid4(), payload, now
            )
        session.commit()


def in_flight(db: Database) -> int:
    held = select(func.count()).where(WebhookDelivery.leased_until > utcnow())
    with db.read_session() as session:
        return int(session.scalar(held) or 0)


def test_a_black_hole_of_one_company_does_not_hold_up_another(
    fresh_engine: Engine, tmp_path: Path
) -> None:
    db = Database(fresh_engine)
    settings = fast_settings(tmp_path)  # attempts of 2 s
    slow, other = make_tenant(db, "Slow GmbH"), make_tenant(db, "Other AG")
    receiver = new_receiver(204)
    with black_hole() as port, receiving(receiver), sending(db, settings):
        endpoint(db, slow, f"http://127.0.0.1:{port}/hook", settings)
        endpoint(db, other, receiver.url, settings)
        backlog(db, slow, BACKLOG)
        wait_for(lambda: in_flight(db) == settings.webhook_endpoint_concurrency)
        time.sleep(settings.webhook_timeout_seconds)  # the backlog has had its turns
        assert in_flight(db) <= settings.webhook_endpoint_concurrency

        changed = time.monotonic()
        failed_upload(db, other)
        wait_for(lambda: len(receiver.requests()) == 1)
        waited = receiver.requests()[0].at - changed
    assert waited < WITHIN_SECONDS, f"waited {waited:.1f} s"

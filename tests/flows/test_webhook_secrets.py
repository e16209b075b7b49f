"""Webhook secrets: sealed at rest, so a read-only copy of the database cannot sign; and
rotated, the previous secret signing beside the new one until it expires. Verified with
the `standardwebhooks` reference package on real deliveries, both backends."""

from __future__ import annotations

import base64
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine, text, update
from standardwebhooks import Webhook
from standardwebhooks.webhooks import WebhookVerificationError

from docintake_client import verify_webhook
from storage.db import Database
from storage.models import utcnow
from storage.repositories import webhooks as webhook_repo
from storage.secret_box import SecretBox, SecretUnreadable
from storage.webhook_models import WebhookEndpoint
from testkit.webhook_receiver import new_receiver, receiving
from tests.conftest import make_tenant
from tests.flows.test_webhook_sender import (
    delivered,
    endpoint,
    failed_upload,
    fast_settings,
    sending,
    wait_for,
)


def test_the_database_holds_no_secret_that_signs(fresh_engine: Engine, tmp_path: Path) -> None:
    db = Database(fresh_engine)
    settings = fast_settings(tmp_path, secret_key="k" * 40)
    secret = endpoint(db, make_tenant(db), "http://127.0.0.1:9/hook", settings)
    key_bytes = base64.b64decode(secret.removeprefix("whsec_"))
    with fresh_engine.connect() as connection:
        (row,) = connection.execute(text("SELECT * FROM webhook_endpoints")).mappings()
    for value in row.values():
        stored = str(value).encode()
        assert secret.encode() not in stored and secret[6:].encode() not in stored
        assert key_bytes not in stored and base64.urlsafe_b64encode(key_bytes) not in stored
    sealed = str(row["sealed_secret"])
    assert SecretBox.for_webhooks(settings).open(sealed) == secret
    other_key = fast_settings(tmp_path, secret_key="o" * 40)
    with pytest.raises(SecretUnreadable, match="DOCINTAKE_SECRET_KEY"):
        SecretBox.for_webhooks(other_key).open(sealed)


def _expire_previous_secret(db: Database) -> None:
    with db.session() as session:
        past = utcnow() - timedelta(seconds=1)
        session.execute(update(WebhookEndpoint).values(previous_secret_until=past))
        session.commit()


def test_a_rotated_secret_signs_beside_the_new_one_until_it_expires(
    fresh_engine: Engine, tmp_path: Path
) -> None:
    db = Database(fresh_engine)
    settings = fast_settings(tmp_path)
    tenant = make_tenant(db)
    receiver = new_receiver(204)
    old = endpoint(db, tenant, receiver.url, settings)
    with db.session() as session:
        (listed,) = webhook_repo.live_endpoints(session, tenant.company_id)
        rotation = webhook_repo.rotate_secret(
            session, tenant.company_id, listed.id, SecretBox.for_webhooks(settings)
        )
        session.commit()
    assert rotation is not None
    new = rotation[1]

    with receiving(receiver), sending(db, settings):
        failed_upload(db, tenant)
        wait_for(delivered(db, 1))
        _expire_previous_secret(db)
        failed_upload(db, tenant)
        wait_for(delivered(db, 2))

    during, after = receiver.requests()
    assert len(during.headers["webhook-signature"].split(" ")) == 2
    for secret in (new, old):
        Webhook(secret).verify(during.body, during.headers)
        verify_webhook(secret, during.headers, during.body)
    assert len(after.headers["webhook-signature"].split(" ")) == 1
    Webhook(new).verify(after.body, after.headers)
    with pytest.raises(WebhookVerificationError):
        Webhook(old).verify(after.body, after.headers)

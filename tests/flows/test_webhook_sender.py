"""The webhook sender against a real receiver on loopback (uvicorn), on a database that
really commits (both backends). Signatures are checked with the `standardwebhooks`
reference package. The retry schedule's base is shortened (production: 5 s doubling to
1 h for 24 h) so that "down for a while" takes seconds, not minutes."""

from __future__ import annotations

import json
import ssl
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, select
from standardwebhooks import Webhook

from api.app import create_app
from api.deps import Services
from docintake_client import verify_webhook
from flows import webhook_sender
from flows.webhook_sender import RetrySchedule, WebhookSender, event_body
from storage.db import Database
from storage.models import Upload, utcnow
from storage.objectstore import LocalDirStore
from storage.repositories import uploads as upload_repo
from storage.repositories import webhooks as webhook_repo
from storage.repositories.webhook_claims import ClaimedDelivery
from storage.secret_box import SecretBox
from storage.settings import Environment, Settings
from storage.states import UploadStatus
from storage.webhook_models import WebhookDelivery
from testkit.webhook_receiver import new_receiver, receiving
from tests.conftest import Tenant, make_tenant

EVENTS = ["upload.completed", "upload.failed", "upload.deleted", "batch.completed"]


@pytest.fixture
def db(fresh_engine: Engine) -> Database:
    return Database(fresh_engine)


def fast_settings(tmp_path: Path, **overrides: object) -> Settings:
    values: dict[str, object] = {
        "environment": Environment.TEST,
        "var_dir": tmp_path / "var",
        "public_base_url": "http://testserver",
        "webhook_timeout_seconds": 2.0,
        "webhook_retry_base_seconds": 0.2,
        "webhook_retry_max_seconds": 1.0,
        "webhook_retry_window_seconds": 60.0,
        **overrides,
    }
    return Settings(**values)  # type: ignore[arg-type]


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return fast_settings(tmp_path)


@contextmanager
def sending(
    db: Database, settings: Settings, tls: ssl.SSLContext | None = None
) -> Iterator[WebhookSender]:
    sender = WebhookSender(db, settings, tls)
    thread = threading.Thread(target=sender.run, daemon=True)
    thread.start()
    try:
        yield sender
    finally:
        sender.stop.set()
        thread.join(timeout=30)


def wait_for(check: Callable[[], bool], seconds: float = 120.0) -> None:
    """Poll until `check` holds; the bound is generous (a shared machine may be at load
    20), it only ends a test that would otherwise hang."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not within the time allowed"
        time.sleep(0.05)


def endpoint(db: Database, tenant: Tenant, url: str, settings: Settings | None = None) -> str:
    """A new endpoint of the tenant's; its secret, sealed under the settings' key."""
    with db.session() as session:
        box = SecretBox.for_webhooks(settings or Settings())
        _, secret = webhook_repo.create_endpoint(session, tenant.company_id, url, EVENTS, box)
        session.commit()
    return secret


def failed_upload(db: Database, tenant: Tenant) -> uuid.UUID:
    """An upload refused at intake: an `upload.failed` event in the same commit."""
    upload = Upload(
        id=uuid.uuid4(),
        company_id=tenant.company_id,
        file_name="photo.png",
        document_type="auto",
        sha256=uuid.uuid4().hex * 2,
        size_bytes=1,
        attempts=0,
        object_key=None,
    )
    with db.session() as session:
        upload_repo.refused_at_intake(upload, "unsupported_file_type", "not a document")
        upload_repo.add_upload(session, upload, UploadStatus.FAILED)
        session.commit()
    return upload.id


def deliveries(db: Database) -> list[WebhookDelivery]:
    with db.read_session() as session:
        return list(session.scalars(select(WebhookDelivery).order_by(WebhookDelivery.id)))


def delivered(db: Database, count: int = 1) -> Callable[[], bool]:
    return lambda: sum(d.delivered_at is not None for d in deliveries(db)) >= count


def test_a_signed_event_carries_the_resource_as_get_returns_it(
    db: Database, settings: Settings, tmp_path: Path
) -> None:
    tenant = make_tenant(db)
    receiver = new_receiver(204)
    secret = endpoint(db, tenant, receiver.url)
    upload_id = failed_upload(db, tenant)
    with receiving(receiver), sending(db, settings):
        wait_for(delivered(db))

    (request,) = receiver.requests()
    event = Webhook(secret).verify(request.body, request.headers)
    assert verify_webhook(secret, request.headers, request.body) == event  # the client's
    assert event["type"] == "upload.failed"
    assert event["timestamp"].endswith("Z")
    services = Services(settings=settings, db=db, store=LocalDirStore(tmp_path / "objects"))
    with TestClient(create_app(services)) as api:
        resource = api.get(f"/v1/uploads/{upload_id}", headers=tenant.headers).json()
    assert event["data"] == resource
    assert request.headers["content-type"] == "application/json"
    (row,) = deliveries(db)
    assert row.message_id == request.message_id and row.last_status_code == 204
    with pytest.raises(Exception, match="signature"):
        Webhook(endpoint(db, tenant, receiver.url)).verify(request.body, request.headers)


def test_a_500_is_retried_with_the_same_id(db: Database, settings: Settings) -> None:
    tenant = make_tenant(db)
    receiver = new_receiver(500, 200)
    secret = endpoint(db, tenant, receiver.url)
    failed_upload(db, tenant)
    with receiving(receiver), sending(db, settings):
        wait_for(delivered(db))

    first, second = receiver.requests()
    assert first.message_id == second.message_id
    assert first.headers["webhook-signature"] != "" and first.body == second.body
    Webhook(secret).verify(second.body, second.headers)
    assert second.at - first.at < 10  # the first retry comes within 10 s (here: 0.2 s)
    (row,) = deliveries(db)
    assert (row.attempts, row.last_status_code, row.next_attempt_at) == (2, 200, None)


def test_a_receiver_that_is_down_gets_the_event_once_it_is_up(
    db: Database, settings: Settings
) -> None:
    tenant = make_tenant(db)
    receiver = new_receiver(204)  # its port is free: nobody answers yet
    endpoint(db, tenant, receiver.url)
    failed_upload(db, tenant)
    with sending(db, settings):
        wait_for(lambda: deliveries(db)[0].attempts >= 4)
        down = deliveries(db)[0]
        assert down.delivered_at is None and down.last_error
        with receiving(receiver):
            wait_for(delivered(db))
    assert len(receiver.requests()) == 1


def test_deleting_the_endpoint_stops_its_deliveries(db: Database, settings: Settings) -> None:
    tenant = make_tenant(db)
    receiver = new_receiver(503)
    endpoint(db, tenant, receiver.url)
    failed_upload(db, tenant)
    with receiving(receiver), sending(db, settings):
        wait_for(lambda: len(receiver.requests()) >= 2)
        with db.session() as session:
            (listed,) = webhook_repo.live_endpoints(session, tenant.company_id)
            webhook_repo.delete_endpoint(session, tenant.company_id, listed.id)
            session.commit()
        time.sleep(settings.webhook_timeout_seconds)  # an attempt on the wire may end
        seen = len(receiver.requests())
        time.sleep(5 * settings.webhook_retry_max_seconds)
        assert len(receiver.requests()) == seen
    assert deliveries(db)[0].delivered_at is None


def test_one_uploads_events_arrive_in_the_order_of_its_states(
    db: Database, settings: Settings
) -> None:
    tenant = make_tenant(db)
    receiver = new_receiver(500, 500, 204)
    endpoint(db, tenant, receiver.url)
    upload_id = failed_upload(db, tenant)
    with db.session() as session:  # a repeat puts it back; then it fails again
        upload = session.get(Upload, upload_id)
        assert upload is not None
        upload_repo.change_status(session, upload, UploadStatus.QUEUED)
        session.commit()
        upload_repo.change_status(session, upload, UploadStatus.FAILED)
        session.commit()
    first, second = deliveries(db)
    with receiving(receiver), sending(db, settings):
        wait_for(delivered(db, 2))
    ids = [request.message_id for request in receiver.requests()]
    assert ids == [first.message_id] * 3 + [second.message_id]


def test_the_retry_schedule_spans_a_day_in_production() -> None:
    schedule = RetrySchedule.from_settings(Settings())
    assert schedule.delay(1) <= 10
    assert [schedule.delay(n) for n in (1, 2, 3)] == [5, 10, 20]
    assert schedule.delay(30) == 3600
    delays = [schedule.delay(n) for n in range(1, schedule.max_attempts)]
    assert 24 * 3600 <= sum(delays) < 25 * 3600
    assert schedule.next_attempt(schedule.max_attempts, utcnow()) is None


def test_the_body_is_compact_json_with_absolute_result_urls() -> None:
    result = {"type": "invoice", "id": "x", "url": "/app/invoices/x"}
    payload = {"type": "upload.completed", "timestamp": "t", "data": {"result": result}}
    claimed = ClaimedDelivery(1, "msg_1", "http://h/", ("v1.",), payload, 1)
    body = json.loads(event_body(claimed, "https://docs.example.com/"))
    assert body["data"]["result"]["url"] == "https://docs.example.com/app/invoices/x"


def test_an_event_goes_out_at_once_while_the_sender_polls_seldom(
    listening_engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The outbox announces the deliveries it adds (storage/work_news.py); the sender
    hears it and claims at once, however seldom it polls."""
    monkeypatch.setattr(webhook_sender, "POLL_SECONDS", 60.0)
    monkeypatch.setattr(webhook_sender, "ANNOUNCED_POLL_SECONDS", 60.0)
    db = Database(listening_engine)
    tenant = make_tenant(db)
    receiver = new_receiver(204)
    endpoint(db, tenant, receiver.url)
    seldom = fast_settings(
        tmp_path, webhook_retry_base_seconds=60.0, webhook_retry_max_seconds=60.0
    )
    with receiving(receiver), sending(db, seldom):
        time.sleep(1.5)  # the sender has polled once and listens
        failed_upload(db, tenant)
        wait_for(delivered(db), seconds=10.0)

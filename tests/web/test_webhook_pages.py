"""The webhooks page: the company's endpoints with their recent deliveries, and sending a
delivery again; another company's deliveries are neither shown nor sent."""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

from fastapi.testclient import TestClient
from sqlalchemy import select

from api.deps import Services
from storage.db import Database
from storage.models import utcnow
from storage.repositories import uploads as upload_repo
from storage.repositories import webhook_claims
from storage.repositories import webhooks as webhook_repo
from storage.secret_box import SecretBox
from storage.states import UploadStatus
from storage.webhook_models import WebhookDelivery
from tests.web.support import Account, seed_upload, session_csrf
from tests.web.test_page_audit import audit

PAGE = "/app/settings/webhooks"
BOX = SecretBox("test-key", b"test")
CAPS = webhook_claims.InFlightCaps(10, 10)
SEND_AGAIN = f"{PAGE}/send-again"
ROTATE = f"{PAGE}/rotate-secret"


def _given_up_delivery(database: Database, company_id: uuid.UUID, url: str) -> str:
    """An endpoint with one delivery that was given up after a 500."""
    with database.session() as session:
        webhook_repo.create_endpoint(session, company_id, url, ["upload.deleted"], BOX)
        session.commit()
    upload_id = seed_upload(database, company_id, status="completed", result_type="invoice")
    with database.session() as session:
        upload = upload_repo.get_upload(session, company_id, upload_id)
        assert upload is not None
        upload_repo.change_status(session, upload, UploadStatus.DELETED)
        session.commit()
    with database.session() as session:
        (claim,) = webhook_claims.claim_due(session, utcnow(), 10, timedelta(minutes=1), CAPS)
        webhook_repo.record_failed(session, claim.id, 500, "answered 500", utcnow(), None)
        session.commit()
    return claim.message_id


def _delivery(database: Database, message_id: str) -> WebhookDelivery:
    with database.read_session() as session:
        statement = select(WebhookDelivery).where(WebhookDelivery.message_id == message_id)
        return session.scalars(statement).one()


def test_endpoints_and_their_deliveries_are_listed(
    web_client: TestClient, database: Database, account: Account, other_account: Account
) -> None:
    mine = _given_up_delivery(database, account.company_id, "https://erp.example.com/hooks")
    theirs = _given_up_delivery(database, other_account.company_id, "https://other.example/x")
    page = web_client.get(PAGE)
    assert page.status_code == 200
    assert "https://erp.example.com/hooks" in page.text and mine in page.text
    assert "given up" in page.text and "answered 500" in page.text
    assert "other.example" not in page.text and theirs not in page.text
    assert audit(page.text, session_csrf(web_client, database)) == []


def test_a_delivery_is_sent_again_with_its_id(
    web_client: TestClient, database: Database, account: Account
) -> None:
    message_id = _given_up_delivery(database, account.company_id, "https://erp.example.com/h")
    token = session_csrf(web_client, database)
    response = web_client.post(
        SEND_AGAIN, data={"csrf_token": token, "delivery": message_id}, follow_redirects=False
    )
    assert response.status_code == 303
    delivery = _delivery(database, message_id)
    assert delivery.next_attempt_at is not None and delivery.gave_up_at is None
    assert delivery.attempts == 0
    assert message_id in web_client.get(response.headers["location"]).text


def test_another_company_s_delivery_cannot_be_sent(
    web_client: TestClient, database: Database, other_account: Account
) -> None:
    theirs = _given_up_delivery(database, other_account.company_id, "https://other.example/x")
    token = session_csrf(web_client, database)
    for message_id in (theirs, "msg_nothing", f"msg_{uuid.uuid4().hex}"):
        response = web_client.post(SEND_AGAIN, data={"csrf_token": token, "delivery": message_id})
        assert response.status_code == 404
    assert _delivery(database, theirs).gave_up_at is not None


def test_sending_again_needs_the_csrf_token(
    web_client: TestClient, database: Database, account: Account
) -> None:
    message_id = _given_up_delivery(database, account.company_id, "https://erp.example.com/h")
    response = web_client.post(SEND_AGAIN, data={"delivery": message_id})
    assert response.status_code == 403
    assert _delivery(database, message_id).gave_up_at is not None


def _endpoint_id(database: Database, company_id: uuid.UUID) -> uuid.UUID:
    with database.read_session() as session:
        (endpoint,) = webhook_repo.live_endpoints(session, company_id)
        return endpoint.id


def test_a_secret_is_rotated_and_shown_once(
    web_client: TestClient,
    database: Database,
    services: Services,
    account: Account,
    other_account: Account,
) -> None:
    _given_up_delivery(database, account.company_id, "https://erp.example.com/hooks")
    _given_up_delivery(database, other_account.company_id, "https://other.example/x")
    mine = _endpoint_id(database, account.company_id)
    theirs = _endpoint_id(database, other_account.company_id)
    token = session_csrf(web_client, database)
    assert web_client.post(ROTATE, data={"endpoint": str(mine)}).status_code == 403
    for other in (str(theirs), "not-an-id", str(uuid.uuid4())):
        refused = web_client.post(ROTATE, data={"csrf_token": token, "endpoint": other})
        assert refused.status_code == 404

    page = web_client.post(ROTATE, data={"csrf_token": token, "endpoint": str(mine)})
    assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
    (secret,) = re.findall(r"whsec_[A-Za-z0-9+/=]+", page.text)
    assert audit(page.text, token) == []
    with database.read_session() as session:
        (endpoint,) = webhook_repo.live_endpoints(session, account.company_id)
    assert SecretBox.for_webhooks(services.settings).open(endpoint.sealed_secret) == secret
    assert endpoint.sealed_previous_secret is not None
    assert secret not in web_client.get(PAGE).text

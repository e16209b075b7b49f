"""The webhooks page: the company's endpoints with their recent deliveries, and sending a
delivery again; another company's deliveries are neither shown nor sent. Endpoints are
added (checked as the API checks them, the secret shown once) and removed here."""

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
from storage.repositories import users, webhook_claims
from storage.repositories import webhooks as webhook_repo
from storage.secret_box import SecretBox
from storage.states import UploadStatus
from storage.webhook_models import WebhookDelivery
from tests.web.language_words import leaked
from tests.web.support import Account, seed_upload, session_csrf
from tests.web.test_page_audit import audit

PAGE = "/app/settings/webhooks"
BOX = SecretBox("test-key", b"test")
CAPS = webhook_claims.InFlightCaps(10, 10)
SEND_AGAIN = f"{PAGE}/send-again"
ROTATE = f"{PAGE}/rotate-secret"
REMOVE = f"{PAGE}/remove"


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


def _live_urls(database: Database, company_id: uuid.UUID) -> list[str]:
    with database.read_session() as session:
        return [endpoint.url for endpoint in webhook_repo.live_endpoints(session, company_id)]


def test_an_endpoint_added_in_the_web_app_is_listed_by_the_api(
    web_client: TestClient, database: Database, services: Services, account: Account
) -> None:
    token = session_csrf(web_client, database)
    form = {"url": "https://erp.example.com/in", "events": ["upload.completed", "batch.completed"]}
    assert web_client.post(PAGE, data=form).status_code == 403
    assert _live_urls(database, account.company_id) == []

    page = web_client.post(PAGE, data={"csrf_token": token, **form})
    assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
    (secret,) = re.findall(r"whsec_[A-Za-z0-9+/=]+", page.text)
    assert "Endpoint registered" in page.text and "Remove endpoint" in page.text
    assert leaked(page.text, "en") == set()
    assert audit(page.text, token) == []
    listed = web_client.get("/v1/webhook-endpoints", headers=account.headers).json()
    assert [(item["url"], item["events"]) for item in listed] == [
        ("https://erp.example.com/in", ["upload.completed", "batch.completed"])
    ]
    with database.read_session() as session:
        (endpoint,) = webhook_repo.live_endpoints(session, account.company_id)
    assert SecretBox.for_webhooks(services.settings).open(endpoint.sealed_secret) == secret
    assert secret not in web_client.get(PAGE).text


def test_an_invalid_url_is_refused_naming_why_and_nothing_is_stored(
    web_client: TestClient, database: Database, account: Account
) -> None:
    token = session_csrf(web_client, database)
    refusals = {
        "ftp://erp.example.com/in": "must start with http:// or https://",
        "https://user:secret@erp.example.com/": "no user name or password",
        "https://[::1]/hook": "no IPv6 address",
        "": "Enter the URL",
        "https://erp.example.com/" + "a" * 2048: "longer than 2048 characters",
    }
    for url, why in refusals.items():
        page = web_client.post(
            PAGE, data={"csrf_token": token, "url": url, "events": ["upload.completed"]}
        )
        assert page.status_code == 422 and why in page.text, url
        assert 'aria-invalid="true"' in page.text and "whsec_" not in page.text
        api = web_client.post(
            "/v1/webhook-endpoints",
            headers=account.headers,
            json={"url": url, "events": ["upload.completed"]},
        )
        assert api.status_code == 422, url
    no_events = web_client.post(PAGE, data={"csrf_token": token, "url": "https://e.example/"})
    assert no_events.status_code == 422 and "Choose at least one event." in no_events.text
    assert _live_urls(database, account.company_id) == []


def test_the_form_s_texts_are_german_for_a_german_user(
    web_client: TestClient, database: Database, account: Account
) -> None:
    with database.session() as session:
        users.set_language(session, account.user_id, "de")
        session.commit()
    token = session_csrf(web_client, database)
    page = web_client.get(PAGE).text
    assert "Endpunkt hinzufügen" in page and "Zu sendende Ereignisse" in page
    refused = web_client.post(
        PAGE, data={"csrf_token": token, "url": "ftp://e.example/", "events": ["upload.failed"]}
    )
    assert refused.status_code == 422
    assert "muss mit http:// oder https:// beginnen" in refused.text
    added = web_client.post(
        PAGE, data={"csrf_token": token, "url": "https://e.example/", "events": ["upload.failed"]}
    )
    assert "Endpunkt registriert" in added.text and "Endpunkt entfernen" in added.text
    assert leaked(refused.text, "de") == set() and leaked(added.text, "de") == set()


def test_an_endpoint_is_removed_and_another_company_s_cannot_be(
    web_client: TestClient, database: Database, account: Account, other_account: Account
) -> None:
    _given_up_delivery(database, account.company_id, "https://erp.example.com/hooks")
    _given_up_delivery(database, other_account.company_id, "https://other.example/x")
    mine = _endpoint_id(database, account.company_id)
    theirs = _endpoint_id(database, other_account.company_id)
    token = session_csrf(web_client, database)
    assert web_client.post(REMOVE, data={"endpoint": str(mine)}).status_code == 403
    for other in (str(theirs), "not-an-id", str(uuid.uuid4())):
        refused = web_client.post(REMOVE, data={"csrf_token": token, "endpoint": other})
        assert refused.status_code == 404
    assert _live_urls(database, other_account.company_id) == ["https://other.example/x"]
    assert _live_urls(database, account.company_id) == ["https://erp.example.com/hooks"]

    response = web_client.post(
        REMOVE, data={"csrf_token": token, "endpoint": str(mine)}, follow_redirects=False
    )
    assert response.status_code == 303
    assert _live_urls(database, account.company_id) == []
    page = web_client.get(response.headers["location"])
    assert "was removed" in page.text and "erp.example.com/hooks" not in page.text
    assert web_client.get("/v1/webhook-endpoints", headers=account.headers).json() == []
    assert _live_urls(database, other_account.company_id) == ["https://other.example/x"]


def test_the_21st_endpoint_is_refused_naming_the_limit(
    web_client: TestClient, database: Database, account: Account
) -> None:
    with database.session() as session:
        for number in range(webhook_repo.MAX_ENDPOINTS_PER_COMPANY):
            url = f"https://erp.example.com/{number}"
            webhook_repo.create_endpoint(session, account.company_id, url, ["upload.failed"], BOX)
        session.commit()
    token = session_csrf(web_client, database)
    form = {"csrf_token": token, "url": "https://erp.example.com/21", "events": ["upload.failed"]}
    page = web_client.post(PAGE, data=form)
    assert page.status_code == 409 and "remove one first" in page.text
    assert "whsec_" not in page.text
    assert len(_live_urls(database, account.company_id)) == webhook_repo.MAX_ENDPOINTS_PER_COMPANY

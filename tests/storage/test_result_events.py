"""`result.confirmed` and `result.deleted`: written in the commit that confirms a
statement's transactions or deletes a result, for the endpoints that asked, with the
result as an upload refers to it. Both backends, rolled back per test."""

from __future__ import annotations

import uuid

from sqlalchemy import select

from storage.db import Database
from storage.repositories import web_results
from storage.repositories import webhooks as webhook_repo
from storage.repositories.results import book_result
from storage.secret_box import SecretBox
from storage.webhook_models import WebhookDelivery
from tests.conftest import Tenant

BOX = SecretBox("test-key", b"test")
STATEMENT = {"transactions": [{"amount": "1.00"}, {"amount": "2.00"}]}


def _listen(db: Database, company_id: uuid.UUID, events: list[str]) -> None:
    with db.session() as session:
        webhook_repo.create_endpoint(session, company_id, "http://127.0.0.1:9/hook", events, BOX)
        session.commit()


def _statement(db: Database, company_id: uuid.UUID) -> uuid.UUID:
    with db.session() as session:
        result = book_result(session, company_id, "e" * 64, "bank_statement", STATEMENT)
        session.commit()
        return result.id


def _deliveries(db: Database) -> list[WebhookDelivery]:
    with db.read_session() as session:
        return list(session.scalars(select(WebhookDelivery).order_by(WebhookDelivery.id)))


def test_confirming_transactions_announces_the_result(database: Database, tenant: Tenant) -> None:
    _listen(database, tenant.company_id, ["result.confirmed", "result.deleted"])
    key = _statement(database, tenant.company_id)
    for _ in range(2):  # the second confirms nothing new: no event
        with database.session() as session:
            result = web_results.live_result(session, tenant.company_id, key, lock=True)
            assert result is not None
            web_results.confirm_transactions(session, result, [1], None)
            session.commit()
    (delivery,) = _deliveries(database)
    assert delivery.event_type == "result.confirmed" and delivery.subject_id == key
    assert delivery.payload["type"] == "result.confirmed"
    assert delivery.payload["data"] == {
        "result": {"type": "bank_statement", "id": str(key), "url": f"/app/bank-imports/{key}"}
    }


def test_deleting_announces_the_result_to_those_who_asked(
    database: Database, tenant: Tenant, other_tenant: Tenant
) -> None:
    _listen(database, tenant.company_id, ["result.deleted"])
    _listen(database, tenant.company_id, ["upload.completed"])
    _listen(database, other_tenant.company_id, ["result.deleted"])
    key = _statement(database, tenant.company_id)
    with database.session() as session:
        web_results.delete_result(session, tenant.company_id, key)
        session.commit()
    (delivery,) = _deliveries(database)
    assert delivery.event_type == "result.deleted"
    assert delivery.payload["data"]["result"]["id"] == str(key)

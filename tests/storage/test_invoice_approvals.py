"""Approving an invoice: every approval and withdrawal is kept (the trail), approving
twice records nothing new, approving fires `result.confirmed` in the same commit (a
withdrawal none), each step is a change of the result for the API's sync, and the
invoices table carries the approval in force. Both backends, rolled back per test."""

from __future__ import annotations

import uuid
from datetime import date, timedelta
from pathlib import Path

import polars as pl
import pytest
from sqlalchemy import select

from storage.db import Database
from storage.errors import ValidationFailed
from storage.objectstore import LocalDirStore
from storage.repositories import invoice_approvals, web_results
from storage.repositories import webhooks as webhook_repo
from storage.repositories.results import book_result
from storage.secret_box import SecretBox
from storage.tables.export import Exporter
from storage.webhook_models import WebhookDelivery
from tests.conftest import Tenant
from tests.storage.test_result_tables import Bill, _invoice

BOX = SecretBox("test-key", b"test")


def _book(database: Database, tenant: Tenant, kind: str = "invoice") -> uuid.UUID:
    data = _invoice(Bill("Alpha GmbH", date(2026, 1, 5), "119.00"))
    with database.session() as session:
        result = book_result(session, tenant.company_id, uuid.uuid4().hex * 2, kind, data)
        session.commit()
        return result.id


def _set(database: Database, tenant: Tenant, key: uuid.UUID, approved: bool) -> tuple[bool, int]:
    with database.session() as session:
        result = web_results.live_result(session, tenant.company_id, key, lock=True)
        assert result is not None
        changed = invoice_approvals.set_approval(session, result, approved, None)
        session.commit()
        return changed, result.change_seq


def test_approvals_and_withdrawals_are_kept_and_announced(
    database: Database, tenant: Tenant
) -> None:
    with database.session() as session:
        endpoint_events = ["result.confirmed"]
        webhook_repo.create_endpoint(
            session, tenant.company_id, "http://127.0.0.1:9/hook", endpoint_events, BOX
        )
        session.commit()
    key = _book(database, tenant)

    approved, first_seq = _set(database, tenant, key, True)
    again, again_seq = _set(database, tenant, key, True)
    withdrawn, withdrawn_seq = _set(database, tenant, key, False)
    assert (approved, again, withdrawn) == (True, False, True)
    assert again_seq == first_seq < withdrawn_seq  # a withdrawal is a change for the sync
    with database.read_session() as session:
        steps = invoice_approvals.history(session, key)
        assert [s.approved for s in steps] == [True, False]
        assert invoice_approvals.approvals_of(session, [key]) == {}
        deliveries = list(session.scalars(select(WebhookDelivery)))
    (delivery,) = deliveries  # approving announced once; withdrawing is no confirmation
    assert delivery.event_type == "result.confirmed" and delivery.subject_id == key
    assert delivery.payload["data"]["result"] == {
        "type": "invoice",
        "id": str(key),
        "url": f"/app/invoices/{key}",
    }

    _set(database, tenant, key, True)
    with database.read_session() as session:
        steps = invoice_approvals.history(session, key)
        assert [s.approved for s in steps] == [True, False, True]
        assert invoice_approvals.approvals_of(session, [key])[key] == steps[-1]


def test_only_invoices_are_approved(database: Database, tenant: Tenant) -> None:
    key = _book(database, tenant, "bank_statement")
    with database.session() as session:
        result = web_results.live_result(session, tenant.company_id, key)
        assert result is not None
        with pytest.raises(ValidationFailed):
            invoice_approvals.set_approval(session, result, True, None)


def test_the_invoices_table_carries_the_approval(
    database: Database, tenant: Tenant, tmp_path: Path
) -> None:
    approved, open_one = _book(database, tenant), _book(database, tenant)
    _set(database, tenant, approved, True)
    store = LocalDirStore(tmp_path / "objects")
    Exporter(database, store, "http://docintake.test").export_changed(timedelta(0))

    rows = pl.read_parquet(f"{store.root}/tables/invoices/v2/**/*.parquet")
    by_id = {row["result_id"]: row for row in rows.iter_rows(named=True)}
    assert by_id[str(approved)]["approved_at"] is not None
    assert by_id[str(open_one)]["approved_at"] is None

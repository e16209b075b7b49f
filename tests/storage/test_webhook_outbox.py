"""The webhook outbox: one delivery per listening endpoint, written in the transaction of
every state change that makes an upload terminal or finishes a batch; claims in order
per upload, never for deleted endpoints. Both backends, rolled back per test."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select

from processors.base import FailureCode
from storage import webhook_outbox
from storage.db import Database
from storage.models import Batch, Result, Upload, utcnow
from storage.repositories import uploads as upload_repo
from storage.repositories import web_results, webhook_claims
from storage.repositories import webhooks as webhook_repo
from storage.repositories import work as work_repo
from storage.secret_box import SecretBox
from storage.states import UploadStatus
from storage.webhook_models import WebhookDelivery
from storage.work_news import WEBHOOK
from tests.conftest import Tenant

OWNER = "outbox-test"
LEASE = timedelta(minutes=1)
BOX = SecretBox("test-key", b"test")
CAPS = webhook_claims.InFlightCaps(100, 100)
ALL_EVENTS = ["upload.completed", "upload.failed", "upload.deleted", "batch.completed"]


def _endpoint(db: Database, company_id: uuid.UUID, events: list[str] | None = None) -> uuid.UUID:
    with db.session() as session:
        endpoint, _ = webhook_repo.create_endpoint(
            session, company_id, "http://127.0.0.1:9/hook", events or ALL_EVENTS, BOX
        )
        session.commit()
    return endpoint.id


def _upload(
    db: Database,
    company_id: uuid.UUID,
    batch_id: uuid.UUID | None = None,
    initial: UploadStatus = UploadStatus.QUEUED,
) -> uuid.UUID:
    upload_id = uuid.uuid4()
    with db.session() as session:
        upload = Upload(
            id=upload_id,
            company_id=company_id,
            batch_id=batch_id,
            position=0 if batch_id else None,
            file_name="a.pdf",
            document_type="auto",
            sha256=upload_id.hex * 2,
            size_bytes=1,
            attempts=0,
            object_key=f"k/{upload_id}",
        )
        if initial is UploadStatus.FAILED:
            upload_repo.refused_at_intake(upload, "unsupported_file_type", "not a document")
        upload_repo.add_upload(session, upload, initial)
        session.commit()
    return upload_id


def _claim(db: Database, upload_id: uuid.UUID) -> None:
    with db.session() as session:
        upload = session.get(Upload, upload_id)
        assert upload is not None
        work_repo.claim_uploads(session, OWNER, 1, LEASE, batch_id=upload.batch_id)
        session.commit()


def _complete(db: Database, company_id: uuid.UUID, upload_id: uuid.UUID) -> uuid.UUID:
    _claim(db, upload_id)
    with db.session() as session:
        result = Result(company_id=company_id, type="invoice", sha256=upload_id.hex * 2, data={})
        session.add(result)
        session.flush()
        upload = work_repo.held_upload(session, upload_id, OWNER)
        assert upload is not None
        work_repo.complete_upload(session, upload, result.id)
        session.commit()
    return result.id


def _deliveries(db: Database, subject_id: uuid.UUID) -> list[WebhookDelivery]:
    with db.read_session() as session:
        statement = (
            select(WebhookDelivery)
            .where(WebhookDelivery.subject_id == subject_id)
            .order_by(WebhookDelivery.id)
        )
        return list(session.scalars(statement))


def _types(db: Database, subject_id: uuid.UUID) -> list[str]:
    return [delivery.event_type for delivery in _deliveries(db, subject_id)]


def test_a_completed_upload_writes_its_resource_for_each_listening_endpoint(
    database: Database, tenant: Tenant, other_tenant: Tenant
) -> None:
    first = _endpoint(database, tenant.company_id)
    second = _endpoint(database, tenant.company_id, ["upload.completed"])
    _endpoint(database, tenant.company_id, ["upload.failed"])  # not asked for
    _endpoint(database, other_tenant.company_id)  # another company's
    upload_id = _upload(database, tenant.company_id)
    assert _deliveries(database, upload_id) == []  # queued is not an event
    result_id = _complete(database, tenant.company_id, upload_id)

    deliveries = _deliveries(database, upload_id)
    assert {d.endpoint_id for d in deliveries} == {first, second}
    payload: dict[str, Any] = deliveries[0].payload
    assert payload["type"] == "upload.completed"
    assert payload["timestamp"].endswith("Z")
    assert payload["data"]["id"] == str(upload_id)
    assert payload["data"]["status"] == "completed"
    assert payload["data"]["result"] == {
        "type": "invoice",
        "id": str(result_id),
        "url": f"/app/invoices/{result_id}",
    }
    assert len({d.message_id for d in deliveries}) == 2
    assert all(d.next_attempt_at is not None and d.attempts == 0 for d in deliveries)


def test_every_path_to_a_terminal_status_writes_its_event(
    database: Database, tenant: Tenant
) -> None:
    _endpoint(database, tenant.company_id)
    refused = _upload(database, tenant.company_id, initial=UploadStatus.FAILED)
    assert _types(database, refused) == ["upload.failed"]

    crashed = _upload(database, tenant.company_id)
    for _ in range(work_repo.MAX_CRASHES):
        _claim(database, crashed)
        with database.session() as session:
            upload = work_repo.held_upload(session, crashed, OWNER)
            assert upload is not None
            work_repo.charge_crash(session, upload, "killed")
            session.commit()
    assert _types(database, crashed) == ["upload.failed"]

    abandoned = _upload(database, tenant.company_id)
    with database.session() as session:
        upload = session.get(Upload, abandoned)
        assert upload is not None
        upload.attempts = work_repo.MAX_TAKES
        session.commit()
    _claim(database, abandoned)
    with database.session() as session:
        work_repo.recover_expired_uploads(session, utcnow() + 2 * LEASE)
        session.commit()
    assert _types(database, abandoned) == ["upload.failed"]
    failed = _deliveries(database, abandoned)[0].payload["data"]
    assert failed["error"]["code"] == FailureCode.PROCESSING_FAILED.value

    completed = _upload(database, tenant.company_id)
    result_id = _complete(database, tenant.company_id, completed)
    with database.session() as session:
        web_results.delete_result(session, tenant.company_id, result_id)
        session.commit()
    assert _types(database, completed) == ["upload.completed", "upload.deleted"]
    deleted = _deliveries(database, completed)[1].payload["data"]
    assert deleted["status"] == "deleted" and deleted["result"] is None


def test_a_rolled_back_change_leaves_no_event(database: Database, tenant: Tenant) -> None:
    _endpoint(database, tenant.company_id)
    upload_id = _upload(database, tenant.company_id)
    _claim(database, upload_id)
    with database.session() as session:
        upload = work_repo.held_upload(session, upload_id, OWNER)
        assert upload is not None
        work_repo.fail_upload(session, upload, FailureCode.UNREADABLE_DOCUMENT, "blurred")
        session.flush()
        session.rollback()
        session.commit()
    assert _deliveries(database, upload_id) == []


def test_a_finished_batch_writes_the_batch_resource(database: Database, tenant: Tenant) -> None:
    _endpoint(database, tenant.company_id, ["batch.completed"])
    batch_id = uuid.uuid4()
    with database.session() as session:
        session.add(
            Batch(
                id=batch_id,
                company_id=tenant.company_id,
                document_type="auto",
                file_name="a.zip",
                sha256=batch_id.hex * 2,
                size_bytes=1,
                object_key="b",
                unpack_state="done",
                lease_owner=OWNER,
            )
        )
        session.commit()
    upload_id = _upload(database, tenant.company_id, batch_id=batch_id)
    _complete(database, tenant.company_id, upload_id)
    assert _deliveries(database, upload_id) == []  # only batch.completed was asked for
    with database.session() as session:
        work_repo.finish_batch(session, batch_id, OWNER)
        session.commit()
    (delivery,) = _deliveries(database, batch_id)
    data = delivery.payload["data"]
    assert delivery.payload["type"] == "batch.completed"
    assert data["status"] == "completed" and data["counts"]["completed"] == 1
    assert [upload["id"] for upload in data["uploads"]] == [str(upload_id)]


def test_a_refused_archive_fails_its_batch_with_an_event(
    database: Database, tenant: Tenant
) -> None:
    _endpoint(database, tenant.company_id)
    batch = Batch(
        company_id=tenant.company_id,
        document_type="auto",
        file_name="a.zip",
        sha256="0" * 64,
        size_bytes=1,
        object_key="b",
        unpack_state="pending",
    )
    with database.session() as session:
        session.add(batch)
        session.flush()
        work_repo.fail_batch(session, batch, "archive_too_large", "too large")
        session.commit()
    (delivery,) = _deliveries(database, batch.id)
    assert delivery.payload["data"]["status"] == "failed"


def _claim_all(db: Database) -> list[webhook_claims.ClaimedDelivery]:
    with db.session() as session:
        claimed = webhook_claims.claim_due(session, utcnow(), 100, LEASE, CAPS)
        session.commit()
    return claimed


def test_claims_keep_the_order_of_one_uploads_states(database: Database, tenant: Tenant) -> None:
    _endpoint(database, tenant.company_id)
    upload_id = _upload(database, tenant.company_id)
    result_id = _complete(database, tenant.company_id, upload_id)
    with database.session() as session:
        web_results.delete_result(session, tenant.company_id, result_id)
        session.commit()
    completed, deleted = _deliveries(database, upload_id)

    first = _claim_all(database)
    assert [claim.message_id for claim in first] == [completed.message_id]
    assert first[0].attempts == 1
    assert _claim_all(database) == []  # claimed: leased, and the later one waits
    with database.session() as session:
        webhook_repo.record_failed(session, first[0].id, 500, "HTTP 500", utcnow(), utcnow())
        session.commit()
    again = _claim_all(database)
    assert [(claim.message_id, claim.attempts) for claim in again] == [(completed.message_id, 2)]
    with database.session() as session:
        webhook_repo.record_delivered(session, again[0].id, 204, utcnow())
        session.commit()
    assert [claim.message_id for claim in _claim_all(database)] == [deleted.message_id]


def test_a_deleted_endpoint_is_never_claimed_again(
    database: Database, tenant: Tenant, other_tenant: Tenant
) -> None:
    endpoint_id = _endpoint(database, tenant.company_id)
    upload_id = _upload(database, tenant.company_id)
    _complete(database, tenant.company_id, upload_id)
    with database.session() as session:
        assert not webhook_repo.delete_endpoint(session, other_tenant.company_id, endpoint_id)
        assert webhook_repo.delete_endpoint(session, tenant.company_id, endpoint_id)
        session.commit()
    assert _claim_all(database) == []
    later = _upload(database, tenant.company_id, initial=UploadStatus.FAILED)
    assert _deliveries(database, later) == []


def test_sending_again_is_scoped_to_the_company(
    database: Database, tenant: Tenant, other_tenant: Tenant
) -> None:
    _endpoint(database, tenant.company_id)
    upload_id = _upload(database, tenant.company_id, initial=UploadStatus.FAILED)
    (claim,) = _claim_all(database)
    with database.session() as session:
        webhook_repo.record_failed(session, claim.id, None, "refused", utcnow(), None)
        session.commit()
    (given_up,) = _deliveries(database, upload_id)
    assert given_up.gave_up_at is not None and given_up.next_attempt_at is None
    with database.session() as session:
        assert not webhook_repo.send_again(session, other_tenant.company_id, claim.message_id)
        assert webhook_repo.send_again(session, tenant.company_id, claim.message_id)
        session.commit()
    (again,) = _claim_all(database)
    assert (again.message_id, again.attempts) == (claim.message_id, 1)


@pytest.mark.parametrize("events", [["upload.failed"], ["upload.completed"]])
def test_the_events_filter(database: Database, tenant: Tenant, events: list[str]) -> None:
    _endpoint(database, tenant.company_id, events)
    upload_id = _upload(database, tenant.company_id, initial=UploadStatus.FAILED)
    expected = ["upload.failed"] if "upload.failed" in events else []
    assert _types(database, upload_id) == expected


def test_deliveries_are_announced_to_the_sender_and_nothing_else_is(
    database: Database, tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    announced: list[str] = []
    monkeypatch.setattr(webhook_outbox, "announce_work", lambda _s, kind: announced.append(kind))
    _endpoint(database, tenant.company_id, ["upload.completed"])
    _upload(database, tenant.company_id, initial=UploadStatus.FAILED)  # no one asked for it
    assert announced == []
    _complete(database, tenant.company_id, _upload(database, tenant.company_id))
    assert announced == [WEBHOOK]

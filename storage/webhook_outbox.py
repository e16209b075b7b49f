"""Webhook events written in the transaction of the state change that causes them.

Every upload status change passes `uploads.record_move` or `uploads.add_uploads`;
both note the uploads that reach `completed`, `failed` or `deleted` here, and the batch
repository notes a batch that finished (`work.finish_batch`, `work.fail_batch`).
Nothing is rendered then: just before the session commits, the noted uploads and
batches are rendered once, in their final state of that transaction, and one delivery
row per live endpoint that asked for the event goes into the same commit. A rollback
takes the rows with it; a commit makes them durable with the change itself.

One query per committing transaction that changed something terminal (the company's
endpoints); rendering and inserting only when someone listens, and then news for the
webhook sender (storage/work_news.py), which goes out with the commit.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import event, inspect, select
from sqlalchemy.orm import Session

from storage.models import Batch, Result, Upload, utcnow
from storage.repositories import webhooks as webhook_repo
from storage.repositories.news import announce_work
from storage.repositories.upload_views import UploadView
from storage.resources import frozen, present_batch, upload_out, utc_z
from storage.states import BatchStatus, UploadStatus
from storage.webhook_models import WebhookEndpoint, WebhookEvent
from storage.work_news import WEBHOOK

UPLOAD_EVENTS = {
    UploadStatus.COMPLETED: WebhookEvent.UPLOAD_COMPLETED,
    UploadStatus.FAILED: WebhookEvent.UPLOAD_FAILED,
    UploadStatus.DELETED: WebhookEvent.UPLOAD_DELETED,
}

_NOTED = "docintake.webhook_events"


@dataclass
class _Noted:
    uploads: dict[uuid.UUID, Upload]
    batches: set[uuid.UUID]


def _noted(session: Session) -> _Noted:
    noted = session.info.get(_NOTED)
    if noted is None:
        noted = session.info[_NOTED] = _Noted({}, set())
    assert isinstance(noted, _Noted)
    return noted


def note_upload(session: Session, upload: Upload) -> None:
    """The upload changed status; if it ends the transaction in a terminal one, its
    event is written at commit."""
    if upload.status in UPLOAD_EVENTS:
        _noted(session).uploads[upload.id] = upload


def note_batch_finished(session: Session, batch_id: uuid.UUID) -> None:
    _noted(session).batches.add(batch_id)


@event.listens_for(Session, "before_commit")
def _write_outbox(session: Session) -> None:
    noted = session.info.pop(_NOTED, None)
    if not isinstance(noted, _Noted):
        return
    # An upload added in a savepoint that was rolled back is no longer in the session.
    uploads = [
        upload
        for upload in noted.uploads.values()
        if inspect(upload).persistent and upload.status in UPLOAD_EVENTS
    ]
    found = (session.get(Batch, batch_id) for batch_id in sorted(noted.batches))
    batches = [batch for batch in found if batch is not None]
    companies = {upload.company_id for upload in uploads}
    companies |= {batch.company_id for batch in batches}
    listeners = webhook_repo.endpoints_of_companies(session, companies)
    if not listeners:
        return
    now = utcnow()
    added = _add_upload_events(session, uploads, listeners, now)
    for batch in batches:
        added |= _add_batch_event(session, batch, listeners, now)
    if added:
        announce_work(session, WEBHOOK)


@event.listens_for(Session, "after_rollback")
def _forget(session: Session) -> None:
    session.info.pop(_NOTED, None)


def listening(
    listeners: Iterable[WebhookEndpoint], company_id: uuid.UUID, event_type: WebhookEvent
) -> list[WebhookEndpoint]:
    return [
        endpoint
        for endpoint in listeners
        if endpoint.company_id == company_id and event_type in endpoint.events
    ]


def event_payload(event_type: WebhookEvent, data: dict[str, Any], now: datetime) -> dict[str, Any]:
    return {"type": event_type.value, "timestamp": utc_z(now), "data": data}


def _add_upload_events(
    session: Session, uploads: list[Upload], listeners: list[WebhookEndpoint], now: datetime
) -> bool:
    """Whether it added any delivery."""
    wanted = [
        (upload, endpoints)
        for upload in uploads
        if (endpoints := listening(listeners, upload.company_id, _event_of(upload)))
    ]
    if not wanted:
        return False
    types = _result_types(session, {u.result_id for u, _ in wanted if u.result_id is not None})
    for upload, endpoints in wanted:
        view = UploadView.of(upload, types.get(upload.result_id) if upload.result_id else None)
        payload = event_payload(_event_of(upload), frozen(upload_out(view, "")), now)
        for endpoint in endpoints:
            webhook_repo.add_delivery(
                session, endpoint.id, _event_of(upload), upload.id, payload, now
            )
    return True


def _event_of(upload: Upload) -> WebhookEvent:
    return UPLOAD_EVENTS[UploadStatus(upload.status)]


def _result_types(session: Session, result_ids: set[uuid.UUID]) -> dict[uuid.UUID, str]:
    if not result_ids:
        return {}
    statement = select(Result.id, Result.type).where(Result.id.in_(result_ids))
    return {result_id: result_type for result_id, result_type in session.execute(statement)}


def _add_batch_event(
    session: Session, batch: Batch, listeners: list[WebhookEndpoint], now: datetime
) -> bool:
    """Whether it added any delivery."""
    endpoints = listening(listeners, batch.company_id, WebhookEvent.BATCH_COMPLETED)
    if not endpoints:
        return False
    session.flush()  # the batch's uploads as this transaction leaves them
    resource = present_batch(session, batch, "")
    if resource.status is BatchStatus.PROCESSING:
        return False
    payload = event_payload(WebhookEvent.BATCH_COMPLETED, frozen(resource), now)
    for endpoint in endpoints:
        webhook_repo.add_delivery(
            session, endpoint.id, WebhookEvent.BATCH_COMPLETED, batch.id, payload, now
        )
    return True

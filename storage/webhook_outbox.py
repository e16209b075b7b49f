"""Webhook events written in the transaction of the state change that causes them.

Every upload status change passes `uploads.record_move`, `uploads.add_uploads` or a
group move (`upload_groups.move_group`, which notes ids instead of loaded rows); they
note the uploads that reach `completed`, `failed` or `deleted` here, and the batch
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
from storage.repositories.upload_views import UploadView, views_by_id
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
    # Moved by a group move, not loaded: upload id -> its company.
    moved: dict[uuid.UUID, uuid.UUID]


def _noted(session: Session) -> _Noted:
    noted = session.info.get(_NOTED)
    if noted is None:
        noted = session.info[_NOTED] = _Noted({}, set(), {})
    assert isinstance(noted, _Noted)
    return noted


def note_upload(session: Session, upload: Upload) -> None:
    """The upload changed status; if it ends the transaction in a terminal one, its
    event is written at commit."""
    if upload.status in UPLOAD_EVENTS:
        _noted(session).uploads[upload.id] = upload


def note_moved_uploads(session: Session, companies: dict[uuid.UUID, uuid.UUID]) -> None:
    """Uploads a group move took to a terminal status (upload id -> company id): their
    events are written at commit from the rows as the transaction leaves them."""
    _noted(session).moved.update(companies)


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
    companies |= set(noted.moved.values())
    listeners = webhook_repo.endpoints_of_companies(session, companies)
    if not listeners:
        return
    now = utcnow()
    heard = {endpoint.company_id for endpoint in listeners}
    moved = {
        upload_id: company_id
        for upload_id, company_id in noted.moved.items()
        if company_id in heard and upload_id not in noted.uploads
    }
    loaded = [upload for upload in uploads if upload.company_id in heard]
    views = _views_of(session, loaded) + views_by_id(session, moved)
    added = _add_upload_events(session, views, listeners, now)
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


def _views_of(session: Session, uploads: list[Upload]) -> list[tuple[uuid.UUID, UploadView]]:
    """The loaded uploads as their company and view."""
    types = _result_types(session, {u.result_id for u in uploads if u.result_id is not None})
    return [
        (
            upload.company_id,
            UploadView.of(upload, types.get(upload.result_id) if upload.result_id else None),
        )
        for upload in uploads
    ]


def _add_upload_events(
    session: Session,
    views: list[tuple[uuid.UUID, UploadView]],
    listeners: list[WebhookEndpoint],
    now: datetime,
) -> bool:
    """Whether it added any delivery."""
    added = False
    for company_id, view in views:
        if view.status not in UPLOAD_EVENTS:
            continue
        event_type = UPLOAD_EVENTS[UploadStatus(view.status)]
        endpoints = listening(listeners, company_id, event_type)
        if not endpoints:
            continue
        payload = event_payload(event_type, frozen(upload_out(view, "")), now)
        for endpoint in endpoints:
            webhook_repo.add_delivery(session, endpoint.id, event_type, view.id, payload, now)
        added = True
    return added


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

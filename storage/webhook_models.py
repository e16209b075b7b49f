"""Webhook tables: a company's endpoints, and the outbox of deliveries to them.

A delivery row is written in the same transaction as the state change it announces
(storage/repositories/webhooks.py), so no event is lost between the change and its
sending: the sender (flows/webhook_sender.py) works through the outbox until every row
is delivered or given up. Imported at the end of storage/models.py, so the one
metadata (migrations, the drift test) holds these tables too.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from storage.models import AutoId, Base, utcnow
from storage.secret_box import SEALED_LENGTH


class WebhookEndpoint(Base):
    """Where a company wants its events POSTed. The secret signs every delivery, so it
    must be used, not only compared like an API key: it is kept sealed under a key from
    DOCINTAKE_SECRET_KEY (storage/secret_box.py). After a rotation the previous secret
    signs too, until `previous_secret_until`."""

    __tablename__ = "webhook_endpoints"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    company_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("companies.id"))
    url: Mapped[str] = mapped_column(String(2048))
    events: Mapped[list[str]] = mapped_column(JSON)
    sealed_secret: Mapped[str] = mapped_column(String(SEALED_LENGTH))
    sealed_previous_secret: Mapped[str | None] = mapped_column(String(SEALED_LENGTH))
    previous_secret_until: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    deleted_at: Mapped[datetime | None]

    __table_args__ = (Index("ix_webhook_endpoints_company_created", "company_id", "created_at"),)


class WebhookDelivery(Base):
    """One event for one endpoint. `id` grows with every row, so for one subject (an
    upload or a batch) it is the order of its state changes; `message_id` is the
    `webhook-id` header, the same on every try. `next_attempt_at` is set while the
    delivery is pending (due, or claimed by a sender until then) and cleared once it
    was delivered or given up. `leased_until` is set while a sender holds it (an attempt
    in flight), so the claim can count what an endpoint and a company have in flight."""

    __tablename__ = "webhook_deliveries"

    id: Mapped[int] = mapped_column(AutoId, primary_key=True, autoincrement=True)
    message_id: Mapped[str] = mapped_column(String(40), unique=True)
    endpoint_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("webhook_endpoints.id"))
    event_type: Mapped[str] = mapped_column(String(32))
    # The upload's id for upload events, the batch's for batch events, the result's for
    # result events.
    subject_id: Mapped[uuid.UUID]
    # {"type", "timestamp", "data"} as sent, except that result URLs are paths here: the
    # sender puts the configured public base URL in front (storage/resources.py).
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime | None]
    leased_until: Mapped[datetime | None]
    last_attempt_at: Mapped[datetime | None]
    last_status_code: Mapped[int | None]
    last_error: Mapped[str | None] = mapped_column(Text)
    delivered_at: Mapped[datetime | None]
    gave_up_at: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (
        Index("ix_webhook_deliveries_next_attempt_at", "next_attempt_at"),
        Index("ix_webhook_deliveries_leased_until", "leased_until"),
        # The ordering check: an earlier pending delivery of the same subject.
        Index("ix_webhook_deliveries_endpoint_subject", "endpoint_id", "subject_id", "id"),
        # The web application's recent deliveries of an endpoint.
        Index("ix_webhook_deliveries_endpoint_id", "endpoint_id", "id"),
    )


class WebhookEvent(StrEnum):
    UPLOAD_COMPLETED = "upload.completed"
    UPLOAD_FAILED = "upload.failed"
    UPLOAD_DELETED = "upload.deleted"
    BATCH_COMPLETED = "batch.completed"
    RESULT_CONFIRMED = "result.confirmed"
    RESULT_DELETED = "result.deleted"

"""A message the SMTP server accepted becomes a batch (docs/email.md).

Its raw bytes are stored as they came and a pending batch points at them; nothing of
the message is parsed here: the reading processes unpack it (flows/unpack_mail.py).
The batch is claimed like an API batch (storage/idempotency.py), by content: the same
message delivered again to the same address (its bytes alike but for the trace fields
the MTAs add) answers with the first batch, race-safe.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from processors.email_message import delivery_digest
from storage.db import Database
from storage.idempotency import IntakeRequest, StoredFile, claim_batch
from storage.objectstore import ObjectStore

SOURCE_EMAIL = "email"
MESSAGE_FILE_NAME = "message.eml"


@dataclass(frozen=True, slots=True)
class Arrival:
    company_id: uuid.UUID
    document_type: str
    envelope_from: str
    received_at: datetime


@dataclass(frozen=True, slots=True)
class Accepted:
    batch_id: uuid.UUID
    replayed: bool


def _store(store: ObjectStore, raw: bytes) -> StoredFile:
    """The raw message stored; its `sha256` is its delivery digest (trace fields left
    out: processors/email_message.py), which finds a repeated delivery."""
    key = f"mail/{uuid.uuid4()}.eml"
    writer = store.open_writer(key)
    try:
        writer.write(raw)
        writer.commit()
    except BaseException:
        writer.abort()
        raise
    return StoredFile(object_key=key, sha256=delivery_digest(raw), size_bytes=len(raw))


class NotTaken(Exception):
    """Raised by a `record` hook: the message is someone else's to take (another IMAP
    poller recorded it first); nothing of it is kept."""


def accept_message(
    db: Database,
    store: ObjectStore,
    arrival: Arrival,
    raw: bytes,
    record: Callable[[Session, uuid.UUID], None] | None = None,
) -> Accepted:
    """Store the message and claim its batch; a repeat answers with the first batch.
    `record` runs in the batch's transaction (the IMAP poller notes the message's UID
    there, so the batch and the note commit together or not at all)."""
    stored = _store(store, raw)
    assert stored.object_key is not None
    request = IntakeRequest(
        company_id=arrival.company_id,
        file_name=MESSAGE_FILE_NAME,
        document_type=arrival.document_type,
        external_id=None,
        file=stored,
    )
    try:
        with db.session() as session:
            claim = claim_batch(session, request)
            batch = claim.record
            if not claim.replayed:
                batch.source_type = SOURCE_EMAIL
                batch.mail_from = arrival.envelope_from[:1024] or None
                batch.received_at = arrival.received_at
            if record is not None:
                record(session, batch.id)
            session.commit()
            accepted = Accepted(batch.id, claim.replayed)
    except BaseException:
        store.delete(stored.object_key)
        raise
    if accepted.replayed:
        store.delete(stored.object_key)
    return accepted

"""API keys: random, shown once, stored only as a SHA-256 hash (the key has 256 bits of
entropy, so a fast hash is enough), found by that hash, revocable."""

from __future__ import annotations

import hashlib
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Connection, bindparam, select, update
from sqlalchemy.orm import Session

from storage.models import ApiKey, utcnow

KEY_PREFIX = "dik_"
# Writing last_used_at on every request would turn each poll into a write.
LAST_USED_RESOLUTION = timedelta(minutes=1)


@dataclass(frozen=True, slots=True)
class NewApiKey:
    record: ApiKey
    plaintext: str


def hash_key(plaintext: str) -> str:
    return hashlib.sha256(plaintext.encode()).hexdigest()


def create_api_key(session: Session, company_id: uuid.UUID, name: str | None = None) -> NewApiKey:
    plaintext = KEY_PREFIX + secrets.token_urlsafe(32)
    record = ApiKey(
        id=uuid.uuid4(),
        company_id=company_id,
        name=name,
        prefix=plaintext[:12],
        key_hash=hash_key(plaintext),
    )
    session.add(record)
    session.flush()
    return NewApiKey(record=record, plaintext=plaintext)


@dataclass(frozen=True, slots=True)
class ActiveKey:
    """What checking a request's key needs: no ORM object (every request loads one)."""

    id: uuid.UUID
    company_id: uuid.UUID
    last_used_at: datetime | None


# Every request runs it: built once, from the table (see storage/repositories/upload_views.py).
_keys = ApiKey.__table__
_ACTIVE_KEY = select(_keys.c.id, _keys.c.company_id, _keys.c.last_used_at).where(
    _keys.c.key_hash == bindparam("key_hash"), _keys.c.revoked_at.is_(None)
)


def find_active_key(session: Session | Connection, plaintext: str) -> ActiveKey | None:
    row = session.execute(_ACTIVE_KEY, {"key_hash": hash_key(plaintext)}).one_or_none()
    return ActiveKey(*row) if row is not None else None


def needs_last_used_update(key: ActiveKey, now: datetime) -> bool:
    return key.last_used_at is None or now - key.last_used_at > LAST_USED_RESOLUTION


def mark_used(session: Session, key_id: uuid.UUID, now: datetime) -> None:
    session.execute(update(ApiKey).where(ApiKey.id == key_id).values(last_used_at=now))


def list_api_keys(session: Session, company_id: uuid.UUID) -> list[ApiKey]:
    statement = select(ApiKey).where(ApiKey.company_id == company_id).order_by(ApiKey.created_at)
    return list(session.scalars(statement))


def revoke_api_key(session: Session, company_id: uuid.UUID, key_id: uuid.UUID) -> bool:
    result = session.execute(
        update(ApiKey)
        .where(ApiKey.id == key_id, ApiKey.company_id == company_id, ApiKey.revoked_at.is_(None))
        .values(revoked_at=utcnow())
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


def get_api_key(session: Session, company_id: uuid.UUID, key_id: uuid.UUID) -> ApiKey | None:
    statement = select(ApiKey).where(ApiKey.id == key_id, ApiKey.company_id == company_id)
    return session.scalars(statement).one_or_none()

"""Signed-in browsers. The cookie carries a random token; only its SHA-256 is stored, so a
copy of the table signs nobody in. Each session has its own CSRF token."""

from __future__ import annotations

import hashlib
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from storage.models import Company, User, WebSession, utcnow


@dataclass(frozen=True, slots=True)
class NewWebSession:
    token: str
    record: WebSession


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A valid session with its user and the user's company settings."""

    session_id: uuid.UUID
    user_id: uuid.UUID
    company_id: uuid.UUID
    email: str
    csrf_token: str
    company_locale: str
    language: str | None  # the user's choice; None follows the company's locale
    company_time_zone: str  # the zone the web application shows times in
    # The company has a VAT id, tax number or IBAN: invoices' direction can be decided.
    company_identified: bool


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def start_session(session: Session, user_id: uuid.UUID, lifetime: timedelta) -> NewWebSession:
    now = utcnow()
    token = secrets.token_urlsafe(32)
    record = WebSession(
        id=uuid.uuid4(),
        token_hash=hash_token(token),
        user_id=user_id,
        csrf_token=secrets.token_urlsafe(32),
        created_at=now,
        expires_at=now + lifetime,
    )
    session.add(record)
    session.flush()
    return NewWebSession(token=token, record=record)


def find_signed_in(session: Session, token: str, now: datetime) -> SignedIn | None:
    statement = (
        select(
            WebSession.id,
            User.id,
            User.company_id,
            User.email,
            WebSession.csrf_token,
            Company.locale,
            User.language,
            Company.time_zone,
            Company.vat_ids,
            Company.tax_number,
            Company.ibans,
        )
        .join(User, User.id == WebSession.user_id)
        .join(Company, Company.id == User.company_id)
        .where(WebSession.token_hash == hash_token(token), WebSession.expires_at > now)
    )
    row = session.execute(statement).one_or_none()
    if row is None:
        return None
    return SignedIn(
        session_id=row[0],
        user_id=row[1],
        company_id=row[2],
        email=row[3],
        csrf_token=row[4],
        company_locale=row[5],
        language=row[6],
        company_time_zone=row[7],
        company_identified=bool(row[8] or row[9] or row[10]),
    )


def end_session(session: Session, token: str) -> None:
    session.execute(delete(WebSession).where(WebSession.token_hash == hash_token(token)))


def delete_expired(session: Session, user_id: uuid.UUID, now: datetime) -> None:
    session.execute(
        delete(WebSession).where(WebSession.user_id == user_id, WebSession.expires_at <= now)
    )

"""Web application users: one company each, e-mail lower-cased, argon2id password hashes,
and the sign-in attempts that rate-limit guessing across API processes."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import ColumnElement, delete, func, or_, select
from sqlalchemy.orm import Session

from storage.models import LoginAttempt, User, utcnow

# argon2-cffi's defaults are argon2id with the RFC 9106 low-memory profile.
_hasher = PasswordHasher()
# Verified against when the e-mail is unknown, so both answers take the same time.
_DUMMY_HASH = _hasher.hash("docintake-no-such-user")

MAX_CLIENT_LENGTH = 64


class EmailTaken(ValueError):
    pass


def normalize_email(email: str) -> str:
    return email.strip().lower()


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def create_user(session: Session, company_id: uuid.UUID, email: str, password: str) -> User:
    address = normalize_email(email)
    if find_by_email(session, address) is not None:
        raise EmailTaken(f"a user with the e-mail {address} exists")
    user = User(
        id=uuid.uuid4(),
        company_id=company_id,
        email=address,
        password_hash=hash_password(password),
    )
    session.add(user)
    session.flush()
    return user


def find_by_email(session: Session, email: str) -> User | None:
    statement = select(User).where(User.email == normalize_email(email))
    return session.scalars(statement).one_or_none()


def authenticate(session: Session, email: str, password: str) -> User | None:
    """The user when the password matches; rehashes when the parameters have changed."""
    user = find_by_email(session, email)
    if user is None:
        _verify(_DUMMY_HASH, password)
        return None
    if not _verify(user.password_hash, password):
        return None
    if _hasher.check_needs_rehash(user.password_hash):
        user.password_hash = hash_password(password)
    user.last_login_at = utcnow()
    session.flush()
    return user


def _verify(password_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def record_attempt(
    session: Session, email: str, client: str, succeeded: bool, forget_before: datetime
) -> None:
    """Adds the attempt and drops this e-mail's and client's attempts older than
    `forget_before` (outside every window), so the table stays small."""
    address, client = normalize_email(email)[:320], client[:MAX_CLIENT_LENGTH]
    session.execute(
        delete(LoginAttempt).where(
            or_(LoginAttempt.email == address, LoginAttempt.client == client),
            LoginAttempt.at < forget_before,
        )
    )
    session.add(LoginAttempt(email=address, client=client, succeeded=succeeded, at=utcnow()))
    session.flush()


@dataclass(frozen=True, slots=True)
class Failures:
    count: int
    oldest: datetime | None


def failures_for_email(session: Session, email: str, since: datetime) -> Failures:
    """Failed sign-ins for the address since `since` and after its last success."""
    address = normalize_email(email)[:320]
    last_success = session.scalar(
        select(func.max(LoginAttempt.at)).where(
            LoginAttempt.email == address, LoginAttempt.succeeded, LoginAttempt.at >= since
        )
    )
    start = since if last_success is None else max(since, last_success)
    return _failures(session, LoginAttempt.email == address, start)


def failures_for_client(session: Session, client: str, since: datetime) -> Failures:
    return _failures(session, LoginAttempt.client == client[:MAX_CLIENT_LENGTH], since)


def _failures(session: Session, who: ColumnElement[bool], since: datetime) -> Failures:
    statement = select(func.count(), func.min(LoginAttempt.at)).where(
        who, LoginAttempt.succeeded.is_(False), LoginAttempt.at >= since
    )
    count, oldest = session.execute(statement).one()
    return Failures(int(count or 0), oldest)

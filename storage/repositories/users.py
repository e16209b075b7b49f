"""Web application users: one company each, e-mail lower-cased, argon2id password hashes,
and the sign-in attempts that rate-limit guessing across API processes."""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass
from datetime import datetime

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import ColumnElement, and_, delete, func, or_, select, update
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
    """The user when the password matches. Only reads: argon2 runs without holding a
    write transaction (on SQLite that would be the whole database's write lock)."""
    user = find_by_email(session, email)
    if user is None:
        _verify(_DUMMY_HASH, password)
        return None
    return user if _verify(user.password_hash, password) else None


def record_login(session: Session, user_id: uuid.UUID, password: str) -> None:
    """After a successful sign-in: the time, and a new hash when the parameters changed."""
    user = session.get(User, user_id)
    if user is None:
        return
    if _hasher.check_needs_rehash(user.password_hash):
        user.password_hash = hash_password(password)
    user.last_login_at = utcnow()
    session.flush()


def set_language(session: Session, user_id: uuid.UUID, language: str | None) -> None:
    """The user's web application language; None follows the company's locale."""
    session.execute(update(User).where(User.id == user_id).values(language=language))


def _verify(password_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def lock_attempts(session: Session, email: str, client: str) -> None:
    """Serialises sign-in attempts of the same client and of the same e-mail until the
    transaction ends, so counting them and adding one is atomic. Postgres: advisory
    transaction locks, the client's first, then the e-mail's (one order, so no two
    attempts wait on each other in a circle). SQLite: none needed, a writing session
    holds the database's write lock from `BEGIN IMMEDIATE`."""
    if session.get_bind().dialect.name != "postgresql":
        return
    address, client = normalize_email(email)[:320], client[:MAX_CLIENT_LENGTH]
    for namespace, key in ((_CLIENT_LOCKS, client), (_EMAIL_LOCKS, address)):
        session.execute(select(func.pg_advisory_xact_lock(namespace, _lock_key(key))))


_CLIENT_LOCKS, _EMAIL_LOCKS = 0x6C6F6731, 0x6C6F6732  # advisory lock namespaces


def _lock_key(value: str) -> int:
    return int.from_bytes(hashlib.sha256(value.encode()).digest()[:4], "big", signed=True)


def record_attempt(
    session: Session, email: str, client: str, succeeded: bool, forget_before: datetime
) -> int:
    """Adds the attempt (its id) and drops this e-mail's and client's attempts older
    than `forget_before` (outside every window), so the table stays small."""
    address, client = normalize_email(email)[:320], client[:MAX_CLIENT_LENGTH]
    session.execute(
        delete(LoginAttempt).where(
            or_(LoginAttempt.email == address, LoginAttempt.client == client),
            LoginAttempt.at < forget_before,
        )
    )
    attempt = LoginAttempt(email=address, client=client, succeeded=succeeded, at=utcnow())
    session.add(attempt)
    session.flush()
    return attempt.id


def mark_succeeded(session: Session, attempt_id: int) -> None:
    """An attempt counted as failed while its password was checked turned out right."""
    session.execute(
        update(LoginAttempt).where(LoginAttempt.id == attempt_id).values(succeeded=True)
    )


@dataclass(frozen=True, slots=True)
class Failures:
    count: int
    oldest: datetime | None


@dataclass(frozen=True, slots=True)
class AttemptCounts:
    """Failed sign-ins in the window, each after the last success of the same kind."""

    by_client: Failures
    by_client_and_email: Failures
    by_email: Failures
    last_for_email: datetime | None  # the latest attempt for the e-mail, from anyone


def attempt_counts(session: Session, email: str, client: str, since: datetime) -> AttemptCounts:
    address, client = normalize_email(email)[:320], client[:MAX_CLIENT_LENGTH]
    pair = and_(LoginAttempt.email == address, LoginAttempt.client == client)
    return AttemptCounts(
        by_client=_failures(session, LoginAttempt.client == client, since),
        by_client_and_email=_failures_after_success(session, pair, since),
        by_email=_failures_after_success(session, LoginAttempt.email == address, since),
        last_for_email=session.scalar(
            select(func.max(LoginAttempt.at)).where(LoginAttempt.email == address)
        ),
    )


def _failures_after_success(
    session: Session, who: ColumnElement[bool], since: datetime
) -> Failures:
    last_success = session.scalar(
        select(func.max(LoginAttempt.at)).where(
            who, LoginAttempt.succeeded, LoginAttempt.at >= since
        )
    )
    start = since if last_success is None else max(since, last_success)
    return _failures(session, who, start)


def _failures(session: Session, who: ColumnElement[bool], since: datetime) -> Failures:
    statement = select(func.count(), func.min(LoginAttempt.at)).where(
        who, LoginAttempt.succeeded.is_(False), LoginAttempt.at >= since
    )
    count, oldest = session.execute(statement).one()
    return Failures(int(count or 0), oldest)

"""Login throttling that guessing cannot get past and that cannot lock anyone out.

Who tries is a *client*: the browser's known-device identity when it holds a device
cookie for the e-mail it signs in as (one earlier successful sign-in with it), else its
network address. Failed attempts in the window (`login_window_minutes`) are limited
per client (`login_failures_per_client`, any e-mails) and per client and e-mail
(`login_failures_per_email`, counted after that client's last success), so a guesser
only ever stops itself. An e-mail with more failures than `UNDER_ATTACK_CLIENTS`
clients could make (an attack from many addresses) is slowed down instead of locked:
attempts from unknown devices get one try per `PACE_SECONDS` for that e-mail, while
the user's known devices are not paced at all.

Every attempt is counted as failed before its password is checked, inside one locked
transaction with the counting (`users.lock_attempts`), so N parallel guesses cannot
all pass the check before any is recorded; a right password marks it succeeded."""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from fastapi import Request, Response

from api.deps import Services
from api.web.auth import cookies_secure
from storage.models import utcnow
from storage.repositories import users

DEVICE_COOKIE = "docintake_device"
DEVICE_COOKIE_PATH = "/app/login"
DEVICE_COOKIE_DAYS = 180
UNDER_ATTACK_CLIENTS = 4
PACE_SECONDS = 5.0
_DEVICE_PREFIX = "device:"
_NONCE_LENGTH = 22  # secrets.token_urlsafe(16)


@dataclass(frozen=True, slots=True)
class Client:
    key: str  # what attempts are counted under (the login_attempts.client column)
    known_device: bool


def client_of(request: Request, services: Services, email: str) -> Client:
    nonce = _device_nonce(request, services, email)
    if nonce is not None:
        return Client(_DEVICE_PREFIX + nonce, known_device=True)
    address = request.client.host if request.client else "unknown"
    return Client(address, known_device=False)


def reserve_attempt(services: Services, email: str, client: Client) -> tuple[int, int | None]:
    """(seconds to wait, None) when the attempt is refused; (0, attempt id) when it may
    check its password, already counted as a failure."""
    settings = services.settings
    window = timedelta(minutes=settings.login_window_minutes)
    with services.db.session() as session:
        users.lock_attempts(session, email, client.key)
        now = utcnow()  # after the lock: an attempt that waited for it sees the one before
        counts = users.attempt_counts(session, email, client.key, now - window)
        wait = _seconds_to_wait(services, counts, client, now)
        if wait:
            return wait, None
        attempt_id = users.record_attempt(session, email, client.key, False, now - window)
        session.commit()
    return 0, attempt_id


def _seconds_to_wait(
    services: Services, counts: users.AttemptCounts, client: Client, now: datetime
) -> int:
    settings = services.settings
    window = timedelta(minutes=settings.login_window_minutes)
    limits = [
        (counts.by_client, settings.login_failures_per_client),
        (counts.by_client_and_email, settings.login_failures_per_email),
    ]
    waits = [
        (failures.oldest + window - now).total_seconds()
        for failures, limit in limits
        if failures.count >= limit and failures.oldest is not None
    ]
    under_attack = counts.by_email.count >= UNDER_ATTACK_CLIENTS * settings.login_failures_per_email
    if under_attack and not client.known_device and counts.last_for_email is not None:
        waits.append(PACE_SECONDS - (now - counts.last_for_email).total_seconds())
    longest = max(waits, default=0.0)
    return max(1, math.ceil(longest)) if longest > 0 else 0


def remember_device(response: Response, services: Services, email: str) -> None:
    """After a successful sign-in: this browser is a known device for the e-mail."""
    nonce = secrets.token_urlsafe(16)
    response.set_cookie(
        DEVICE_COOKIE,
        f"{nonce}.{_device_mac(services, nonce, email)}",
        max_age=DEVICE_COOKIE_DAYS * 24 * 3600,
        path=DEVICE_COOKIE_PATH,
        secure=cookies_secure(services),
        httponly=True,
        samesite="strict",
    )


def _device_nonce(request: Request, services: Services, email: str) -> str | None:
    nonce, _, mac = request.cookies.get(DEVICE_COOKIE, "").partition(".")
    if len(nonce) != _NONCE_LENGTH or not mac:
        return None
    if not hmac.compare_digest(mac, _device_mac(services, nonce, email)):
        return None
    return nonce


def _device_mac(services: Services, nonce: str, email: str) -> str:
    """Binds the cookie to one e-mail, signed with the secret key: it cannot be made for
    another e-mail or without the key."""
    key = services.settings.secret_key.get_secret_value().encode()
    message = f"login-device:{nonce}:{users.normalize_email(email)}".encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()

"""Who is signed in: the session cookie, the `CurrentUser` dependency, and CSRF checks.

The cookie holds a random token (only its SHA-256 is stored); each session has its own
CSRF token that every form posts back in the hidden field `csrf_token`."""

from __future__ import annotations

import hmac
import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Annotated

from fastapi import Depends, Request, Response

from api.deps import Services, ServicesDep
from api.web.i18n import DEFAULT_LANGUAGE, supported
from api.web.limits import MAX_FORM_FIELDS
from storage.models import utcnow
from storage.repositories import web_sessions

SESSION_COOKIE = "docintake_session"
COOKIE_PATH = "/app"
MAX_TOKEN_LENGTH = 128


@dataclass(frozen=True)
class WebUser:
    user_id: uuid.UUID
    company_id: uuid.UUID
    email: str
    csrf_token: str
    # The interface language, "de" or "en": the user's choice, else the company's locale.
    # Numbers and dates are formatted in it too (docs/webapp.md, Languages).
    locale: str
    chose_language: bool  # False: the language follows the company's locale
    time_zone: str  # the company's: times on every page are shown in it
    # The company's master data has a VAT id, tax number or IBAN: only then is an
    # invoice's uncertain direction worth a warning (docs/webapp.md, "Direction").
    master_data_set: bool


class LoginRequired(Exception):
    """No valid session: the web app answers 303 to the login page and back."""


class CsrfRejected(Exception):
    """A form came without this session's CSRF token: the web app answers 403."""


def session_token(request: Request) -> str | None:
    token = request.cookies.get(SESSION_COOKIE)
    if not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    return token


def find_user(request: Request, services: Services) -> WebUser | None:
    token = session_token(request)
    if token is None:
        return None
    with services.db.read_session() as session:
        signed_in = web_sessions.find_signed_in(session, token, utcnow())
    if signed_in is None:
        return None
    return WebUser(
        user_id=signed_in.user_id,
        company_id=signed_in.company_id,
        email=signed_in.email,
        csrf_token=signed_in.csrf_token,
        locale=supported(signed_in.language)
        or supported(signed_in.company_locale)
        or DEFAULT_LANGUAGE,
        chose_language=supported(signed_in.language) is not None,
        time_zone=signed_in.company_time_zone,
        master_data_set=signed_in.company_identified,
    )


def current_user(request: Request, services: ServicesDep) -> WebUser:
    user = find_user(request, services)
    if user is None:
        raise LoginRequired
    return user


CurrentUser = Annotated[WebUser, Depends(current_user)]


async def csrf_protected(request: Request, user: CurrentUser) -> WebUser:
    form = await request.form(max_fields=MAX_FORM_FIELDS)
    sent = form.get("csrf_token")
    if not isinstance(sent, str) or not hmac.compare_digest(sent, user.csrf_token):
        raise CsrfRejected
    return user


CsrfUser = Annotated[WebUser, Depends(csrf_protected)]


def cookies_secure(services: Services) -> bool:
    return services.settings.public_base_url.startswith("https://")


def set_session_cookie(response: Response, services: Services, token: str) -> None:
    lifetime = timedelta(hours=services.settings.web_session_hours)
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=int(lifetime.total_seconds()),
        path=COOKIE_PATH,
        secure=cookies_secure(services),
        httponly=True,
        samesite="lax",
    )


def clear_session_cookie(response: Response, services: Services) -> None:
    response.delete_cookie(
        SESSION_COOKIE,
        path=COOKIE_PATH,
        secure=cookies_secure(services),
        httponly=True,
        samesite="lax",
    )


def safe_next(target: str | None) -> str:
    """Only paths of the web app itself: no open redirect to another site."""
    default = "/app/uploads"
    if not target or not (target == "/app" or target.startswith(("/app/", "/app?"))):
        return default
    if "\\" in target or any(ord(ch) < 32 for ch in target):
        return default
    return target

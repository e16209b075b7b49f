"""Log in and log out. Sign-in attempts are counted in the database, so every API
process sees the same limits; the scheme is in `login_throttle`."""

from __future__ import annotations

import hmac
import math
import secrets
from datetime import timedelta
from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from api.body_limits import BodyKind, body_limit
from api.deps import Services, ServicesDep
from api.web import login_throttle
from api.web.auth import (
    COOKIE_PATH,
    CsrfUser,
    clear_session_cookie,
    cookies_secure,
    find_user,
    safe_next,
    session_token,
    set_session_cookie,
)
from api.web.i18n import N_, Message
from api.web.render import render
from storage.models import utcnow
from storage.repositories import users, web_sessions

router = APIRouter(include_in_schema=False)

# Before there is a session, the login form is protected by a double-submit cookie.
LOGIN_CSRF_COOKIE = "docintake_login_csrf"
MAX_PASSWORD_LENGTH = 1024


def _login_form(
    request: Request,
    services: Services,
    next_path: str,
    status_code: int = 200,
    error: str | Message | None = None,
    email: str = "",
    headers: dict[str, str] | None = None,
) -> HTMLResponse:
    token = request.cookies.get(LOGIN_CSRF_COOKIE) or secrets.token_urlsafe(32)
    response = render(
        request,
        "login.html",
        None,
        status_code=status_code,
        headers=headers,
        csrf_token=token,
        next=next_path,
        error=error,
        email=email,
    )
    response.set_cookie(
        LOGIN_CSRF_COOKIE,
        token,
        path=COOKIE_PATH,
        secure=cookies_secure(services),
        httponly=True,
        samesite="lax",
    )
    return response


@router.get("/app/login", response_class=HTMLResponse)
@body_limit(BodyKind.NONE)
def login_page(request: Request, services: ServicesDep, next: str | None = None) -> Response:
    if find_user(request, services) is not None:
        return RedirectResponse(safe_next(next), status_code=303)
    return _login_form(request, services, safe_next(next))


@router.post("/app/login", response_class=HTMLResponse)
@body_limit(BodyKind.FORM)
def login(
    request: Request,
    services: ServicesDep,
    email: Annotated[str, Form(max_length=320)] = "",
    password: Annotated[str, Form(max_length=MAX_PASSWORD_LENGTH)] = "",
    csrf_token: Annotated[str, Form(max_length=128)] = "",
    next: Annotated[str, Form(max_length=2048)] = "",
) -> Response:
    next_path = safe_next(next)
    cookie = request.cookies.get(LOGIN_CSRF_COOKIE, "")
    if not cookie or not hmac.compare_digest(cookie, csrf_token):
        error = N_("The login form had expired. Please try again.")
        return _login_form(request, services, next_path, 403, error, email)
    client = login_throttle.client_of(request, services, email)
    wait, attempt_id = login_throttle.reserve_attempt(services, email, client)
    if attempt_id is None:
        return _too_many_attempts(request, services, next_path, email, wait)
    new_session = _sign_in(services, email, password, attempt_id)
    if new_session is None:
        error = N_("E-mail or password is wrong.")
        return _login_form(request, services, next_path, 401, error, email)
    response = RedirectResponse(next_path, status_code=303)
    set_session_cookie(response, services, new_session.token)
    login_throttle.remember_device(response, services, email)
    response.delete_cookie(LOGIN_CSRF_COOKIE, path=COOKIE_PATH)
    return response


def _too_many_attempts(
    request: Request, services: Services, next_path: str, email: str, wait: int
) -> Response:
    if wait < 120:
        message = N_("Too many failed logins. Please try again in %(count)s seconds.")
        error = Message(message, {"count": wait})
    else:
        message = N_("Too many failed logins. Please try again in %(count)s minutes.")
        error = Message(message, {"count": math.ceil(wait / 60)})
    headers = {"Retry-After": str(wait)}
    return _login_form(request, services, next_path, 429, error, email, headers)


def _sign_in(
    services: Services, email: str, password: str, attempt_id: int
) -> web_sessions.NewWebSession | None:
    """A new session when the password is right; the attempt, already counted as a
    failure, is then marked succeeded."""
    with services.db.read_session() as session:
        user = users.authenticate(session, email, password)
    if user is None:
        return None
    with services.db.session() as session:
        users.record_login(session, user.id, password)
        users.mark_succeeded(session, attempt_id)
        web_sessions.delete_expired(session, user.id, utcnow())
        lifetime = timedelta(hours=services.settings.web_session_hours)
        new_session = web_sessions.start_session(session, user.id, lifetime)
        session.commit()
    return new_session


@router.post("/app/logout")
@body_limit(BodyKind.FORM)
def logout(request: Request, services: ServicesDep, _user: CsrfUser) -> Response:
    token = session_token(request)
    if token is not None:
        with services.db.session() as session:
            web_sessions.end_session(session, token)
            session.commit()
    response = RedirectResponse("/app/login", status_code=303)
    clear_session_cookie(response, services)
    return response

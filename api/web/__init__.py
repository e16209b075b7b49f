"""The web application under /app: server-rendered pages for a company's accountants.

`install_web(app)` adds the routers, the static files, the guard that caps form bodies
and adds the security headers (`guard.WebGuard`), and the handlers that turn a missing
session into a redirect to the login page and errors under /app into pages."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlencode

from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ExceptionHandler

from api.body_limits import BodyKind, body_limit
from api.web import (
    annotation_pages,
    bank_account_pages,
    batches,
    datev_pages,
    imap_pages,
    inbox,
    language,
    login,
    mail_pages,
    payment_pages,
    reclassify_pages,
    results,
    settings_pages,
    upload_pages,
    webhook_pages,
)
from api.web.auth import CsrfRejected, LoginRequired, WebUser, find_user
from api.web.guard import WebGuard, is_web_path
from api.web.i18n import N_
from api.web.render import error_page, not_found_page
from storage.errors import DomainError

STATIC_DIR = Path(__file__).parent / "static"


def web_router() -> APIRouter:
    router = APIRouter(include_in_schema=False)
    router.add_api_route("/app", _home, methods=["GET"])
    router.add_api_route("/app/", _home, methods=["GET"])
    router.include_router(login.router)
    router.include_router(language.router)
    router.include_router(inbox.router)
    router.include_router(batches.router)
    router.include_router(settings_pages.router)
    router.include_router(webhook_pages.router)
    router.include_router(datev_pages.router)
    router.include_router(mail_pages.router)
    router.include_router(imap_pages.router)
    router.include_router(upload_pages.router)
    router.include_router(results.router)
    router.include_router(reclassify_pages.router)
    router.include_router(annotation_pages.router)
    router.include_router(bank_account_pages.router)
    router.include_router(payment_pages.router)
    return router


@body_limit(BodyKind.NONE)
def _home() -> Response:
    return RedirectResponse("/app/uploads", status_code=303)


def install_web(app: FastAPI) -> None:
    app.include_router(web_router())
    app.add_middleware(WebGuard, services=app.state.services)
    static = body_limit(BodyKind.NONE)(StaticFiles(directory=STATIC_DIR))
    app.mount("/app/static", static, name="web-static")
    app.add_exception_handler(LoginRequired, _login_required)
    app.add_exception_handler(CsrfRejected, _csrf_rejected)
    for error in (StarletteHTTPException, RequestValidationError):
        api_handler = app.exception_handlers[error]
        app.add_exception_handler(error, _pages_under_app(api_handler))
    for failure in (DomainError, DBAPIError, Exception):
        api_handler = app.exception_handlers[failure]
        app.add_exception_handler(failure, _failures_under_app(api_handler))


async def _login_required(request: Request, _: Exception) -> Response:
    target = "/app/login"
    if request.method == "GET":
        path = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        target += "?" + urlencode({"next": path})
    return RedirectResponse(target, status_code=303)


async def _csrf_rejected(request: Request, _: Exception) -> Response:
    user = find_user(request, request.app.state.services)
    message = N_(
        "The form was not accepted (its security token is missing or out of date)."
        " Reload the page and try again."
    )
    return error_page(request, user, 403, N_("Form expired"), message)


def _pages_under_app(api_handler: ExceptionHandler) -> ExceptionHandler:
    """Errors of /app paths as HTML pages; the API keeps its problem+json."""

    async def handler(request: Request, exc: Exception) -> Response:
        if not is_web_path(request.url.path):
            response: Response = await api_handler(request, exc)  # type: ignore[arg-type,misc]
            return response
        user = find_user(request, request.app.state.services)
        if user is None:
            # Without a session nothing under /app is shown, not even what does not exist.
            return await _login_required(request, exc)
        if isinstance(exc, RequestValidationError):
            return error_page(
                request, user, 400, N_("Bad request"), N_("The request was not valid.")
            )
        assert isinstance(exc, StarletteHTTPException)
        if exc.status_code == 404:
            return not_found_page(request, user)
        title = N_("Method not allowed") if exc.status_code == 405 else N_("Error")
        return error_page(request, user, exc.status_code, title, str(exc.detail))

    return handler


def _failures_under_app(api_handler: ExceptionHandler) -> ExceptionHandler:
    """Domain errors, an unavailable database and unexpected errors of /app paths as
    HTML pages (the API handler still logs them and answers /v1 with problem+json)."""

    async def handler(request: Request, exc: Exception) -> Response:
        api_response: Response = await api_handler(request, exc)  # type: ignore[arg-type,misc]
        if not is_web_path(request.url.path):
            return api_response
        user = _user_if_known(request)
        status = api_response.status_code
        if isinstance(exc, DomainError) and status < 500:
            return error_page(request, user, status, exc.title, exc.detail)
        if status == 503:
            message = N_("The service is not available right now. Please try again shortly.")
            retry = {"Retry-After": api_response.headers.get("Retry-After", "5")}
            title = N_("Service unavailable")
            return error_page(request, user, 503, title, message, headers=retry)
        message = N_("Something went wrong on our side. The error is logged; please try again.")
        return error_page(request, user, 500, N_("Internal error"), message)

    return handler


def _user_if_known(request: Request) -> WebUser | None:
    """The signed-in user for the navigation, or None when the failure that is being
    shown (an unavailable database, say) keeps us from knowing: the page never fails."""
    try:
        return find_user(request, request.app.state.services)
    except Exception:
        return None

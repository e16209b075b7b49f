"""Templates and the filters that format numbers and dates in the user's locale."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from jinja2 import pass_context
from jinja2.runtime import Context

from api.web.auth import WebUser
from api.web.formats import format_date, format_datetime, format_money, format_number
from api.web.security_headers import security_headers

TEMPLATE_DIR = Path(__file__).parent / "templates"
DEFAULT_LOCALE = "de"

templates = Jinja2Templates(directory=TEMPLATE_DIR)


def _locale(context: Context) -> str:
    locale = context.get("locale", DEFAULT_LOCALE)
    return locale if isinstance(locale, str) else DEFAULT_LOCALE


@pass_context
def _money(context: Context, amount: object, currency: object = None) -> str:
    return format_money(amount, currency, _locale(context))


@pass_context
def _number(context: Context, value: object) -> str:
    return format_number(value, _locale(context))


@pass_context
def _date(context: Context, value: object) -> str:
    return format_date(value, _locale(context))


@pass_context
def _datetime(context: Context, value: object) -> str:
    return format_datetime(value, _locale(context))


def _label(value: object) -> str:
    """An enum value as words: `supplier_invoice` -> `Supplier invoice`."""
    return str(value).replace("_", " ").capitalize() if value is not None else ""


templates.env.filters.update(
    money=_money, number=_number, date=_date, datetime=_datetime, label=_label
)


def render(
    request: Request,
    template: str,
    user: WebUser | None,
    status_code: int = 200,
    headers: dict[str, str] | None = None,
    **context: Any,
) -> HTMLResponse:
    context.update(
        user=user,
        csrf_token=user.csrf_token if user else context.get("csrf_token", ""),
        locale=user.locale if user else DEFAULT_LOCALE,
    )
    response = templates.TemplateResponse(
        request, template, context, status_code=status_code, headers=headers
    )
    response.headers.setdefault("Cache-Control", "no-store")
    # Also here, not only in WebGuard: a page for an unexpected error is sent by the
    # outermost middleware, past WebGuard.
    https = request.url.scheme == "https" or _public_base_is_https(request)
    for name, value in security_headers(https).items():
        response.headers.setdefault(name, value)
    return response


def _public_base_is_https(request: Request) -> bool:
    services = getattr(request.app.state, "services", None)
    return services is not None and services.settings.public_base_url.startswith("https://")


def error_page(
    request: Request,
    user: WebUser | None,
    status_code: int,
    title: str,
    message: str,
    headers: dict[str, str] | None = None,
) -> HTMLResponse:
    return render(
        request,
        "error.html",
        user,
        status_code=status_code,
        headers=headers,
        title=title,
        message=message,
    )


def not_found_page(request: Request, user: WebUser | None) -> HTMLResponse:
    return error_page(
        request, user, 404, "Not found", "There is nothing here, or it belongs to another company."
    )

"""Templates, in the request's language (gettext through Jinja2's i18n extension), and
the filters that format numbers and dates in that language."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader, pass_context
from jinja2.runtime import Context

from api.web.auth import WebUser
from api.web.formats import (
    format_date,
    format_datetime,
    format_money,
    format_number,
    format_size,
)
from api.web.i18n import LANGUAGE_NAMES, LANGUAGES, N_, Message, negotiate, supported, translate
from api.web.i18n import translations as catalog
from api.web.labels import VALUE_LABELS, VAT_CATEGORY_LABELS
from api.web.processor_texts import failure_text
from api.web.security_headers import security_headers
from api.web.time_zones import DEFAULT_TIME_ZONE, zone
from api.web.unit_names import unit_name

TEMPLATE_DIR = Path(__file__).parent / "templates"
LANGUAGE_PARAM = "lang"  # ?lang=en on pages shown before signing in

templates = Jinja2Templates(
    env=Environment(
        loader=FileSystemLoader(TEMPLATE_DIR), autoescape=True, extensions=["jinja2.ext.i18n"]
    )
)


def _locale(context: Context) -> str:
    """The page's language. Every page has it (render sets it); a macro imported
    without `with context` has not, and fails here instead of showing the default."""
    locale = context.get("locale")
    if not isinstance(locale, str):
        raise LookupError("no language in the template context (import macros with context)")
    return locale


@pass_context
def _gettext(context: Context, message: str) -> str:
    return catalog(_locale(context)).gettext(message)


@pass_context
def _ngettext(context: Context, singular: str, plural: str, count: int) -> str:
    return catalog(_locale(context)).ngettext(singular, plural, count)


@pass_context
def _translated(context: Context, text: str | Message | None) -> str:
    """`{{ value | tr }}`: a msgid marked in Python (N_) or a Message, translated."""
    return "" if text is None else translate(_locale(context), text)


@pass_context
def _money(context: Context, amount: object, currency: object = None) -> str:
    return format_money(amount, currency, _locale(context))


@pass_context
def _number(context: Context, value: object) -> str:
    return format_number(value, _locale(context))


def _zone(context: Context) -> ZoneInfo:
    """The company's time zone (render sets it; the default before signing in)."""
    name = context.get("time_zone")
    return zone(name if isinstance(name, str) else None)


@pass_context
def _date(context: Context, value: object) -> str:
    return format_date(value, _locale(context), _zone(context))


@pass_context
def _datetime(context: Context, value: object) -> str:
    return format_datetime(value, _locale(context), _zone(context))


@pass_context
def _size(context: Context, value: object) -> str:
    return format_size(value, _locale(context))


@pass_context
def _label(context: Context, value: object) -> str:
    """An enum value as words in the page's language: `supplier_invoice` -> `Supplier
    invoice` (labels.VALUE_LABELS); an unknown value as its words, untranslated."""
    if value is None:
        return ""
    key = str(getattr(value, "value", value))
    known = VALUE_LABELS.get(key)
    return translate(_locale(context), known) if known else key.replace("_", " ").capitalize()


@pass_context
def _unit(context: Context, code: str | None, quantity: object = None) -> str:
    """`{{ line.unit_code | unit(line.quantity) }}`: "Stunden" / "hours" (unit_names.py)."""
    return unit_name(code, quantity, _locale(context))


@pass_context
def _vat_category(context: Context, code: str | None) -> str:
    """`{{ code | vat_category }}`: `S` as "Regelsteuersatz" / "Standard rate"; an unknown
    code as it is."""
    if not code:
        return ""
    known = VAT_CATEGORY_LABELS.get(code.strip().upper())
    return translate(_locale(context), known) if known else code


# Added by the i18n extension, unknown to the type stubs.
templates.env.install_gettext_callables(_gettext, _ngettext, newstyle=True)  # type: ignore[attr-defined]
templates.env.filters.update(
    money=_money,
    number=_number,
    date=_date,
    datetime=_datetime,
    size=_size,
    label=_label,
    tr=_translated,
    unit=_unit,
    vat_category=_vat_category,
)
templates.env.globals.update(
    languages=LANGUAGES, language_names=LANGUAGE_NAMES, failure_text=failure_text
)


def request_language(request: Request, user: WebUser | None) -> str:
    """The signed-in user's language; before signing in, `?lang=` or the browser's."""
    if user is not None:
        return user.locale
    chosen = supported(request.query_params.get(LANGUAGE_PARAM))
    return chosen or negotiate(request.headers.get("accept-language"))


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
        locale=request_language(request, user),
        time_zone=user.time_zone if user else DEFAULT_TIME_ZONE,
        current_path=_current_path(request),
        language_urls={lang: _language_url(request, lang) for lang in LANGUAGES},
    )
    response = templates.TemplateResponse(
        request, template, context, status_code=status_code, headers=headers
    )
    response.headers.setdefault("Cache-Control", "no-store")
    response.headers.setdefault("Content-Language", context["locale"])
    # Also here, not only in WebGuard: a page for an unexpected error is sent by the
    # outermost middleware, past WebGuard.
    https = request.url.scheme == "https" or _public_base_is_https(request)
    for name, value in security_headers(https).items():
        response.headers.setdefault(name, value)
    return response


def _current_path(request: Request) -> str:
    """Where the language switch returns to: this page, for pages shown by GET."""
    if request.method != "GET":
        return "/app/uploads"
    query = f"?{request.url.query}" if request.url.query else ""
    return request.url.path + query


def _language_url(request: Request, language: str) -> str:
    """This page (the login page after a refused form) with `?lang=`, before signing in."""
    path = request.url.path if request.method == "GET" else "/app/login"
    params = {k: v for k, v in request.query_params.items() if k != LANGUAGE_PARAM}
    return f"{path}?{urlencode({**params, LANGUAGE_PARAM: language})}"


def _public_base_is_https(request: Request) -> bool:
    services = getattr(request.app.state, "services", None)
    return services is not None and services.settings.public_base_url.startswith("https://")


def error_page(
    request: Request,
    user: WebUser | None,
    status_code: int,
    title: str,
    message: str | Message,
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
    message = N_("There is nothing here, or it belongs to another company.")
    return error_page(request, user, 404, N_("Not found"), message)

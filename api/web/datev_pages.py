"""DATEV in the web application: the company's DATEV settings, and the export page of a
period (what goes in, what is held back and why, what was exported before), with the
Buchungsstapel and the voucher package as downloads (docs/datev.md)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.datastructures import FormData

from api.body_limits import BodyKind, body_limit
from api.deps import ServicesDep
from api.web.auth import CsrfUser, CurrentUser, WebUser
from api.web.datev_form import (
    ACCOUNT_FIELDS,
    CHARTS,
    EXPORT_LABELS,
    DatevForm,
    form_values,
    parse_datev_form,
)
from api.web.i18n import N_
from api.web.render import render
from storage.datev import export as datev
from storage.datev.settings import DEFAULT_ACCOUNTS
from storage.repositories import datev_exports

router = APIRouter(include_in_schema=False)
SETTINGS_FIELDS = (
    "consultant_number",
    "client_number",
    "account_length",
    "fiscal_year_start_month",
    "chart",
    "automatic",
    *ACCOUNT_FIELDS,
)


def _settings_page(
    request: Request, user: WebUser, form: DatevForm, status_code: int = 200
) -> HTMLResponse:
    return render(
        request,
        "datev_settings.html",
        user,
        status_code=status_code,
        active="settings",
        form=form,
        charts=CHARTS,
        defaults=DEFAULT_ACCOUNTS,
        saved=request.query_params.get("saved") == "1",
    )


@router.get("/app/settings/datev", response_class=HTMLResponse)
@body_limit(BodyKind.NONE)
def datev_settings_page(request: Request, user: CurrentUser, services: ServicesDep) -> HTMLResponse:
    with services.db.read_session() as session:
        settings = datev_exports.datev_settings(session, user.company_id)
    return _settings_page(request, user, DatevForm(form_values(settings), settings))


@router.post("/app/settings/datev", response_class=HTMLResponse)
@body_limit(BodyKind.FORM)
async def save_datev_settings(request: Request, user: CsrfUser, services: ServicesDep) -> Response:
    submitted = await request.form()
    form = parse_datev_form(_texts(submitted), submitted.get("use_chart_defaults") == "on")
    if form.settings is None:
        return _settings_page(request, user, form, status_code=422)
    with services.db.session() as session:
        datev_exports.save_datev_settings(session, user.company_id, form.settings)
        session.commit()
    return RedirectResponse("/app/settings/datev?saved=1", status_code=303)


def _texts(submitted: FormData) -> dict[str, str]:
    values = {name: submitted.get(name) for name in SETTINGS_FIELDS}
    return {name: value[:20] for name, value in values.items() if isinstance(value, str)}


def last_month(today: date) -> tuple[date, date]:
    end = today.replace(day=1) - timedelta(days=1)
    return end.replace(day=1), end


def _day(text: str | None) -> date | None:
    try:
        return date.fromisoformat(text) if text else None
    except ValueError:
        return None


@router.get("/app/exports/datev", response_class=HTMLResponse)
@body_limit(BodyKind.NONE)
def datev_export_page(request: Request, user: CurrentUser, services: ServicesDep) -> HTMLResponse:
    params = request.query_params
    default_from, default_to = last_month(date.today())
    start = _day(params.get("from")) if "from" in params else default_from
    end = _day(params.get("to")) if "to" in params else default_to
    include_held = params.get("include_held") == "on"
    plan, problem = None, None
    with services.db.read_session() as session:
        set_up = datev_exports.datev_settings(session, user.company_id) is not None
        if start is None or end is None:
            problem = N_("Enter both dates as YYYY-MM-DD.")
        elif set_up:
            try:
                plan = datev.plan(session, user.company_id, (start, end), include_held)
            except datev.InvalidPeriod:
                problem = N_(
                    "The period must not end before it starts, and must lie in one fiscal"
                    " year: DATEV takes one fiscal year per file."
                )
    return render(
        request,
        "datev_export.html",
        user,
        status_code=422 if problem else 200,
        active="exports",
        start=params.get("from", default_from.isoformat()),
        end=params.get("to", default_to.isoformat()),
        include_held=include_held,
        plan=plan,
        problem=problem,
        set_up=set_up,
        labels=EXPORT_LABELS,
    )


@router.post("/app/exports/datev")
@body_limit(BodyKind.FORM)
def download_datev_export(
    user: CsrfUser,
    services: ServicesDep,
    start: Annotated[date, Form(alias="from")],
    end: Annotated[date, Form(alias="to")],
    export_format: Annotated[datev.ExportFormat, Form(alias="format")],
    include_held: Annotated[str, Form(max_length=2)] = "",
) -> Response:
    with services.db.session() as session:
        exported = datev.export(
            session,
            services.store,
            user.company_id,
            period=(start, end),
            export_format=export_format,
            include_held=include_held == "on",
            user_id=user.user_id,
        )
        session.commit()
    media_type = exported.media_type
    if media_type == "text/csv":
        media_type += "; charset=windows-1252"
    disposition = f'attachment; filename="{exported.file_name}"'
    return Response(
        exported.content,
        media_type=media_type,
        headers={
            "Content-Disposition": disposition,
            "Docintake-Export-Id": str(exported.export_id),
        },
    )

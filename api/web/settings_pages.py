"""Company settings: master data and locale, and the company's API keys."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from api.body_limits import BodyKind, body_limit
from api.deps import ServicesDep
from api.web.auth import CsrfUser, CurrentUser, WebUser
from api.web.master_data import LOCALES, MasterData, parse_master_data
from api.web.paging import parse_id
from api.web.render import not_found_page, render
from api.web.time_zones import time_zone_names
from storage.repositories import api_keys, companies

router = APIRouter(include_in_schema=False)

# flows/work.py PROFILE_CACHE_SECONDS: how long a worker keeps a company's master data.
PROFILE_CACHE_SECONDS = 10
TextField = Annotated[str, Form(max_length=10_000)]


def _settings_page(
    request: Request, user: WebUser, data: MasterData, status_code: int = 200, saved: bool = False
) -> HTMLResponse:
    return render(
        request,
        "settings.html",
        user,
        status_code=status_code,
        active="settings",
        data=data,
        locales=LOCALES,
        time_zones=time_zone_names(),
        saved=saved,
        cache_seconds=PROFILE_CACHE_SECONDS,
    )


@router.get("/app/settings", response_class=HTMLResponse)
@body_limit(BodyKind.NONE)
def settings_page(request: Request, user: CurrentUser, services: ServicesDep) -> HTMLResponse:
    with services.db.read_session() as session:
        company = companies.get_company(session, user.company_id)
        assert company is not None  # a signed-in user's company exists (foreign key)
        data = MasterData(
            company.name,
            company.vat_ids,
            company.tax_number,
            company.ibans,
            company.locale,
            company.time_zone,
        )
    saved = request.query_params.get("saved") == "1"
    return _settings_page(request, user, data, saved=saved)


@router.post("/app/settings", response_class=HTMLResponse)
@body_limit(BodyKind.FORM)
def save_settings(
    request: Request,
    user: CsrfUser,
    services: ServicesDep,
    name: TextField = "",
    vat_ids: TextField = "",
    tax_number: TextField = "",
    ibans: TextField = "",
    locale: Annotated[str, Form(max_length=8)] = "",
    time_zone: Annotated[str, Form(max_length=64)] = "",
) -> Response:
    data = parse_master_data(name, vat_ids, tax_number, ibans, locale, time_zone)
    if data.errors:
        return _settings_page(request, user, data, status_code=422)
    with services.db.session() as session:
        saved = companies.update_profile(
            session,
            user.company_id,
            name=data.name,
            vat_ids=data.vat_ids,
            tax_number=data.tax_number,
            ibans=data.ibans,
            locale=data.locale,
            time_zone=data.time_zone,
        )
        assert saved is not None  # a signed-in user's company exists (foreign key)
        session.commit()
    return RedirectResponse("/app/settings?saved=1", status_code=303)


def _keys_page(
    request: Request,
    user: WebUser,
    services: ServicesDep,
    new_key: api_keys.NewApiKey | None = None,
    status_code: int = 200,
) -> HTMLResponse:
    with services.db.read_session() as session:
        keys = api_keys.list_api_keys(session, user.company_id)
    return render(
        request,
        "api_keys.html",
        user,
        status_code=status_code,
        active="settings",
        keys=sorted(keys, key=lambda key: (key.revoked_at is not None, key.created_at)),
        new_key=new_key,
        revoked=request.query_params.get("revoked"),
    )


@router.get("/app/settings/api-keys", response_class=HTMLResponse)
@body_limit(BodyKind.NONE)
def api_keys_page(request: Request, user: CurrentUser, services: ServicesDep) -> HTMLResponse:
    return _keys_page(request, user, services)


@router.post("/app/settings/api-keys", response_class=HTMLResponse)
@body_limit(BodyKind.FORM)
def create_api_key(
    request: Request,
    user: CsrfUser,
    services: ServicesDep,
    name: Annotated[str, Form(max_length=255)] = "",
) -> HTMLResponse:
    with services.db.session() as session:
        new_key = api_keys.create_api_key(session, user.company_id, name=name.strip() or None)
        session.commit()
    # The key is in this answer only (never stored, never redirected with).
    return _keys_page(request, user, services, new_key=new_key, status_code=201)


@router.post("/app/settings/api-keys/{key_id}/revoke")
@body_limit(BodyKind.FORM)
def revoke_api_key(
    key_id: str, request: Request, user: CsrfUser, services: ServicesDep
) -> Response:
    parsed = parse_id(key_id)
    if parsed is None:
        return not_found_page(request, user)
    with services.db.session() as session:
        if api_keys.get_api_key(session, user.company_id, parsed) is None:
            return not_found_page(request, user)
        api_keys.revoke_api_key(session, user.company_id, parsed)  # no-op when revoked before
        session.commit()
    return RedirectResponse(f"/app/settings/api-keys?revoked={parsed}", status_code=303)

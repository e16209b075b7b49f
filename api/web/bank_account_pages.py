"""Confirming or dismissing a warning about an invoice's bank account (issue 42, part
3). The first decision stands and records who decided and when."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from api.body_limits import BodyKind, body_limit
from api.deps import ServicesDep
from api.web.auth import CsrfUser
from api.web.i18n import N_
from api.web.limits import MAX_FORM_FIELDS
from api.web.paging import parse_id
from api.web.render import error_page, not_found_page
from storage.bank_account_models import Decision
from storage.repositories import bank_accounts

router = APIRouter(prefix="/app", include_in_schema=False)


@router.post("/invoices/{result_id}/account-warnings/{warning_id}")
@body_limit(BodyKind.FORM)
async def decide_account_warning(
    request: Request, result_id: str, warning_id: str, user: CsrfUser, services: ServicesDep
) -> Response:
    form = await request.form(max_fields=MAX_FORM_FIELDS)
    invoice_key, warning_key = parse_id(result_id), parse_id(warning_id)
    if invoice_key is None or warning_key is None:
        return not_found_page(request, user)
    raw = form.get("decision")
    if raw not in {d.value for d in Decision}:
        return error_page(
            request, user, 400, N_("Bad request"), N_("Choose to confirm or to dismiss.")
        )
    with services.db.session() as session:
        warning = bank_accounts.decide(
            session, user.company_id, warning_key, Decision(str(raw)), user.user_id
        )
        if warning is None or warning.result_id != invoice_key:
            return not_found_page(request, user)
        session.commit()
    return RedirectResponse(f"/app/invoices/{invoice_key}#bank-account", status_code=303)

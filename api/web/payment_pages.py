"""Accepting or rejecting a payment proposed for an invoice (issue 42, part 4). The
first decision stands and records who decided and when."""

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
from storage.payment_match_models import MatchStatus
from storage.repositories import payment_matches

router = APIRouter(prefix="/app", include_in_schema=False)
_DECISIONS = {MatchStatus.ACCEPTED.value, MatchStatus.REJECTED.value}


@router.post("/payment-matches/{match_id}")
@body_limit(BodyKind.FORM)
async def decide_payment_match(
    request: Request, match_id: str, user: CsrfUser, services: ServicesDep
) -> Response:
    form = await request.form(max_fields=MAX_FORM_FIELDS)
    key = parse_id(match_id)
    if key is None:
        return not_found_page(request, user)
    raw = form.get("decision")
    if raw not in _DECISIONS:
        return error_page(
            request, user, 400, N_("Bad request"), N_("Choose to accept or to reject.")
        )
    with services.db.session() as session:
        row = payment_matches.decide(
            session, user.company_id, key, MatchStatus(str(raw)), user.user_id
        )
        if row is None:
            return not_found_page(request, user)
        session.commit()
    if request.query_params.get("back") == "statement":
        target = f"/app/bank-imports/{row.statement_result_id}#transaction-{row.position}"
    else:
        target = f"/app/invoices/{row.invoice_result_id}#payment-status"
    return RedirectResponse(target, status_code=303)

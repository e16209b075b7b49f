"""Company settings: the e-mail intake address (docs/email.md), and rotating its token."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from api.body_limits import BodyKind, body_limit
from api.deps import ServicesDep
from api.web.auth import CsrfUser, CurrentUser
from api.web.render import render
from storage.models import Company, utcnow
from storage.repositories import mail_addresses

router = APIRouter(include_in_schema=False)


@router.get("/app/settings/email", response_class=HTMLResponse)
@body_limit(BodyKind.NONE)
def email_page(request: Request, user: CurrentUser, services: ServicesDep) -> HTMLResponse:
    box = mail_addresses.token_box(services.settings)
    with services.db.session() as session:
        token = mail_addresses.current_token(session, user.company_id, box)
        retiring = mail_addresses.retiring_until(session, user.company_id, utcnow())
        company = session.get(Company, user.company_id)
        refuse_dmarc_fail = company is not None and company.refuse_dmarc_fail
        session.commit()  # a company made before e-mail intake gets its first token here
    address = mail_addresses.intake_address(token, services.settings)
    local_part, domain = address.split("@")
    return render(
        request,
        "email_intake.html",
        user,
        active="settings",
        address=address,
        suffixed={
            suffix: f"{local_part}+{suffix}@{domain}"
            for suffix in mail_addresses.SUFFIX_TYPES
            if suffix
        },
        retiring=retiring,
        rotated=request.query_params.get("rotated") == "1",
        refuse_dmarc_fail=refuse_dmarc_fail,
        dmarc_saved=request.query_params.get("dmarc") == "1",
    )


@router.post("/app/settings/email/rotate")
@body_limit(BodyKind.FORM)
def rotate_address(request: Request, user: CsrfUser, services: ServicesDep) -> Response:
    """A new intake address; the old one keeps working for 7 days."""
    box = mail_addresses.token_box(services.settings)
    with services.db.session() as session:
        mail_addresses.current_token(session, user.company_id, box)
        mail_addresses.rotate_token(session, user.company_id, box)
        session.commit()
    return RedirectResponse("/app/settings/email?rotated=1", status_code=303)

"""Company settings: the company's own mailbox polled over IMAP (docs/email.md), with a
button that tries the connection, and the DMARC refusal of e-mail intake."""

from __future__ import annotations

import uuid

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from api.body_limits import BodyKind, body_limit
from api.deps import Services, ServicesDep
from api.web.auth import CsrfUser, CurrentUser, WebUser
from api.web.imap_form import DOCUMENT_TYPES, ImapForm, form_values, parse_imap_form
from api.web.render import render
from flows.imap_client import ImapTrouble, default_connector
from storage.imap_models import ImapMailbox
from storage.models import Company
from storage.repositories import imap_mailboxes
from storage.repositories.imap_mailboxes import MailboxSettings
from storage.secret_box import SecretUnreadable

router = APIRouter(include_in_schema=False)
PAGE = "/app/settings/email/imap"


def _stored(
    services: Services, company_id: uuid.UUID
) -> tuple[MailboxSettings | None, ImapMailbox | None]:
    box = imap_mailboxes.password_box(services.settings)
    with services.db.read_session() as session:
        mailbox = imap_mailboxes.mailbox_of(session, company_id)
        if mailbox is None:
            return None, None
        try:
            return imap_mailboxes.settings_of(mailbox, box), mailbox
        except SecretUnreadable:  # DOCINTAKE_SECRET_KEY changed: the password must be set again
            return None, mailbox


def _page(
    request: Request,
    user: WebUser,
    form: ImapForm,
    mailbox: ImapMailbox | None,
    *,
    tested: str | None = None,
    test_failed: str | None = None,
    status_code: int = 200,
) -> HTMLResponse:
    return render(
        request,
        "imap_settings.html",
        user,
        status_code=status_code,
        active="settings",
        form=form,
        mailbox=mailbox,
        document_types=DOCUMENT_TYPES,
        saved=request.query_params.get("saved") == "1",
        tested=tested,
        test_failed=test_failed,
    )


@router.get(PAGE, response_class=HTMLResponse)
@body_limit(BodyKind.NONE)
def imap_page(request: Request, user: CurrentUser, services: ServicesDep) -> HTMLResponse:
    current, mailbox = _stored(services, user.company_id)
    values = form_values(current) if current or mailbox is None else {}
    return _page(request, user, ImapForm(values), mailbox)


@router.post(PAGE, response_class=HTMLResponse)
@body_limit(BodyKind.FORM)
async def save_imap(request: Request, user: CsrfUser, services: ServicesDep) -> Response:
    current, mailbox = _stored(services, user.company_id)
    form = parse_imap_form(await request.form(), current.password if current else None)
    if form.settings is None:
        return _page(request, user, form, mailbox, status_code=422)
    with services.db.session() as session:
        imap_mailboxes.save_mailbox(
            session, user.company_id, form.settings, imap_mailboxes.password_box(services.settings)
        )
        session.commit()
    return RedirectResponse(f"{PAGE}?saved=1", status_code=303)


@router.post(f"{PAGE}/test", response_class=HTMLResponse)
@body_limit(BodyKind.FORM)
async def test_imap(request: Request, user: CsrfUser, services: ServicesDep) -> Response:
    """Log in with the form's settings (nothing is saved) and say what was found."""
    current, mailbox = _stored(services, user.company_id)
    form = parse_imap_form(await request.form(), current.password if current else None)
    if form.settings is None:
        return _page(request, user, form, mailbox, status_code=422)
    connector = default_connector(services.settings)
    try:
        with connector.session(form.settings) as session:
            exists = session.exists
    except ImapTrouble as trouble:
        return _page(request, user, form, mailbox, test_failed=str(trouble)[:500])
    return _page(request, user, form, mailbox, tested=str(exists))


@router.post("/app/settings/email/dmarc")
@body_limit(BodyKind.FORM)
async def save_dmarc(request: Request, user: CsrfUser, services: ServicesDep) -> Response:
    refuse = (await request.form()).get("refuse_dmarc_fail") == "on"
    with services.db.session() as session:
        company = session.get(Company, user.company_id)
        assert company is not None
        company.refuse_dmarc_fail = refuse
        session.commit()
    return RedirectResponse("/app/settings/email?dmarc=1", status_code=303)

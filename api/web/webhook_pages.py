"""The company's webhook endpoints and their recent deliveries (status code, attempts,
next try), with a button that sends a delivery again and one that rotates an endpoint's
secret (the new one shown once, on the page that answers the form). Endpoints are
registered here (a form checked as the API checks POST /v1/webhook-endpoints, the new
secret shown once) or over the API, and removed here or with DELETE."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from api.body_limits import BodyKind, body_limit
from api.deps import ServicesDep
from api.web.auth import CsrfUser, CurrentUser
from api.web.i18n import N_
from api.web.render import not_found_page, render
from api.web.webhook_form import EVENTS, TOO_MANY, EndpointForm, parse_endpoint_form
from storage import errors
from storage.repositories import webhooks as webhook_repo
from storage.secret_box import SecretBox
from storage.webhook_models import WebhookDelivery, WebhookEndpoint

router = APIRouter(include_in_schema=False)

RECENT_DELIVERIES = 20
MESSAGE_ID = re.compile(r"^msg_[0-9a-f]{32}$")


@dataclass(frozen=True)
class EndpointView:
    endpoint: WebhookEndpoint
    deliveries: list[WebhookDelivery]


@dataclass(frozen=True)
class Rotated:
    """A secret just rotated, or a new endpoint's: shown on this one page, never again
    (`previous_until` None for a new endpoint, which has no previous secret)."""

    endpoint_id: uuid.UUID
    secret: str
    previous_until: datetime | None


def delivery_state(delivery: WebhookDelivery) -> str:
    """The state's English msgid (the page translates it and picks its colour by it)."""
    if delivery.delivered_at is not None:
        return N_("delivered")
    if delivery.gave_up_at is not None:
        return N_("given up")
    return N_("pending")


@router.get("/app/settings/webhooks", response_class=HTMLResponse)
@body_limit(BodyKind.NONE)
def webhooks_page(request: Request, user: CurrentUser, services: ServicesDep) -> HTMLResponse:
    return _page(request, user, services, None)


def _page(
    request: Request,
    user: CurrentUser,
    services: ServicesDep,
    rotated: Rotated | None,
    form: EndpointForm | None = None,
    status_code: int = 200,
) -> HTMLResponse:
    with services.db.read_session() as session:
        views = [
            EndpointView(
                endpoint, webhook_repo.recent_deliveries(session, endpoint.id, RECENT_DELIVERIES)
            )
            for endpoint in webhook_repo.live_endpoints(session, user.company_id)
        ]
    return render(
        request,
        "webhooks.html",
        user,
        status_code=status_code,
        active="settings",
        endpoints=views,
        state_of=delivery_state,
        sent_again=request.query_params.get("sent"),
        rotated=rotated,
        removed=request.query_params.get("removed") == "1",
        form=form or EndpointForm(),
        all_events=EVENTS,
    )


@router.post("/app/settings/webhooks", response_class=HTMLResponse)
@body_limit(BodyKind.FORM)
async def add_endpoint(request: Request, user: CsrfUser, services: ServicesDep) -> Response:
    """Register an endpoint (fields `url` and `events`, checked as the API checks them).
    The answer is the page itself with the new secret on it once, as after a rotation."""
    form = parse_endpoint_form(await request.form())
    if form.valid is None:
        return _page(request, user, services, None, form, status_code=422)
    box = SecretBox.for_webhooks(services.settings)
    try:
        with services.db.session() as session:
            endpoint, secret = webhook_repo.create_endpoint(
                session, user.company_id, form.valid.url, form.valid.events, box
            )
            created = Rotated(endpoint.id, secret, None)
            session.commit()
    except errors.TooManyWebhookEndpoints:
        form.errors["url"] = TOO_MANY
        return _page(request, user, services, None, form, status_code=409)
    return _page(request, user, services, created)


@router.post("/app/settings/webhooks/remove")
@body_limit(BodyKind.FORM)
def remove_endpoint(
    request: Request,
    user: CsrfUser,
    services: ServicesDep,
    endpoint: Annotated[str, Form(max_length=64)] = "",
) -> Response:
    """Remove the endpoint (its id in the form field `endpoint`), as DELETE
    /v1/webhook-endpoints/{id} does: its pending deliveries stop at once."""
    try:
        endpoint_id = uuid.UUID(endpoint)
    except ValueError:
        return not_found_page(request, user)
    with services.db.session() as session:
        if not webhook_repo.delete_endpoint(session, user.company_id, endpoint_id):
            return not_found_page(request, user)
        session.commit()
    return RedirectResponse("/app/settings/webhooks?removed=1", status_code=303)


@router.post("/app/settings/webhooks/rotate-secret", response_class=HTMLResponse)
@body_limit(BodyKind.FORM)
def rotate_secret(
    request: Request,
    user: CsrfUser,
    services: ServicesDep,
    endpoint: Annotated[str, Form(max_length=64)] = "",
) -> Response:
    """A new secret for the endpoint (its id in the form field `endpoint`); the previous
    one signs beside it for 24 h. The answer is the page itself, the secret on it once:
    a redirect would have to carry it in the URL."""
    try:
        endpoint_id = uuid.UUID(endpoint)
    except ValueError:
        return not_found_page(request, user)
    box = SecretBox.for_webhooks(services.settings)
    with services.db.session() as session:
        rotation = webhook_repo.rotate_secret(session, user.company_id, endpoint_id, box)
        if rotation is None:
            return not_found_page(request, user)
        rotated_endpoint, secret = rotation
        assert rotated_endpoint.previous_secret_until is not None
        rotated = Rotated(endpoint_id, secret, rotated_endpoint.previous_secret_until)
        session.commit()
    return _page(request, user, services, rotated)


@router.post("/app/settings/webhooks/send-again")
@body_limit(BodyKind.FORM)
def send_again(
    request: Request,
    user: CsrfUser,
    services: ServicesDep,
    delivery: Annotated[str, Form(max_length=64)] = "",
) -> Response:
    """Send the delivery (its webhook-id in the form field `delivery`) again."""
    message_id = delivery
    if not MESSAGE_ID.match(message_id):
        return not_found_page(request, user)
    with services.db.session() as session:
        if not webhook_repo.send_again(session, user.company_id, message_id):
            return not_found_page(request, user)
        session.commit()
    return RedirectResponse(f"/app/settings/webhooks?sent={message_id}", status_code=303)

"""The form that registers a webhook endpoint in the web application: checked by the very
model the API checks its body with (api/v1/webhooks.py, WebhookEndpointIn), so a URL the
one refuses the other refuses too; each refusal as a message the page translates."""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import ValidationError
from starlette.datastructures import FormData

from api.v1.webhooks import MAX_URL_LENGTH, WebhookEndpointIn
from api.web.i18n import N_
from storage.webhook_models import WebhookEvent

EVENTS = tuple(event.value for event in WebhookEvent)

URL_MISSING = N_("Enter the URL the events are sent to.")
URL_TOO_LONG = N_("The URL is longer than 2048 characters.")
URL_MALFORMED = N_(
    "The URL must start with http:// or https:// and name a host: no user name or"
    " password, no IPv6 address, no spaces."
)
NO_EVENTS = N_("Choose at least one event.")
TOO_MANY = N_("This company has 20 webhook endpoints, the most it may: remove one first.")


@dataclass
class EndpointForm:
    url: str = ""
    events: list[str] = field(default_factory=lambda: list(EVENTS))
    errors: dict[str, str] = field(default_factory=dict)
    valid: WebhookEndpointIn | None = None


def parse_endpoint_form(form: FormData) -> EndpointForm:
    """The submitted URL and events, checked as the API checks them."""
    url = str(form.get("url") or "").strip()
    events = [str(value) for value in form.getlist("events") if str(value) in EVENTS]
    parsed = EndpointForm(url[: MAX_URL_LENGTH + 1], events)
    try:
        parsed.valid = WebhookEndpointIn(url=url, events=[WebhookEvent(e) for e in events])
    except ValidationError as error:
        parsed.errors = _messages(error, url)
    return parsed


def _messages(error: ValidationError, url: str) -> dict[str, str]:
    messages: dict[str, str] = {}
    for problem in error.errors():
        name = str(problem["loc"][0]) if problem["loc"] else "url"
        if name == "url":
            messages["url"] = _url_message(url)
        else:
            messages["events"] = NO_EVENTS
    return messages


def _url_message(url: str) -> str:
    if not url:
        return URL_MISSING
    if len(url) > MAX_URL_LENGTH:
        return URL_TOO_LONG
    return URL_MALFORMED

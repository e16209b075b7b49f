"""Webhook endpoints over the API (issue 16), and the events in OpenAPI's `webhooks`.

A company registers URLs with its API key; each answer is problem+json on error like
everywhere. The secret that signs deliveries is shown once, in the 201 answer (and a new
one in the answer to a rotation); it is stored sealed (storage/secret_box.py)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, FastAPI, Path, Response, Security
from pydantic import Field, WithJsonSchema, field_serializer, field_validator
from starlette.exceptions import HTTPException as StarletteHTTPException

from api.body_limits import BodyKind, body_limit
from api.deps import CompanyIdDep, ReadSessionDep, ServicesDep, api_key_scheme
from api.errors import problem_responses
from storage import errors
from storage.repositories import webhooks as webhook_repo
from storage.resources import BatchOut, UploadOut, WireModel, utc_z
from storage.secret_box import SecretBox
from storage.webhook_models import WebhookEndpoint, WebhookEvent

router = APIRouter(prefix="/v1", tags=["webhooks"], dependencies=[Security(api_key_scheme)])

# http or https, a host name or an IPv4 address, an optional port (1-65535), then anything
# printable. No user information: nothing in a target URL is a credential; no IPv6
# literals (a name with an AAAA record reaches IPv6). The host is resolved and checked
# when a delivery is sent (flows/webhook_http.py), not here: DNS answers change.
_PORT = r"(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3})"
URL_PATTERN = rf"^https?://[A-Za-z0-9._~-]+(:{_PORT})?([/?#][!-~]*)?$"
MAX_URL_LENGTH = 2048

EndpointId = Annotated[str, Path(description="Webhook endpoint ID (uuid)")]


class WebhookEndpointIn(WireModel):
    url: str = Field(
        min_length=1,
        max_length=MAX_URL_LENGTH,
        pattern=URL_PATTERN,
        description="Where events are POSTed: an http or https URL without user"
        " information. In production, hosts that resolve to private, loopback or link-local"
        " addresses are refused when sending.",
    )
    events: list[WebhookEvent] = Field(
        min_length=1, max_length=16, description="The events to send (repeats are ignored)."
    )

    @field_validator("events")
    @classmethod
    def _once_each(cls, events: list[WebhookEvent]) -> list[WebhookEvent]:
        return list(dict.fromkeys(events))


class WebhookEndpointOut(WireModel):
    id: uuid.UUID
    url: str
    events: list[WebhookEvent]
    created_at: datetime

    @field_serializer("created_at")
    def _created_at(self, value: datetime) -> str:
        return utc_z(value)

    @classmethod
    def of(cls, endpoint: WebhookEndpoint) -> WebhookEndpointOut:
        return cls(
            id=endpoint.id,
            url=endpoint.url,
            events=[WebhookEvent(name) for name in endpoint.events],
            created_at=endpoint.created_at,
        )


class WebhookEndpointCreated(WebhookEndpointOut):
    secret: str = Field(
        description="`whsec_` + base64 of 32 random bytes: the key of the HMAC-SHA256 in"
        " `webhook-signature`. Shown only in this answer."
    )


class WebhookSecretRotated(WebhookEndpointCreated):
    previous_secret_expires_at: datetime = Field(
        description="Until then deliveries carry a second signature, under the previous"
        " secret (ISO 8601 UTC with `Z`)."
    )

    @field_serializer("previous_secret_expires_at")
    def _expires_at(self, value: datetime) -> str:
        return utc_z(value)


def _json(body: WebhookEndpointOut | list[WebhookEndpointOut], status_code: int) -> Response:
    if isinstance(body, list):
        content = "[" + ",".join(item.model_dump_json(by_alias=True) for item in body) + "]"
    else:
        content = body.model_dump_json(by_alias=True)
    return Response(content, status_code, media_type="application/json")


def _with_bad_request(responses: dict[int | str, dict[str, Any]]) -> dict[int | str, Any]:
    """FastAPI answers 400 (`bad_request`) to a body it cannot decode as text at all."""
    not_text = {**responses[422], "description": "The body is not UTF-8 JSON (`bad_request`)."}
    return {400: not_text, **responses}


@router.post(
    "/webhook-endpoints",
    status_code=201,
    response_model=WebhookEndpointCreated,
    operation_id="createWebhookEndpoint",
    responses=_with_bad_request(problem_responses(401, 409, 413, 422, 429, 500, 503)),
    summary="Register a webhook endpoint (at most 20 per company)",
)
@body_limit(BodyKind.JSON)
def create_webhook_endpoint(
    body: WebhookEndpointIn, services: ServicesDep, company_id: CompanyIdDep
) -> Response:
    box = SecretBox.for_webhooks(services.settings)
    with services.db.session() as session:
        endpoint, secret = webhook_repo.create_endpoint(
            session, company_id, body.url, body.events, box
        )
        session.commit()
        created = WebhookEndpointCreated(
            **WebhookEndpointOut.of(endpoint).model_dump(), secret=secret
        )
    return _json(created, 201)


@router.get(
    "/webhook-endpoints",
    response_model=list[WebhookEndpointOut],
    operation_id="listWebhookEndpoints",
    responses=problem_responses(401, 429, 500, 503),
    summary="List the company's webhook endpoints (without secrets)",
)
@body_limit(BodyKind.NONE)
def list_webhook_endpoints(company_id: CompanyIdDep, session: ReadSessionDep) -> Response:
    endpoints = webhook_repo.live_endpoints(session, company_id)
    return _json([WebhookEndpointOut.of(endpoint) for endpoint in endpoints], 200)


@body_limit(BodyKind.NONE)
def _only_get_and_post() -> None:
    """One route per method would answer a 405 naming only the first one's method."""
    raise StarletteHTTPException(405, "Method Not Allowed", headers={"Allow": "GET, POST"})


router.add_api_route(
    "/webhook-endpoints",
    _only_get_and_post,
    methods=["PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"],
    include_in_schema=False,
)


@router.delete(
    "/webhook-endpoints/{endpoint_id}",
    status_code=204,
    response_class=Response,
    operation_id="deleteWebhookEndpoint",
    responses=problem_responses(401, 404, 429, 500, 503),
    summary="Delete a webhook endpoint; its pending deliveries stop at once",
)
@body_limit(BodyKind.NONE)
def delete_webhook_endpoint(
    endpoint_id: EndpointId, services: ServicesDep, company_id: CompanyIdDep
) -> Response:
    with services.db.session() as session:
        if not webhook_repo.delete_endpoint(session, company_id, _parsed(endpoint_id)):
            raise errors.NotFound("webhook endpoint not found")
        session.commit()
    return Response(status_code=204)


@router.post(
    "/webhook-endpoints/{endpoint_id}/rotate-secret",
    response_model=WebhookSecretRotated,
    operation_id="rotateWebhookSecret",
    responses=problem_responses(401, 404, 429, 500, 503),
    summary="Give the endpoint a new secret; the previous one still signs for 24 h",
)
@body_limit(BodyKind.NONE)
def rotate_webhook_secret(
    endpoint_id: EndpointId, services: ServicesDep, company_id: CompanyIdDep
) -> Response:
    box = SecretBox.for_webhooks(services.settings)
    with services.db.session() as session:
        rotation = webhook_repo.rotate_secret(session, company_id, _parsed(endpoint_id), box)
        if rotation is None:
            raise errors.NotFound("webhook endpoint not found")
        endpoint, secret = rotation
        session.commit()
        assert endpoint.previous_secret_until is not None
        rotated = WebhookSecretRotated(
            **WebhookEndpointOut.of(endpoint).model_dump(),
            secret=secret,
            previous_secret_expires_at=endpoint.previous_secret_until,
        )
    return _json(rotated, 200)


def _parsed(endpoint_id: str) -> uuid.UUID:
    try:
        return uuid.UUID(endpoint_id)
    except ValueError:
        raise errors.NotFound("webhook endpoint not found") from None


# --- the events, for OpenAPI's `webhooks` section --------------------------------------


class _Event(WireModel):
    timestamp: str = Field(description="When the state changed: ISO 8601 UTC with `Z`.")


def _refers_to(model: type[UploadOut | BatchOut]) -> WithJsonSchema:
    """The resource's response schema itself (a model here would be documented as an
    input, a second component beside the one the GET endpoints answer with)."""
    return WithJsonSchema({"allOf": [{"$ref": f"#/components/schemas/{model.__name__}"}]})


UploadData = Annotated[dict[str, Any], _refers_to(UploadOut)]
BatchData = Annotated[dict[str, Any], _refers_to(BatchOut)]


class UploadCompletedEvent(_Event):
    type: Literal["upload.completed"]
    data: UploadData


class UploadFailedEvent(_Event):
    type: Literal["upload.failed"]
    data: UploadData


class UploadDeletedEvent(_Event):
    type: Literal["upload.deleted"]
    data: UploadData


class BatchCompletedEvent(_Event):
    type: Literal["batch.completed"]
    data: BatchData


EVENT_BODIES: dict[WebhookEvent, tuple[type[_Event], str]] = {
    WebhookEvent.UPLOAD_COMPLETED: (UploadCompletedEvent, "An upload is `completed`."),
    WebhookEvent.UPLOAD_FAILED: (UploadFailedEvent, "An upload is `failed`."),
    WebhookEvent.UPLOAD_DELETED: (
        UploadDeletedEvent,
        "An upload is `deleted`: its result was deleted in the web application.",
    ),
    WebhookEvent.BATCH_COMPLETED: (
        BatchCompletedEvent,
        "A batch reached `completed`, `completed_with_errors` or `failed`.",
    ),
}

DELIVERY_DESCRIPTION = """POSTed to each endpoint registered for the event, signed as the
Standard Webhooks specification says: headers `webhook-id` (the same on every retry),
`webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,` + base64 of the
HMAC-SHA256 of `{id}.{timestamp}.{body}` under the base64-decoded secret after `whsec_`;
for 24 h after a secret rotation a second one under the previous secret, space-separated).
Answer 2xx within 10 s; anything else is retried with the same `webhook-id` (first retry
within 10 s, then doubling up to 1 h, for at least 24 h). One upload's events arrive in
the order of its states. `data` is the resource exactly as the GET endpoint returns it at
the moment of the change."""


def install_webhook_docs(app: FastAPI) -> None:
    """Each event as an entry of the OpenAPI 3.1 `webhooks` section."""
    for event, (body, summary) in EVENT_BODIES.items():
        app.webhooks.add_api_route(
            event.value,
            _receiver(body),
            methods=["POST"],
            summary=summary,
            description=DELIVERY_DESCRIPTION,
            operation_id=f"on_{event.value.replace('.', '_')}",
            status_code=204,
            response_class=Response,
            responses={
                204: {"description": "Any 2xx answer acknowledges the delivery."},
                422: {"description": "Any answer other than 2xx is retried."},
            },
            tags=["webhooks"],
        )


def _receiver(body: type[_Event]) -> Callable[..., None]:
    def receive(event: _Event) -> None:
        """Documentation only: what a client's endpoint receives."""

    receive.__annotations__ = {"event": body, "return": None}
    return receive

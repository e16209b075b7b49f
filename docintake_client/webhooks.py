"""Webhook signature verification for a client's receiving endpoint.

docintake signs every delivery as the Standard Webhooks specification says: headers
`webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature`, a space-separated
list of `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` under the endpoint's
secret (`whsec_` + base64 of the key bytes). Verify the raw body, before parsing it:

    from docintake_client import verify_webhook, WebhookVerificationError

    try:
        event = verify_webhook(secret, request.headers, raw_body)
    except WebhookVerificationError:
        return 400
    if already_seen(request.headers["webhook-id"]):  # retries repeat the id
        return 204
    handle(event["type"], event["data"])  # data: the Upload or Upload batch resource
    return 204

Like the rest of this package it uses nothing from the server's packages.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from collections.abc import Mapping
from typing import Any

SECRET_PREFIX = "whsec_"
# How far a delivery's timestamp may be from this machine's clock (replayed old deliveries
# are refused); the specification's usual five minutes.
TOLERANCE_SECONDS = 300


class WebhookVerificationError(Exception):
    """The delivery is not signed with this secret, or its timestamp is out of range."""


def verify_webhook(
    secret: str,
    headers: Mapping[str, str],
    body: bytes | str,
    *,
    now: float | None = None,
    tolerance_seconds: int = TOLERANCE_SECONDS,
) -> dict[str, Any]:
    """The event (`type`, `timestamp`, `data`) when the delivery's signature is valid;
    raises WebhookVerificationError otherwise."""
    raw = body.encode() if isinstance(body, str) else body
    lowered = {name.lower(): value for name, value in headers.items()}
    message_id = lowered.get("webhook-id")
    timestamp = lowered.get("webhook-timestamp")
    signatures = lowered.get("webhook-signature")
    if not (message_id and timestamp and signatures):
        raise WebhookVerificationError("the webhook-id, -timestamp or -signature header is missing")
    _check_timestamp(timestamp, time.time() if now is None else now, tolerance_seconds)
    expected = _signature(_key(secret), message_id, timestamp, raw)
    for candidate in signatures.split():
        version, _, value = candidate.partition(",")
        if version == "v1" and hmac.compare_digest(_decoded(value), expected):
            event: dict[str, Any] = json.loads(raw)
            return event
    raise WebhookVerificationError("no signature matches")


def _key(secret: str) -> bytes:
    try:
        return base64.b64decode(secret.removeprefix(SECRET_PREFIX), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise WebhookVerificationError("the secret is not whsec_ + base64") from exc


def _decoded(value: str) -> bytes:
    try:
        return base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return b""


def _signature(key: bytes, message_id: str, timestamp: str, body: bytes) -> bytes:
    signed = f"{message_id}.{timestamp}.".encode() + body
    return hmac.new(key, signed, hashlib.sha256).digest()


def _check_timestamp(timestamp: str, now: float, tolerance: int) -> None:
    try:
        sent = int(timestamp)
    except ValueError:
        raise WebhookVerificationError("webhook-timestamp is not a number") from None
    if abs(now - sent) > tolerance:
        raise WebhookVerificationError("webhook-timestamp is too far from now")

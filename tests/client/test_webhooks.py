"""verify_webhook against the reference implementation, `standardwebhooks`: what it signs
we accept, what it refuses we refuse."""

from __future__ import annotations

import base64
import json
import secrets
import time
from datetime import UTC, datetime

import pytest
from standardwebhooks import Webhook

from docintake_client import WebhookVerificationError, verify_webhook

SECRET = "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()
BODY = json.dumps({"type": "upload.completed", "timestamp": "t", "data": {"id": "ü"}})


def _headers(secret: str = SECRET, body: str = BODY, at: float | None = None) -> dict[str, str]:
    sent = int(time.time() if at is None else at)
    signature = Webhook(secret).sign("msg_1", datetime.fromtimestamp(sent, UTC), body)
    return {"Webhook-Id": "msg_1", "Webhook-Timestamp": str(sent), "Webhook-Signature": signature}


def test_what_the_reference_signs_is_accepted() -> None:
    event = verify_webhook(SECRET, _headers(), BODY.encode())
    assert event == json.loads(BODY)
    assert verify_webhook(SECRET, _headers(), BODY) == event  # str bodies too


def test_a_rotated_secret_list_matches_any_v1_signature() -> None:
    other = "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()
    headers = _headers()
    headers["Webhook-Signature"] = (
        f"v2,abc {_headers(other)['Webhook-Signature']} " + headers["Webhook-Signature"]
    )
    assert verify_webhook(SECRET, headers, BODY)["type"] == "upload.completed"


@pytest.mark.parametrize(
    "tamper",
    [
        lambda h, b: (h, b.replace("completed", "failed")),
        lambda h, b: ({**h, "Webhook-Id": "msg_2"}, b),
        lambda h, b: ({**h, "Webhook-Timestamp": str(int(h["Webhook-Timestamp"]) + 1)}, b),
        lambda h, b: ({**h, "Webhook-Signature": "v1,!!!"}, b),
        lambda h, b: ({k: v for k, v in h.items() if k != "Webhook-Signature"}, b),
        lambda h, b: (_headers("whsec_" + base64.b64encode(b"x" * 32).decode()), b),
        lambda h, b: (_headers(at=time.time() - 600), b),
        lambda h, b: (_headers(at=time.time() + 600), b),
    ],
)
def test_what_the_reference_refuses_is_refused(tamper) -> None:  # type: ignore[no-untyped-def]
    headers, body = tamper(_headers(), BODY)
    with pytest.raises(WebhookVerificationError):
        verify_webhook(SECRET, headers, body)
    with pytest.raises(Exception, match=r"(?i)signature|header|timestamp|old|new"):
        Webhook(SECRET).verify(body, headers)

"""The HTTP call to eVatR or VIES: one JSON POST to the configured endpoint, within a
timeout, the answer read up to a size limit. The endpoint is the operator's setting,
not a user's input, so the webhooks' target policy (flows/webhook_http.py) is not
applied; redirects are not followed all the same (a 3xx is no answer)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from datetime import UTC, datetime
from typing import Any

from processors.vat_confirmation import (
    VatAnswer,
    VatQuery,
    VatService,
    evatr_request,
    read_evatr,
    read_vies,
    unanswered,
    vies_request,
)

MAX_ANSWER_BYTES = 64 * 1024
USER_AGENT = "docintake-vat-confirm/1.0"
# The published endpoints; a setting may point elsewhere (a proxy, the tests' server).
EVATR_ENDPOINT = "https://api.evatr.vies.bzst.de/app/v1/abfrage"
VIES_ENDPOINT = "https://ec.europa.eu/taxation_customs/vies/rest-api/check-vat-number"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirect())


def ask(
    service: VatService, endpoint: str, own_vat_id: str, query: VatQuery, timeout: float
) -> VatAnswer:
    """The service's answer; never raises for the service's trouble (it is an answer
    `unanswered`, with the reason, which is kept and not cached)."""
    now = datetime.now(UTC).isoformat(timespec="seconds")
    if service is VatService.EVATR:
        payload, read = evatr_request(own_vat_id, query), read_evatr
    else:
        payload, read = vies_request(own_vat_id, query), read_vies
    request = urllib.request.Request(
        endpoint or (EVATR_ENDPOINT if service is VatService.EVATR else VIES_ENDPOINT),
        data=json.dumps(payload).encode(),
        headers={
            "Content-Type": "application/json",
            "Accept": "application/json",
            "User-Agent": USER_AGENT,
        },
        method="POST",
    )
    try:
        body = _post(request, timeout)
    except (OSError, ValueError) as exc:
        return unanswered(service, query, f"no answer: {type(exc).__name__}", now)
    if not isinstance(body, dict):
        return unanswered(service, query, "no answer: not a JSON object", now)
    return read(query, body, now)


def _post(request: urllib.request.Request, timeout: float) -> Any:
    """The JSON body of the answer; eVatR and VIES also put their verdict in the body of
    a 4xx/5xx (an id not issued is 404 with `evatr-2001`)."""
    try:
        with _OPENER.open(request, timeout=timeout) as response:
            raw = response.read(MAX_ANSWER_BYTES + 1)
    except urllib.error.HTTPError as error:
        if 300 <= error.code < 400:
            raise
        raw = error.read(MAX_ANSWER_BYTES + 1)
    if len(raw) > MAX_ANSWER_BYTES:
        raise ValueError("answer too large")
    return json.loads(raw)

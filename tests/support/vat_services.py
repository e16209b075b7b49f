"""A local stand-in for the BZSt's eVatR REST interface and the EU's VIES REST
`check-vat-number`, built from their published descriptions: the request fields they
take, the comparison they make, and a recorded answer for each result code.

eVatR (`POST /app/v1/abfrage`): the requesting id must be German, the asked one present;
a registered id gets `evatr-0000` with `ergFirmenname`/`ergOrt`/`ergPlz`/`ergStrasse`
A (matches), B (does not), C (not asked), D (not given by the member state); without
firm name and place the answer is `evatr-0003` (valid, not qualified). Other ids answer
with the recorded status and its HTTP status. VIES (`POST /check-vat-number`): `valid`,
`requestIdentifier` when a requester is given, `trader…Match` VALID/INVALID/NOT_PROCESSED,
or `errorWrappers` (MS_UNAVAILABLE) with HTTP 200, as VIES does.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

ANSWERED_AT = "2026-11-28T17:40:00.000Z"

# Registered foreign VAT ids: name, city, postcode, street (D: the state gives none).
REGISTERED = {
    "ATU13585627": ("Alpen Handel GmbH", "Wien", "1010", "Ringstrasse 1"),
    "NL004495445B01": ("Delta Trading B.V.", "Rotterdam", "3011", None),
}
# Recorded answers of the other result codes: (HTTP status, body beyond id and time).
RECORDED: dict[str, tuple[int, dict[str, Any]]] = {
    "FR40303265045": (404, {"status": "evatr-2001"}),
    "IE6388047V": (200, {"status": "evatr-2002", "gueltigAb": "2027-01-01"}),
    "BE0411905847": (
        200,
        {"status": "evatr-2006", "gueltigAb": "2010-01-01", "gueltigBis": "2025-06-30"},
    ),
    "DK13585628": (503, {"status": "evatr-0011"}),
    "ESX2482300W": (200, {"status": "evatr-2008"}),
    "PL8567346215": (500, {"status": "evatr-2007"}),
}
VIES_UNAVAILABLE = {"PL"}


@dataclass
class VatServices:
    base_url: str
    requests: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    @property
    def evatr(self) -> str:
        return self.base_url + "/app/v1/abfrage"

    @property
    def vies(self) -> str:
        return self.base_url + "/check-vat-number"


def _compare(asked: str | None, registered: str | None) -> str:
    if not asked:
        return "C"
    if registered is None:
        return "D"
    return "A" if " ".join(asked.split()).casefold() == registered.casefold() else "B"


def evatr_answer(body: dict[str, Any], number: int) -> tuple[int, dict[str, Any]]:
    head = {"id": f"evatr-req-{number:04d}", "anfrageZeitpunkt": ANSWERED_AT}
    own, asked = str(body.get("anfragendeUstid", "")), str(body.get("angefragteUstid", ""))
    if not own or not asked:
        return 400, head | {"status": "evatr-0002"}
    if not own.startswith("DE") or len(own) != 11:
        return 400, head | {"status": "evatr-0004"}
    if asked.startswith("DE"):
        return 403, head | {"status": "evatr-0006"}
    if asked in RECORDED:
        code, recorded = RECORDED[asked]
        return code, head | recorded
    if asked not in REGISTERED:
        return 404, head | {"status": "evatr-2001"}
    if not body.get("firmenname") or not body.get("ort"):
        return 200, head | {"status": "evatr-0003"}
    name, city, postcode, street = REGISTERED[asked]
    return 200, head | {
        "status": "evatr-0000",
        "ergFirmenname": _compare(body.get("firmenname"), name),
        "ergOrt": _compare(body.get("ort"), city),
        "ergPlz": _compare(body.get("plz"), postcode),
        "ergStrasse": _compare(body.get("strasse"), street),
    }


def vies_answer(body: dict[str, Any], number: int) -> tuple[int, dict[str, Any]]:
    country, vat_number = str(body.get("countryCode", "")), str(body.get("vatNumber", ""))
    if country in VIES_UNAVAILABLE:
        return 200, {
            "actionSucceed": False,
            "errorWrappers": [{"error": "MS_UNAVAILABLE", "message": "unavailable"}],
        }
    registered = REGISTERED.get(country + vat_number)
    answer: dict[str, Any] = {
        "countryCode": country,
        "vatNumber": vat_number,
        "requestDate": ANSWERED_AT,
        "valid": registered is not None,
    }
    if body.get("requesterNumber"):
        answer["requestIdentifier"] = f"WAPIAAAA{number:08d}"
    if registered is not None:
        vies_codes = {"A": "VALID", "B": "INVALID", "C": "NOT_PROCESSED", "D": "NOT_PROCESSED"}
        for key, index in (("Name", 0), ("City", 1), ("PostalCode", 2), ("Street", 3)):
            asked = body.get(f"trader{key}")
            if asked:
                answer[f"trader{key}Match"] = vies_codes[_compare(asked, registered[index])]
    return 200, answer


@contextmanager
def vat_services() -> Iterator[VatServices]:
    """Both services on a free local port, for the test's duration."""
    state = VatServices("")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length) or b"{}")
            state.requests.append((self.path, body))
            number = len(state.requests)
            if self.path == "/app/v1/abfrage":
                code, answer = evatr_answer(body, number)
            elif self.path == "/check-vat-number":
                code, answer = vies_answer(body, number)
            else:
                code, answer = 404, {}
            payload = json.dumps(answer).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.base_url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join()

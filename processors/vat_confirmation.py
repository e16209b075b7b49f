"""The online confirmation of a foreign EU VAT id (issue 42, part 2, online half): what
is asked of the BZSt's eVatR interface or of the EU's VIES, and what its answer says.

Pure: the request bodies and the reading of an answer. The HTTP call is
flows/vat_confirm_http.py, where it runs flows/vat_confirm.py, the proof storage/.

eVatR: the BZSt's REST interface (`POST /app/v1/abfrage`, JSON: `anfragendeUstid`,
`angefragteUstid`, `firmenname`, `ort`, `plz`, `strasse`; answer: `id`,
`anfrageZeitpunkt`, `status` `evatr-NNNN`, `gueltigAb`, `gueltigBis`, `ergFirmenname`,
`ergOrt`, `ergPlz`, `ergStrasse` each A/B/C/D). It replaced the XML-RPC interface
(evatr.bff-online.de, `ErrorCode` 200, 201, ...) which the BZSt switched off on
2025-11-30. VIES: the Commission's REST `check-vat-number` (`countryCode`, `vatNumber`,
`requesterMemberStateCode`, `requesterNumber`, `traderName`, `traderStreet`,
`traderPostalCode`, `traderCity`; answer: `valid`, `requestDate`, `requestIdentifier`,
`trader…Match` VALID/INVALID/NOT_PROCESSED, or `errorWrappers` on failure).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

_SEPARATORS = re.compile(r"[^A-Za-z0-9]")


class VatService(StrEnum):
    OFF = "off"
    EVATR = "evatr"
    VIES = "vies"


class Confirmed(StrEnum):
    VALID = "valid"  # the id is issued and valid at the time asked
    INVALID = "invalid"  # not issued, not yet or no longer valid
    UNANSWERED = "unanswered"  # the service could not say (down, busy, refused the query)


# eVatR's comparison codes, VIES's mapped onto them.
MATCH_CODES = {"A": "match", "B": "mismatch", "C": "not_asked", "D": "not_given"}
_VIES_MATCH = {"VALID": "A", "INVALID": "B", "NOT_PROCESSED": "D"}

# eVatR status codes that confirm the id valid (0000; 0003 and 2008: valid, the
# qualified part not done) and those that say it is not (2001 not issued, 2002 valid
# only from gueltigAb, 2006 was valid gueltigAb..gueltigBis, 0005/0012/2003 malformed).
EVATR_VALID = frozenset({"evatr-0000", "evatr-0003", "evatr-2008"})
EVATR_INVALID = frozenset(
    {"evatr-2001", "evatr-2002", "evatr-2006", "evatr-0005", "evatr-0012", "evatr-2003"}
)


@dataclass(frozen=True, slots=True)
class VatQuery:
    """One question: the foreign VAT id and the details printed on the invoice."""

    vat_id: str
    name: str = ""
    city: str = ""
    postal_code: str = ""
    street: str = ""

    @property
    def compact_id(self) -> str:
        return _SEPARATORS.sub("", self.vat_id).upper()

    @property
    def key(self) -> str:
        """What makes two questions the same (the cache's key)."""
        parts = (self.compact_id, self.name, self.city, self.postal_code, self.street)
        return "|".join(" ".join(p.split()).casefold() for p in parts)[:500]


@dataclass(frozen=True, slots=True)
class VatAnswer:
    """What the service said: the proof. `status`: eVatR's `evatr-NNNN`, VIES's `valid`,
    `invalid` or its error (`MS_UNAVAILABLE`); `matches`: name, city, postcode, street
    each A/B/C/D; `requested_at` as the service stated it."""

    service: VatService
    vat_id: str
    confirmed: Confirmed
    status: str
    requested_at: str
    request_id: str | None
    matches: dict[str, str]
    valid_from: str | None = None
    valid_to: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "service": self.service.value,
            "vatId": self.vat_id,
            "confirmed": self.confirmed.value,
            "status": self.status,
            "requestedAt": self.requested_at,
            "requestId": self.request_id,
            "matches": dict(self.matches),
            "validFrom": self.valid_from,
            "validTo": self.valid_to,
        }


def evatr_request(own_vat_id: str, query: VatQuery) -> dict[str, str]:
    body = {
        "anfragendeUstid": _SEPARATORS.sub("", own_vat_id).upper(),
        "angefragteUstid": query.compact_id,
        "firmenname": query.name,
        "ort": query.city,
        "plz": query.postal_code,
        "strasse": query.street,
    }
    return {key: value for key, value in body.items() if value}


def read_evatr(query: VatQuery, body: dict[str, Any], fallback_time: str) -> VatAnswer:
    """eVatR answers with its status in the body whatever the HTTP status."""
    status = str(body.get("status") or "unknown")
    if status in EVATR_VALID:
        confirmed = Confirmed.VALID
    elif status in EVATR_INVALID:
        confirmed = Confirmed.INVALID
    else:
        confirmed = Confirmed.UNANSWERED
    fields = {"name": "ergFirmenname", "city": "ergOrt", "postalCode": "ergPlz"}
    fields["street"] = "ergStrasse"
    matches = {key: str(body[field]) for key, field in fields.items() if body.get(field)}
    return VatAnswer(
        VatService.EVATR,
        query.compact_id,
        confirmed,
        status,
        str(body.get("anfrageZeitpunkt") or fallback_time),
        _text(body.get("id")),
        matches,
        _text(body.get("gueltigAb")),
        _text(body.get("gueltigBis")),
    )


def vies_request(own_vat_id: str, query: VatQuery) -> dict[str, str]:
    own = _SEPARATORS.sub("", own_vat_id).upper()
    country, number = _vies_country(query.compact_id[:2]), query.compact_id[2:]
    body = {
        "countryCode": country,
        "vatNumber": number,
        "requesterMemberStateCode": _vies_country(own[:2]) if own else "",
        "requesterNumber": own[2:],
        "traderName": query.name,
        "traderStreet": query.street,
        "traderPostalCode": query.postal_code,
        "traderCity": query.city,
    }
    return {key: value for key, value in body.items() if value}


def read_vies(query: VatQuery, body: dict[str, Any], fallback_time: str) -> VatAnswer:
    errors = body.get("errorWrappers")
    if body.get("actionSucceed") is False or errors:
        first = errors[0] if isinstance(errors, list) and errors else {}
        code = str(first.get("error") or "error") if isinstance(first, dict) else "error"
        return VatAnswer(
            VatService.VIES, query.compact_id, Confirmed.UNANSWERED, code, fallback_time, None, {}
        )
    valid = body.get("valid") is True
    fields = {"name": "traderNameMatch", "city": "traderCityMatch"}
    fields |= {"postalCode": "traderPostalCodeMatch", "street": "traderStreetMatch"}
    asked = {"name": query.name, "city": query.city}
    asked |= {"postalCode": query.postal_code, "street": query.street}
    matches = {
        key: _VIES_MATCH.get(str(body.get(field)), "D") if asked[key] else "C"
        for key, field in fields.items()
    }
    return VatAnswer(
        VatService.VIES,
        query.compact_id,
        Confirmed.VALID if valid else Confirmed.INVALID,
        "valid" if valid else "invalid",
        str(body.get("requestDate") or fallback_time),
        _text(body.get("requestIdentifier")),
        matches if valid else {},
    )


def unanswered(service: VatService, query: VatQuery, reason: str, at: str) -> VatAnswer:
    """No usable answer came (no connection, time out, not JSON)."""
    return VatAnswer(service, query.compact_id, Confirmed.UNANSWERED, reason, at, None, {})


def _vies_country(prefix: str) -> str:
    return "EL" if prefix == "GR" else prefix


def _text(value: object) -> str | None:
    return None if value in (None, "") else str(value)

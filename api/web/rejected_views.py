"""What could be read of an e-invoice that failed validation (issue 43, part 4): the
parties, number, dates and amounts the reading process kept in the failure's details
(`error_details["invoice"]`, processors/einvoice/processor.py), shown on the failed
upload's page next to its findings, so the accountant knows whom to ask for a correction.
Lenient: a value that is not there is left out, and a failure stored before the facts
were kept shows none."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from api.web.i18n import N_


@dataclass(frozen=True)
class RejectedParty:
    name: str | None
    vat_id: str | None
    city: str | None


@dataclass(frozen=True)
class RejectedInvoice:
    seller: RejectedParty | None
    buyer: RejectedParty | None
    number: str | None
    issue_date: str | None
    due_date: str | None
    currency: str | None
    # (label msgid, amount) of the totals that were read, in the invoice's order.
    amounts: tuple[tuple[str, str], ...]


# The totals shown, with the labels the invoice page uses for them.
_AMOUNTS = (
    ("net", N_("Net total")),
    ("vat", N_("VAT")),
    ("gross", N_("Gross")),
    ("amountDue", N_("Amount due")),
)


def rejected_invoice(details: Mapping[str, Any] | None) -> RejectedInvoice | None:
    read = _mapping((details or {}).get("invoice"))
    if not read:
        return None
    totals = _mapping(read.get("totals"))
    return RejectedInvoice(
        seller=_party(read.get("seller")),
        buyer=_party(read.get("buyer")),
        number=_text(read.get("number")),
        issue_date=_text(read.get("issueDate")),
        due_date=_text(read.get("dueDate")),
        currency=_text(read.get("currency")),
        amounts=tuple(
            (label, str(totals[key])) for key, label in _AMOUNTS if totals.get(key) is not None
        ),
    )


def _party(value: Any) -> RejectedParty | None:
    party = _mapping(value)
    if not party:
        return None
    address = _mapping(party.get("address"))
    found = RejectedParty(
        _text(party.get("name")), _text(party.get("vatId")), _text(address.get("city"))
    )
    return found if any((found.name, found.vat_id, found.city)) else None


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _text(value: Any) -> str | None:
    return str(value) if value not in (None, "") else None

"""The rows of the tables of issue 42's checks (pure: a stored result in, rows out): an
invoice's mandatory items and VAT id checks (from its result, the online answers from
rows of their own), its bank account warnings and a statement's payment matches (rows
of their own, read with the result: storage/repositories/exports.py)."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from processors.results import InvoiceResult
from storage.repositories.exports import StoredResult

Row = dict[str, Any]
_SCALE = Decimal("0.000001")


def content_items(stored: StoredResult, result: InvoiceResult) -> list[Row]:
    check = result.content_check
    if check is None:
        return []
    return [
        {
            "result_id": str(stored.id),
            "position": position,
            "item": verdict.item.value,
            "status": verdict.status.value,
            "reference": verdict.reference,
            "regime": check.regime.value,
            "where_found": verdict.where,
        }
        for position, verdict in enumerate(check.items)
    ]


def vat_id_checks(stored: StoredResult, result: InvoiceResult) -> list[Row]:
    """Each identifier's offline check, with the latest online answer for the same party
    and VAT id where one was kept (only foreign EU VAT ids that passed offline are asked;
    docs/checks.md)."""
    online = {(c["party"], _compact(c.get("vatId"))): c for c in stored.vat_confirmations[::-1]}
    return [
        {
            "result_id": str(stored.id),
            "position": position,
            "party": check.party,
            "kind": check.kind.value,
            "value": check.value,
            "verdict": check.verdict.value,
            "country": check.country,
            **_online(online.get((check.party, _compact(check.value)))),
        }
        for position, check in enumerate(result.tax_ids or ())
    ]


def _compact(value: object) -> str:
    return "".join(ch for ch in str(value or "") if ch.isalnum()).upper()


def _online(answer: dict[str, Any] | None) -> Row:
    if answer is None:
        return dict.fromkeys(_ONLINE_COLUMNS)
    matches = answer.get("matches") or {}
    return {
        "online_service": answer.get("service"),
        "online_confirmed": answer.get("confirmed"),
        "online_status": answer.get("status"),
        "online_request_id": answer.get("requestId"),
        "online_requested_at": answer.get("requestedAt"),
        "online_matches": ", ".join(f"{key}={code}" for key, code in matches.items()) or None,
        "online_answered_at": _utc(answer.get("answeredAt")),
        "online_cached": answer.get("cached"),
    }


_ONLINE_COLUMNS = (
    "online_service",
    "online_confirmed",
    "online_status",
    "online_request_id",
    "online_requested_at",
    "online_matches",
    "online_answered_at",
    "online_cached",
)


def _utc(text: object) -> datetime | None:
    return datetime.fromisoformat(str(text).replace("Z", "+00:00")) if text else None


def account_warnings(stored: StoredResult) -> list[Row]:
    return [
        {
            "result_id": str(stored.id),
            "position": position,
            "warning_id": str(row.id),
            "iban": row.iban,
            "reason": row.reason,
            "supplier_key": row.supplier_key,
            "supplier_country": row.supplier_country,
            "known_ibans": list(row.known_ibans),
            "decision": row.decision,
            "decided_at": row.decided_at,
            "created_at": row.created_at,
        }
        for position, row in enumerate(stored.account_warnings)
    ]


def payment_matches(stored: StoredResult) -> list[Row]:
    return [
        {
            "match_id": str(row.id),
            "result_id": str(stored.id),
            "position": row.position,
            "invoice_result_id": str(row.invoice_result_id),
            "amount": Decimal(row.amount).quantize(_SCALE),
            "score": row.score,
            "reasons": list(row.reasons),
            "status": row.status,
            "decided_at": row.decided_at,
            "created_at": row.created_at,
        }
        for row in stored.payment_matches
    ]

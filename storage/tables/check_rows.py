"""The rows of the tables of issue 42's checks (pure: a stored result in, rows out): an
invoice's mandatory items (from its result), its bank account warnings and a
statement's payment matches (rows of their own, read with the result:
storage/repositories/exports.py)."""

from __future__ import annotations

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

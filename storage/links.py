"""Where a result opens in the web application (decisions.md: result URLs)."""

from __future__ import annotations

import uuid

RESULT_PATHS = {
    "invoice": "invoices",
    "other_document": "documents",
    "bank_statement": "bank-imports",
    "payment_file": "payment-files",
}


def result_url(base_url: str, result_type: str, result_id: uuid.UUID) -> str:
    return f"{base_url.rstrip('/')}/app/{RESULT_PATHS[result_type]}/{result_id}"

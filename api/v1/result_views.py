"""A stored result as the results API answers it: the version a client asks for, the
typed result's data in it (confirmations of a statement's transactions filled in), the
listing's cursor, and the ETag every answer carries."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import uuid
from collections.abc import Mapping
from typing import Any

from fastapi import Request, Response
from sqlalchemy.orm import Session

from api.v1.result_models import RESULT_MODELS
from processors.results import AnyResult, BankStatementResult, result_from_dict
from storage import errors
from storage.bank_account_models import AccountWarningRow
from storage.correction_fields import corrected
from storage.links import result_url
from storage.models import Result
from storage.payment_match_models import PaymentMatchRow
from storage.repositories import (
    bank_accounts,
    invoice_annotations,
    invoice_approvals,
    invoice_corrections,
    payment_matches,
    reclassifications,
    vat_confirmations,
)
from storage.repositories.reclassifications import Reclassification
from storage.resources import utc_z

SCHEMA_VERSIONS = (1,)
LATEST_VERSION = SCHEMA_VERSIONS[-1]
_JSON_RANGES = ("application/json", "application/*", "*/*")


def requested_version(accept: str | None) -> int:
    """The version named by `Accept: application/json; version=N`, else the latest."""
    for media_range in (accept or "").split(","):
        kind, *parameters = (part.strip() for part in media_range.split(";"))
        if kind.lower() not in _JSON_RANGES:
            continue
        for parameter in parameters:
            name, _, value = parameter.partition("=")
            if name.strip().lower() != "version":
                continue
            value = value.strip().strip('"')
            if value.isdigit() and int(value) in SCHEMA_VERSIONS:
                return int(value)
            served = ", ".join(str(v) for v in SCHEMA_VERSIONS)
            raise errors.NotAcceptable(f"version {value[:20]!r} is not served; served: {served}")
    return LATEST_VERSION


def typed_result(
    result: Result, confirmed: frozenset[int], data: dict[str, Any] | None = None
) -> AnyResult:
    """The stored data (or `data`: an invoice's, corrected) as its typed result; a
    statement's transactions say whether they were confirmed (confirmations are rows of
    their own)."""
    typed = result_from_dict(result.type, result.data if data is None else data)
    if isinstance(typed, BankStatementResult):
        transactions = tuple(
            dataclasses.replace(transaction, confirmed=position in confirmed)
            for position, transaction in enumerate(typed.transactions)
        )
        typed = dataclasses.replace(typed, transactions=transactions)
    return typed


def result_checks(session: Session, results: list[Result]) -> dict[uuid.UUID, dict[str, Any]]:
    """What the company's history adds to each result's answer: an invoice's approval,
    corrections, annotations, bank account warnings and online VAT id confirmations, the
    payments matched to an invoice or to a statement's transactions, how an invoice's or
    other document's uploads were reclassified."""
    ids = [r.id for r in results if r.type in ("invoice", "bank_statement")]
    warnings = bank_accounts.warnings_of_results(session, ids)
    matches = payment_matches.matches_of_results(session, ids)
    confirmations = vat_confirmations.confirmations_of_results(session, ids)
    approvals = invoice_approvals.approvals_of(session, ids)
    corrections = invoice_corrections.corrections_of(session, ids)
    annotations = invoice_annotations.annotations_of(session, ids)
    reclassified = reclassifications.of_results(
        session, [r.id for r in results if r.type in ("invoice", "other_document")]
    )
    found: dict[uuid.UUID, dict[str, Any]] = {}
    for result in results:
        extra: dict[str, Any] = {}
        if result.type == "invoice":
            approval = approvals.get(result.id)
            extra["approval"] = {"by": approval.by, "at": utc_z(approval.at)} if approval else None
            extra["corrections"] = [
                {"field": c.field, "old": c.old, "new": c.new, "by": c.by, "at": utc_z(c.at)}
                for c in corrections.get(result.id, [])
            ]
            extra["annotations"] = [
                {"text": a.text, "by": a.by, "at": utc_z(a.at)}
                for a in annotations.get(result.id, [])
            ]
            extra["accountWarnings"] = [_warning(w) for w in warnings.get(result.id, [])]
            extra["vatConfirmations"] = confirmations.get(result.id, [])
        if result.type in ("invoice", "bank_statement"):
            extra["paymentMatches"] = [_match(m) for m in matches.get(result.id, [])]
        if result.type in ("invoice", "other_document"):
            extra["reclassifications"] = [_step(r) for r in reclassified.get(result.id, [])]
        found[result.id] = extra
    return found


def _step(step: Reclassification) -> dict[str, Any]:
    return {
        "uploadId": step.upload_id,
        "fromType": step.from_type,
        "toType": step.to_type,
        "by": step.by,
        "at": utc_z(step.at),
    }


def _warning(row: AccountWarningRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "iban": row.iban,
        "reason": row.reason,
        "supplierCountry": row.supplier_country,
        "knownIbans": list(row.known_ibans),
        "decision": row.decision,
        "decidedAt": utc_z(row.decided_at) if row.decided_at else None,
        "createdAt": utc_z(row.created_at),
    }


def _match(row: PaymentMatchRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "statementId": row.statement_result_id,
        "position": row.position,
        "invoiceId": row.invoice_result_id,
        "amount": row.amount,
        "score": row.score,
        "reasons": list(row.reasons),
        "status": row.status,
        "decidedAt": utc_z(row.decided_at) if row.decided_at else None,
        "createdAt": utc_z(row.created_at),
    }


def _corrected(result: Result, checks: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """An invoice's data with the corrections of `checks` applied; None when none."""
    steps = (checks or {}).get("corrections") or []
    return corrected(result.data, ((c["field"], c["new"]) for c in steps)) if steps else None


def result_body(
    result: Result,
    confirmed: frozenset[int],
    base_url: str,
    version: int,
    checks: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The result in `version` (1 is the only one yet), with `checks` (result_checks)."""
    assert version in SCHEMA_VERSIONS
    model = RESULT_MODELS[result.type]
    envelope = {
        "type": result.type,
        "id": result.id,
        "schemaVersion": version,
        "changeSequence": result.change_seq,
        "createdAt": utc_z(result.created_at),
        "updatedAt": utc_z(result.updated_at or result.created_at),
        "url": result_url(base_url, result.type, result.id),
        "original": f"{base_url.rstrip('/')}/v1/results/{result.id}/original",
        "data": typed_result(result, confirmed, _corrected(result, checks)).to_dict(),
        **(checks or {}),
    }
    body: dict[str, Any] = model.model_validate(envelope).model_dump(
        mode="json", by_alias=True, exclude_unset=True
    )
    return body


def change_entry(
    result: Result,
    confirmed: frozenset[int],
    base_url: str,
    version: int,
    checks: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    deleted = result.deleted_at is not None
    return {
        "id": str(result.id),
        "type": result.type,
        "changeSequence": result.change_seq,
        "updatedAt": utc_z(result.updated_at or result.created_at),
        "deleted": deleted,
        "result": None if deleted else result_body(result, confirmed, base_url, version, checks),
    }


# --- the listing's cursor --------------------------------------------------------------

CURSOR_PATTERN = r"^[0-9]{1,18}$"


def cursor_of(change_seq: int) -> str:
    """The last change sequence seen (a string: clients pass it back as it is)."""
    return str(change_seq)


def change_seq_of(cursor: str | None) -> int:
    """The query parameter is checked against CURSOR_PATTERN before it comes here."""
    return int(cursor) if cursor else 0


# --- ETag ------------------------------------------------------------------------------


def json_answer(request: Request, body: dict[str, Any], version: int) -> Response:
    """The body as JSON with its ETag; 304 without a body when If-None-Match has it."""
    content = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    etag = f'"{hashlib.sha256(content).hexdigest()[:32]}-v{version}"'
    headers = {"ETag": etag, "Vary": "Accept, Authorization", "Cache-Control": "private"}
    if _matches(request.headers.get("if-none-match"), etag):
        return Response(status_code=304, headers=headers)
    return Response(content, media_type="application/json", headers=headers)


def _matches(if_none_match: str | None, etag: str) -> bool:
    if not if_none_match:
        return False
    tags = [tag.strip().removeprefix("W/") for tag in if_none_match.split(",")]
    return "*" in tags or etag in tags

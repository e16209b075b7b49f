"""A stored result as the results API answers it: the version a client asks for, the
typed result's data in it (confirmations of a statement's transactions filled in), the
listing's cursor, and the ETag every answer carries."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from typing import Any

from fastapi import Request, Response

from api.v1.result_models import RESULT_MODELS
from processors.results import AnyResult, BankStatementResult, result_from_dict
from storage import errors
from storage.links import result_url
from storage.models import Result
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


def typed_result(result: Result, confirmed: frozenset[int]) -> AnyResult:
    """The stored data as its typed result; a statement's transactions say whether they
    were confirmed (confirmations are rows of their own)."""
    typed = result_from_dict(result.type, result.data)
    if isinstance(typed, BankStatementResult):
        transactions = tuple(
            dataclasses.replace(transaction, confirmed=position in confirmed)
            for position, transaction in enumerate(typed.transactions)
        )
        typed = dataclasses.replace(typed, transactions=transactions)
    return typed


def result_body(
    result: Result, confirmed: frozenset[int], base_url: str, version: int
) -> dict[str, Any]:
    """The result in `version` (1 is the only one yet)."""
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
        "data": typed_result(result, confirmed).to_dict(),
    }
    body: dict[str, Any] = model.model_validate(envelope).model_dump(
        mode="json", by_alias=True, exclude_unset=True
    )
    return body


def change_entry(
    result: Result, confirmed: frozenset[int], base_url: str, version: int
) -> dict[str, Any]:
    deleted = result.deleted_at is not None
    return {
        "id": str(result.id),
        "type": result.type,
        "changeSequence": result.change_seq,
        "updatedAt": utc_z(result.updated_at or result.created_at),
        "deleted": deleted,
        "result": None if deleted else result_body(result, confirmed, base_url, version),
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

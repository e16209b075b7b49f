"""The results API: what was read, as data (docs/results_api.md). A result, its
original file, and the company's results in change order for a client's sync."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Path, Query, Request, Response, Security

from api.body_limits import BodyKind, body_limit
from api.deps import CompanyIdDep, ReadSessionDep, ServicesDep, api_key_scheme
from api.errors import problem_responses
from api.v1.result_models import ResultOut, ResultPage
from api.v1.result_views import (
    CURSOR_PATTERN,
    change_entry,
    change_seq_of,
    cursor_of,
    json_answer,
    requested_version,
    result_body,
    result_checks,
)
from api.web.downloads import original_response
from storage import errors
from storage.repositories import results as result_repo
from storage.repositories import web_results

router = APIRouter(prefix="/v1", tags=["results"], dependencies=[Security(api_key_scheme)])

ResultId = Annotated[str, Path(description="Result ID (uuid), as an upload's `result.id`.")]
IfNoneMatch = Annotated[
    str | None,
    Header(description="An ETag of an earlier answer: 304 when nothing changed since."),
]
ResultTypeName = Literal["invoice", "bank_statement", "payment_file", "other_document"]
MAX_PAGE = 200

_VERSIONED = """Versioned by `Accept: application/json; version=N` (default: the latest,
1); a version not served is 406. Answers carry an `ETag` and honor `If-None-Match`."""

_NOT_MODIFIED: dict[int | str, dict[str, Any]] = {
    304: {"description": "`If-None-Match` holds the current ETag; no body."}
}


RFC3339 = (
    r"^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?"
    r"([Zz]|[+-][0-9]{2}:[0-9]{2})$"
)


def _instant(text: str) -> datetime:
    # A leap second (:60) is valid RFC 3339 that Python does not read: the second before.
    cleaned = re.sub(r"(?<=:[0-9]{2}:)60", "59", text.upper())
    try:
        return datetime.fromisoformat(cleaned).astimezone(UTC)
    except ValueError:
        raise errors.ValidationFailed("updatedSince is not an RFC 3339 date-time") from None


def _result_id(raw: str) -> uuid.UUID:
    try:
        return uuid.UUID(raw)
    except ValueError:
        raise errors.NotFound("result not found") from None


@router.get(
    "/results",
    response_model=ResultPage,
    operation_id="listResults",
    responses={**_NOT_MODIFIED, **problem_responses(401, 406, 422, 429, 500, 503)},
    summary="List the company's results in change order, for a sync",
    description="Results (deleted ones too, without data) ordered by `changeSequence`,"
    " which grows with every change: a result that changes again comes again, later."
    " Follow `nextCursor` until `hasMore` is false; keep it to ask for later changes."
    " Nothing is skipped or repeated while results change between pages.\n\n" + _VERSIONED,
)
@body_limit(BodyKind.NONE)
def list_results(
    request: Request,
    services: ServicesDep,
    session: ReadSessionDep,
    company_id: CompanyIdDep,
    type: Annotated[ResultTypeName | None, Query(description="Only this result type.")] = None,
    updatedSince: Annotated[
        str | None,
        Query(
            pattern=RFC3339,
            description="Only results changed at or after (RFC 3339, e.g. 2026-01-31T00:00:00Z).",
            json_schema_extra={"format": "date-time"},
        ),
    ] = None,
    cursor: Annotated[
        str | None, Query(pattern=CURSOR_PATTERN, description="A `nextCursor` as it came.")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 50,
    if_none_match: IfNoneMatch = None,
) -> Response:
    version = requested_version(request.headers.get("accept"))
    after = change_seq_of(cursor)
    since = _instant(updatedSince) if updatedSince else None
    found = result_repo.changed_results(
        session, company_id, after, limit + 1, result_type=type, since=since
    )
    page = found[:limit]
    confirmed = result_repo.confirmations_of(
        session, [r.id for r in page if r.type == "bank_statement"]
    )
    base_url = services.settings.public_base_url
    checks = result_checks(session, [r for r in page if r.deleted_at is None])
    body: dict[str, Any] = {
        "items": [
            change_entry(r, frozenset(confirmed.get(r.id, {})), base_url, version, checks.get(r.id))
            for r in page
        ],
        "nextCursor": cursor_of(page[-1].change_seq if page else after),
        "hasMore": len(found) > limit,
    }
    return json_answer(request, body, version)


@router.get(
    "/results/{result_id}",
    response_model=ResultOut,
    operation_id="getResult",
    responses={**_NOT_MODIFIED, **problem_responses(401, 404, 406, 429, 500, 503)},
    summary="Get one result as data",
    description="One schema per result type, told apart by `type`. Amounts are decimal"
    " strings, dates ISO 8601; an invoice's fields name their EN 16931 business terms.\n\n"
    + _VERSIONED,
)
@body_limit(BodyKind.NONE)
def get_result(
    result_id: ResultId,
    request: Request,
    services: ServicesDep,
    session: ReadSessionDep,
    company_id: CompanyIdDep,
    if_none_match: IfNoneMatch = None,
) -> Response:
    version = requested_version(request.headers.get("accept"))
    result = web_results.live_result(session, company_id, _result_id(result_id))
    if result is None:
        raise errors.NotFound("result not found")
    confirmed = frozenset(result_repo.confirmations_of(session, [result.id]).get(result.id, {}))
    checks = result_checks(session, [result]).get(result.id)
    body = result_body(result, confirmed, services.settings.public_base_url, version, checks)
    return json_answer(request, body, version)


@router.get(
    "/results/{result_id}/original",
    operation_id="getResultOriginal",
    response_class=Response,
    responses={
        200: {
            "description": "The file as uploaded, its type told by its content, its name"
            " in `Content-Disposition`.",
            "content": {
                media: {"schema": {"type": "string", "format": "binary"}}
                for media in ("application/pdf", "application/xml", "application/octet-stream")
            },
        },
        **problem_responses(401, 404, 429, 500, 503),
    },
    summary="Download the original file of a result",
)
@body_limit(BodyKind.NONE)
def get_result_original(
    result_id: ResultId, services: ServicesDep, session: ReadSessionDep, company_id: CompanyIdDep
) -> Response:
    result = web_results.live_result(session, company_id, _result_id(result_id))
    uploads = web_results.uploads_of_result(session, result.id) if result else []
    response = original_response(services.store, uploads)
    if response is None:
        raise errors.NotFound("result not found, or its file no longer stored")
    return response

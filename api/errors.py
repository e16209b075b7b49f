"""One place renders every request error as RFC 9457 application/problem+json."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException

from storage.errors import DomainError, ServiceUnavailable

log = logging.getLogger(__name__)

PROBLEM_MEDIA_TYPE = "application/problem+json"
PROBLEM_BASE = "https://docintake.dev/problems/"

_HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    413: "request_too_large",
    415: "unsupported_media_type",
    422: "validation_error",
    429: "rate_limited",
}


def problem_response(
    status: int,
    code: str,
    title: str,
    detail: str,
    headers: Mapping[str, str] | None = None,
    errors: list[dict[str, Any]] | None = None,
) -> JSONResponse:
    body: dict[str, Any] = {
        "type": PROBLEM_BASE + code,
        "title": title,
        "status": status,
        "detail": detail,
        "code": code,
    }
    if errors is not None:
        body["errors"] = errors
    return JSONResponse(body, status_code=status, headers=headers, media_type=PROBLEM_MEDIA_TYPE)


def problem_of(exc: DomainError | DBAPIError) -> JSONResponse:
    """A domain error as its own problem; a database error as `service_unavailable`."""
    if isinstance(exc, DBAPIError):
        log.warning("database error: %s", exc)
        exc = ServiceUnavailable("the database is not available; nothing was stored")
    return problem_response(exc.status, exc.code, exc.title, exc.detail, exc.headers)


async def _domain_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, DomainError)
    return problem_of(exc)


async def _validation_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = [
        {"loc": list(error.get("loc", ())), "msg": error.get("msg", ""), "type": error.get("type")}
        for error in exc.errors()
    ]
    detail = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in errors)
    return problem_response(422, "validation_error", "Invalid request", detail, errors=errors)


async def _http_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code = _HTTP_CODES.get(exc.status_code, "http_error")
    title = code.replace("_", " ").capitalize()
    return problem_response(exc.status_code, code, title, str(exc.detail), exc.headers)


async def _database_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, DBAPIError)
    return problem_of(exc)


async def _unexpected_error(_: Request, exc: Exception) -> JSONResponse:
    log.exception("unexpected error", exc_info=exc)
    return problem_response(
        500, "internal_error", "Internal server error", "An unexpected error occurred."
    )


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(DomainError, _domain_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(DBAPIError, _database_error)
    app.add_exception_handler(Exception, _unexpected_error)


def problem_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI entries for the problem answers an operation can give."""
    descriptions = {
        401: "Missing, malformed, unknown or revoked API key (`unauthorized`).",
        404: "Unknown id, malformed uuid, or a resource of another company (`not_found`).",
        409: "externalId already used with another file or documentType (`external_id_conflict`).",
        413: "The request body passes the operation's cap (`request_too_large`), refused as"
        " it streams in: 64 KiB of JSON, four times the file limit for an upload.",
        422: "Invalid request (`validation_error`, and for batches `invalid_archive`,"
        " `archive_too_many_files`, `archive_too_large`).",
        429: "Request rate above the limit (`rate_limited`); see Retry-After.",
        500: "Unexpected error (`internal_error`); no details are leaked.",
        503: "Database or object store unavailable (`service_unavailable`); see Retry-After.",
    }
    return {
        status: {
            "description": descriptions[status],
            "content": {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}},
        }
        for status in statuses
    }

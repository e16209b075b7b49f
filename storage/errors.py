"""The domain error tree. Each error carries its HTTP status and problem `code`;
api/errors.py renders every one of them as RFC 9457 problem+json."""

from __future__ import annotations


class DomainError(Exception):
    status: int = 500
    code: str = "internal_error"
    title: str = "Internal server error"
    headers: dict[str, str] | None = None

    def __init__(self, detail: str | None = None) -> None:
        super().__init__(detail or self.title)
        self.detail = detail or self.title


class Unauthorized(DomainError):
    status, code, title = 401, "unauthorized", "Unauthorized"
    headers = {"WWW-Authenticate": "Bearer"}  # noqa: RUF012


class NotFound(DomainError):
    status, code, title = 404, "not_found", "Not found"


class NotAcceptable(DomainError):
    status, code, title = 406, "not_acceptable", "Version not served"


class ExternalIdConflict(DomainError):
    status, code, title = 409, "external_id_conflict", "externalId already used"


class RequestTooLarge(DomainError):
    status, code, title = 413, "request_too_large", "Request body too large"


class ValidationFailed(DomainError):
    status, code, title = 422, "validation_error", "Invalid request"


class InvalidArchive(DomainError):
    status, code, title = 422, "invalid_archive", "Invalid ZIP archive"


class ArchiveTooManyFiles(DomainError):
    status, code, title = 422, "archive_too_many_files", "Too many files in the archive"


class ArchiveTooLarge(DomainError):
    status, code, title = 422, "archive_too_large", "Archive too large when unpacked"


class RateLimited(DomainError):
    status, code, title = 429, "rate_limited", "Too many requests"

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"Request rate above the limit; retry in {retry_after} s.")
        self.headers = {"Retry-After": str(retry_after)}


class ServiceUnavailable(DomainError):
    status, code, title = 503, "service_unavailable", "Service unavailable"
    headers = {"Retry-After": "5"}  # noqa: RUF012


class InvalidTransition(DomainError):
    status, code, title = 409, "invalid_transition", "Invalid status transition"


class TooManyWebhookEndpoints(DomainError):
    status, code, title = 409, "too_many_webhook_endpoints", "Too many webhook endpoints"

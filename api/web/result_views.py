"""View models shared by the result pages: plain functions and frozen dataclasses that
turn stored rows and `result.data` into what the templates show. No SQL, no HTTP.

Result data comes from processors that evolve, so every reader here is lenient: a
missing or oddly typed field shows as empty, never as an error page.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from processors.base import FailureCode
from storage.links import RESULT_PATHS
from storage.models import Result, StatusChange, Upload
from storage.states import UploadStatus

LEVEL_ORDER = ("fatal", "error", "warning", "information")
EXCERPT_CHARS = 2000

DOCUMENT_TYPE_LABELS = {
    "auto": "Automatic",
    "supplier_invoice": "Supplier invoice",
    "customer_invoice": "Customer invoice",
    "bank_statement": "Bank statement",
    "other_document": "Other document",
}
RESULT_TYPE_LABELS = {
    "invoice": "Invoice",
    "other_document": "Other document",
    "bank_statement": "Bank statement",
    "payment_file": "Payment file",
}


# --- small readers ---------------------------------------------------------------------


def mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def items(value: Any) -> list[Mapping[str, Any]]:
    return [item for item in value if isinstance(item, Mapping)] if isinstance(value, list) else []


def text(value: Any) -> str | None:
    """A scalar as text; None for missing, empty and structured values."""
    if value is None or isinstance(value, Mapping | list | bool):
        return None
    shown = str(value).strip()
    return shown or None


def grouped_iban(value: Any) -> str | None:
    """IBANs in groups of four, as printed on paper (display only)."""
    raw = text(value)
    if raw is None:
        return None
    compact = re.sub(r"\s", "", raw).upper()
    return " ".join(compact[index : index + 4] for index in range(0, len(compact), 4))


def humanize(key: str) -> str:
    """`rootElement` and `page_count` read as "Root element" and "Page count"."""
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", key).replace("_", " ").strip().lower()
    return words[:1].upper() + words[1:]


def result_path(result_type: str, result_id: uuid.UUID) -> str:
    return f"/app/{RESULT_PATHS[result_type]}/{result_id}"


# --- validation findings ---------------------------------------------------------------


@dataclass(frozen=True)
class FindingView:
    rule_id: str
    level: str
    text: str
    location: str | None
    stage: str | None

    @property
    def short_location(self) -> str | None:
        return short_location(self.location)


_NAMESPACE_TEST = re.compile(r"\[namespace-uri\(\)\s*=\s*'[^']*'\]")
_EXPANDED_NAME = re.compile(r"Q\{[^}]*\}")


def short_location(location: str | None) -> str | None:
    """Validator locations name every step with its namespace
    (`/*:Invoice[namespace-uri()='urn:...'][1]`); the page shows `/Invoice[1]`."""
    if location is None:
        return None
    compact = _NAMESPACE_TEST.sub("", location)
    compact = _EXPANDED_NAME.sub("", compact)
    return compact.replace("*:", "")


def findings_of(raw: Any) -> list[FindingView]:
    """Findings as stored by the e-invoice processor (`id`) or written as `rule_id`,
    the failing ones first, each level in the order the validator reported them."""
    found = [
        FindingView(
            rule_id=text(item.get("id")) or text(item.get("rule_id")) or "",
            level=(text(item.get("level")) or "information").lower(),
            text=text(item.get("text")) or "",
            location=text(item.get("location")),
            stage=text(item.get("stage")),
        )
        for item in items(raw)
    ]

    def rank(finding: FindingView) -> int:
        level = finding.level
        return LEVEL_ORDER.index(level) if level in LEVEL_ORDER else len(LEVEL_ORDER)

    return sorted(found, key=rank)


def level_counts(findings: Iterable[FindingView]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for finding in findings:
        counts[finding.level] = counts.get(finding.level, 0) + 1
    return counts


# --- the header every result page shares -----------------------------------------------


@dataclass(frozen=True)
class UploadLink:
    id: uuid.UUID
    file_name: str
    created_at: datetime


@dataclass(frozen=True)
class ResultHeader:
    id: uuid.UUID
    type: str
    type_label: str
    created_at: datetime
    file_name: str
    uploads: tuple[UploadLink, ...]
    original_url: str | None
    delete_url: str


def result_header(result: Result, uploads: list[Upload]) -> ResultHeader:
    """`uploads` are those pointing to the result, the first one first: its file name
    names the result, and its stored bytes are the original."""
    links = tuple(UploadLink(u.id, u.file_name, u.created_at) for u in uploads)
    has_original = any(u.object_key for u in uploads)
    return ResultHeader(
        id=result.id,
        type=result.type,
        type_label=RESULT_TYPE_LABELS.get(result.type, result.type),
        created_at=result.created_at,
        file_name=uploads[0].file_name if uploads else "",
        uploads=links,
        original_url=f"/app/results/{result.id}/original" if has_original else None,
        delete_url=f"/app/results/{result.id}/delete",
    )


# --- the upload page -------------------------------------------------------------------


@dataclass(frozen=True)
class HistoryRow:
    from_status: str | None
    to_status: str
    at: datetime


@dataclass(frozen=True)
class UploadView:
    id: uuid.UUID
    file_name: str
    document_type: str
    document_type_label: str
    status: str
    external_id: str | None
    batch_id: uuid.UUID | None
    size_bytes: int
    sha256: str
    created_at: datetime
    updated_at: datetime
    error_code: str | None
    error_message: str | None
    findings: tuple[FindingView, ...]
    history: tuple[HistoryRow, ...]
    result_url: str | None
    result_type_label: str | None
    can_retry: bool
    retry_url: str
    active: bool  # still queued or processing: the page refreshes itself


def upload_view(upload: Upload, history: list[StatusChange], result: Result | None) -> UploadView:
    live = result is not None and result.deleted_at is None
    return UploadView(
        id=upload.id,
        file_name=upload.file_name,
        document_type=upload.document_type,
        document_type_label=DOCUMENT_TYPE_LABELS.get(upload.document_type, upload.document_type),
        status=upload.status,
        external_id=upload.external_id,
        batch_id=upload.batch_id,
        size_bytes=upload.size_bytes,
        sha256=upload.sha256,
        created_at=upload.created_at,
        updated_at=upload.updated_at,
        error_code=upload.error_code,
        error_message=upload.error_message,
        findings=tuple(findings_of(mapping(upload.error_details).get("findings"))),
        history=tuple(HistoryRow(h.from_status, h.to_status, h.at) for h in history),
        result_url=result_path(result.type, result.id) if live and result else None,
        result_type_label=RESULT_TYPE_LABELS.get(result.type) if live and result else None,
        can_retry=is_retryable(upload),
        retry_url=f"/app/uploads/{upload.id}/retry",
        active=upload.status in (UploadStatus.QUEUED, UploadStatus.PROCESSING),
    )


def is_retryable(upload: Upload) -> bool:
    return (
        upload.status == UploadStatus.FAILED and upload.error_code == FailureCode.PROCESSING_FAILED
    )


# --- other documents -------------------------------------------------------------------


@dataclass(frozen=True)
class Detail:
    label: str
    value: str


@dataclass(frozen=True)
class DocumentView:
    kind: str | None
    size_bytes: int | None
    page_count: int | None
    title: str | None
    reason: str | None
    details: tuple[Detail, ...]
    excerpt: str | None
    excerpt_truncated: bool
    payment_file: Mapping[str, Any] | None  # a SEPA file filed as a document


# Keys shown in their own place on the page, not among the details.
_DOCUMENT_KEYS = frozenset(
    {"kind", "size", "page_count", "pageCount", "title", "reason", "paymentFile"}
)
_EXCERPT_KEYS = ("textExcerpt", "text_excerpt", "excerpt", "text", "ocrText", "ocr_text")


def document_view(data: Mapping[str, Any]) -> DocumentView:
    excerpt_key = next((key for key in _EXCERPT_KEYS if text(data.get(key))), None)
    excerpt = text(data.get(excerpt_key)) if excerpt_key else None
    skipped = _DOCUMENT_KEYS | set(_EXCERPT_KEYS)
    payment_file = data.get("paymentFile")
    return DocumentView(
        kind=text(data.get("kind")),
        size_bytes=_int(data.get("size")),
        page_count=_int(data.get("page_count", data.get("pageCount"))),
        title=text(data.get("title")),
        reason=text(data.get("reason")),
        details=tuple(_details(data, skipped)),
        excerpt=excerpt[:EXCERPT_CHARS] if excerpt else None,
        excerpt_truncated=bool(excerpt and len(excerpt) > EXCERPT_CHARS),
        payment_file=payment_file if isinstance(payment_file, Mapping) else None,
    )


def _details(data: Mapping[str, Any], skipped: frozenset[str] | set[str]) -> list[Detail]:
    """Whatever else the processor recorded, one level of nesting flattened."""
    shown: list[Detail] = []
    for key, value in data.items():
        if key in skipped:
            continue
        if isinstance(value, Mapping):
            shown.extend(
                Detail(f"{humanize(key)}: {humanize(str(inner))}", str(text(v)))
                for inner, v in value.items()
                if text(v) is not None
            )
        elif isinstance(value, list):
            scalars = [text(v) for v in value if text(v) is not None]
            if scalars:
                shown.append(Detail(humanize(key), ", ".join(str(s) for s in scalars)))
        elif text(value) is not None:
            shown.append(Detail(humanize(key), str(text(value))))
    return shown


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return None

"""View models shared by the result pages: plain functions and frozen dataclasses that
turn stored rows and typed results (processors/results/, read from `result.data` once
per page) into what the templates show. No SQL, no HTTP.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from api.web.finding_groups import FindingGroup, group_by_term
from api.web.i18n import N_, Message
from api.web.labels import DOCUMENT_TYPE_LABELS, RESULT_TYPE_LABELS
from api.web.processor_texts import FailureText, failure_text, xml_position
from api.web.rejected_views import RejectedInvoice, rejected_invoice
from processors.base import DocumentType, FailureCode, ResultType
from processors.einvoice.business_terms import explain
from processors.results.findings import Finding
from processors.results.other_document import FiledPdf, FiledXml, NonInvoiceXml, OtherDocument
from processors.results.payment_file import PaymentFile
from storage.links import RESULT_PATHS
from storage.models import Result, StatusChange, Upload
from storage.states import HistoryEvent, UploadStatus

LEVEL_ORDER = ("fatal", "error", "warning", "information")

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
    business_terms: tuple[str, ...] = ()
    explanation_en: str = ""
    explanation_de: str = ""

    @property
    def short_location(self) -> str | None:
        return short_location(self.location)

    @property
    def shown_location(self) -> str | Message | None:
        """`line 89, column 0` in the page's language, a path as it is."""
        return xml_position(self.short_location)


def explained_view(view: FindingView) -> FindingView:
    """The view with its business terms and explanations; findings stored before they
    were kept with the finding get them from the data now."""
    if view.explanation_en:
        return view
    found = explain(view.rule_id, view.text, view.location)
    return replace(
        view,
        business_terms=found.business_terms,
        explanation_en=found.en,
        explanation_de=found.de,
    )


def findings_by_term(findings: Iterable[FindingView]) -> tuple[FindingGroup[FindingView], ...]:
    return tuple(group_by_term(findings))


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
    """Findings as a failure's details store them (`id`, or `rule_id`), the failing
    ones first, each level in the order the validator reported them."""
    return _failing_first(
        explained_view(
            FindingView(
                rule_id=text(item.get("id")) or text(item.get("rule_id")) or "",
                level=(text(item.get("level")) or "information").lower(),
                text=text(item.get("text")) or "",
                location=text(item.get("location")),
                stage=text(item.get("stage")),
                business_terms=tuple(
                    term for term in item.get("businessTerms") or () if isinstance(term, str)
                ),
                explanation_en=text(item.get("explanationEn")) or "",
                explanation_de=text(item.get("explanationDe")) or "",
            )
        )
        for item in items(raw)
    )


def finding_views(findings: Iterable[Finding]) -> list[FindingView]:
    """A result's findings, ordered as `findings_of` orders them."""
    return _failing_first(
        explained_view(
            FindingView(
                rule_id=text(finding.rule_id) or "",
                level=finding.level.value,
                text=text(finding.text) or "",
                location=text(finding.location),
                stage=text(finding.stage),
                business_terms=finding.business_terms,
                explanation_en=finding.explanation_en,
                explanation_de=finding.explanation_de,
            )
        )
        for finding in findings
    )


def _failing_first(found: Iterable[FindingView]) -> list[FindingView]:
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
        type_label=RESULT_TYPE_LABELS[ResultType(result.type)],
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
    event: str | None = None  # HistoryEvent: `purged`


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
    error_message: str | None  # the processor's English words, behind a toggle
    failure: FailureText | None  # the catalogue's words for the error code
    findings: tuple[FindingView, ...]
    # A rejected e-invoice's parties, number, dates and amounts, where its XML read.
    rejected: RejectedInvoice | None
    history: tuple[HistoryRow, ...]
    # When the stored file and the result data were removed (docs/retention.md).
    purged_at: datetime | None
    result_url: str | None
    result_type_label: str | None
    can_retry: bool
    retry_url: str
    original_url: str | None  # a failed upload's stored file
    delete_url: str | None  # a failed upload can be deleted
    active: bool  # still queued or processing: the page refreshes itself

    @property
    def finding_groups(self) -> tuple[FindingGroup[FindingView], ...]:
        return findings_by_term(self.findings)


def upload_view(upload: Upload, history: list[StatusChange], result: Result | None) -> UploadView:
    live = result is not None and result.deleted_at is None
    failed = upload.status == UploadStatus.FAILED
    return UploadView(
        id=upload.id,
        file_name=upload.file_name,
        document_type=upload.document_type,
        document_type_label=DOCUMENT_TYPE_LABELS[DocumentType(upload.document_type)],
        status=upload.status,
        external_id=upload.external_id,
        batch_id=upload.batch_id,
        size_bytes=upload.size_bytes,
        sha256=upload.sha256,
        created_at=upload.created_at,
        updated_at=upload.updated_at,
        error_code=upload.error_code,
        error_message=upload.error_message,
        failure=failure_text(upload.error_code) if upload.error_code else None,
        findings=tuple(findings_of(mapping(upload.error_details).get("findings"))),
        rejected=rejected_invoice(upload.error_details) if failed else None,
        history=tuple(HistoryRow(h.from_status, h.to_status, h.at, h.event) for h in history),
        purged_at=next((h.at for h in reversed(history) if h.event == HistoryEvent.PURGED), None),
        result_url=result_path(result.type, result.id) if live and result else None,
        result_type_label=RESULT_TYPE_LABELS[ResultType(result.type)] if live and result else None,
        can_retry=is_retryable(upload),
        retry_url=f"/app/uploads/{upload.id}/retry",
        original_url=f"/app/uploads/{upload.id}/original" if failed and upload.object_key else None,
        delete_url=f"/app/uploads/{upload.id}/delete" if failed else None,
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
    kind: str | None = None
    size_bytes: int | None = None
    page_count: int | None = None
    title: str | None = None
    reason: str | None = None
    details: tuple[Detail, ...] = ()
    payment_file: PaymentFile | None = None  # a SEPA file filed as a document


def document_view(document: OtherDocument) -> DocumentView:
    if isinstance(document, FiledPdf):
        return DocumentView(
            kind=document.kind.value,
            size_bytes=document.size,
            page_count=document.page_count,
            title=text(document.title),
        )
    if isinstance(document, FiledXml):
        return DocumentView(
            kind=document.kind.value,
            size_bytes=document.size,
            details=_details(
                (N_("Root namespace"), document.root_namespace),
                (N_("Root element"), document.root_element),
            ),
        )
    if isinstance(document, NonInvoiceXml):
        return DocumentView(
            reason=text(document.reason),
            details=_details(
                (N_("Root element"), document.root_element),
                (N_("Root namespace"), document.root_namespace),
            ),
        )
    return DocumentView(reason=text(document.reason), payment_file=document.payment_file)


def _details(*pairs: tuple[str, str | None]) -> tuple[Detail, ...]:
    return tuple(Detail(label, shown) for label, value in pairs if (shown := text(value)))

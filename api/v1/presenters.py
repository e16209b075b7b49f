"""Upload views to wire resources."""

from __future__ import annotations

from sqlalchemy.orm import Session

from api.v1.schemas import BatchCounts, BatchOut, ResultRef, UploadError, UploadOut
from processors.base import DocumentType, FailureCode, ResultType
from storage.links import result_url
from storage.models import Batch
from storage.repositories.upload_views import UploadView, batch_views, status_counts
from storage.states import UnpackState, UploadStatus, derive_batch_status


def upload_out(view: UploadView, base_url: str) -> UploadOut:
    status = UploadStatus(view.status)
    result_ref = None
    if status is UploadStatus.COMPLETED and view.result_id and view.result_type:
        result_type = ResultType(view.result_type)
        result_ref = ResultRef(
            type=result_type,
            id=view.result_id,
            url=result_url(base_url, result_type, view.result_id),
        )
    error = None
    if status is UploadStatus.FAILED and view.error_code:
        error = UploadError(code=FailureCode(view.error_code), message=view.error_message or "")
    return UploadOut(
        id=view.id,
        batch_id=view.batch_id,
        external_id=view.external_id,
        file_name=view.file_name,
        document_type=DocumentType(view.document_type),
        status=status,
        result=result_ref,
        error=error,
        created_at=view.created_at,
    )


def present_batch(session: Session, batch: Batch, base_url: str) -> BatchOut:
    views = batch_views(session, batch.id)
    counts = status_counts(view.status for view in views)
    return BatchOut(
        id=batch.id,
        external_id=batch.external_id,
        document_type=DocumentType(batch.document_type),
        status=derive_batch_status(UnpackState(batch.unpack_state), counts),
        counts=BatchCounts.model_validate(counts),
        uploads=[upload_out(view, base_url) for view in views],
        created_at=batch.created_at,
    )

"""Records to wire resources."""

from __future__ import annotations

from sqlalchemy.orm import Session

from api.v1.schemas import BatchCounts, BatchOut, ResultRef, UploadError, UploadOut
from processors.base import DocumentType, FailureCode, ResultType
from storage.links import result_url
from storage.models import Batch, Result, Upload
from storage.repositories import batches as batch_repo
from storage.repositories import uploads as upload_repo
from storage.states import UnpackState, UploadStatus, derive_batch_status


def upload_out(upload: Upload, result: Result | None, base_url: str) -> UploadOut:
    status = UploadStatus(upload.status)
    result_ref = None
    if status is UploadStatus.COMPLETED and result is not None:
        result_type = ResultType(result.type)
        result_ref = ResultRef(
            type=result_type, id=result.id, url=result_url(base_url, result_type, result.id)
        )
    error = None
    if status is UploadStatus.FAILED and upload.error_code:
        error = UploadError(code=FailureCode(upload.error_code), message=upload.error_message or "")
    return UploadOut(
        id=upload.id,
        batch_id=upload.batch_id,
        external_id=upload.external_id,
        file_name=upload.file_name,
        document_type=DocumentType(upload.document_type),
        status=status,
        result=result_ref,
        error=error,
        created_at=upload.created_at,
    )


def present_upload(session: Session, upload: Upload, base_url: str) -> UploadOut:
    result = upload_repo.get_result(session, upload.result_id) if upload.result_id else None
    return upload_out(upload, result, base_url)


def present_batch(session: Session, batch: Batch, base_url: str) -> BatchOut:
    uploads = batch_repo.uploads_of(session, batch.id)
    results = upload_repo.results_by_id(
        session, {upload.result_id for upload in uploads if upload.result_id}
    )
    counts = batch_repo.status_counts(uploads)
    return BatchOut(
        id=batch.id,
        external_id=batch.external_id,
        document_type=DocumentType(batch.document_type),
        status=derive_batch_status(UnpackState(batch.unpack_state), counts),
        counts=BatchCounts.model_validate(counts),
        uploads=[
            upload_out(u, results.get(u.result_id) if u.result_id else None, base_url)
            for u in uploads
        ],
        created_at=batch.created_at,
    )

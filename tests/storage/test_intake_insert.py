"""storage/repositories/intake.py writes a new upload in plain SQL: its rows must be the
rows the ORM writes for the same upload, so a column added to the model later (with a
Python default the SQL would not know) fails here."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from storage.db import Database
from storage.idempotency import IntakeRequest, StoredFile, claim_new_upload, claim_upload
from storage.models import StatusChange, Upload
from storage.repositories import uploads as upload_repo
from storage.repositories.intake import NewUpload, insert_queued
from storage.repositories.upload_views import UploadView
from storage.states import UploadStatus
from tests.conftest import Tenant

SHA = "ab" * 32
# Different for every upload by design.
OWN = {"id", "upload_id", "created_at", "updated_at", "at", "sha256", "object_key"}


def _new(tenant: Tenant, sha256: str, external_id: str | None = None) -> NewUpload:
    return NewUpload(
        company_id=tenant.company_id,
        file_name="invoice.pdf",
        document_type="auto",
        external_id=external_id,
        sha256=sha256,
        size_bytes=1234,
        object_key=f"uploads/{uuid.uuid4()}",
    )


def _through_the_orm(session: Session, new: NewUpload) -> uuid.UUID:
    upload = Upload(
        id=uuid.uuid4(),
        company_id=new.company_id,
        external_id=new.external_id,
        file_name=new.file_name,
        document_type=new.document_type,
        sha256=new.sha256,
        size_bytes=new.size_bytes,
        object_key=new.object_key,
        attempts=0,
    )
    upload_repo.add_upload(session, upload, UploadStatus.QUEUED)
    return upload.id


def _rows(session: Session, upload_id: uuid.UUID) -> tuple[dict[str, Any], dict[str, Any]]:
    upload = session.execute(select(Upload.__table__).where(Upload.id == upload_id)).one()
    [history] = session.execute(
        select(StatusChange.__table__).where(StatusChange.upload_id == upload_id)
    ).all()
    return dict(upload._mapping), dict(history._mapping)


def _comparable(row: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in row.items() if name not in OWN}


def test_a_queued_upload_in_sql_is_the_row_the_orm_writes(
    database: Database, tenant: Tenant
) -> None:
    with database.session() as session:
        view = insert_queued(session, _new(tenant, SHA))
        assert view is not None
        by_orm = _through_the_orm(session, _new(tenant, "cd" * 32))
        session.commit()
        upload, history = _rows(session, view.id)
        orm_upload, orm_history = _rows(session, by_orm)
        loaded = session.get(Upload, view.id)

    assert _comparable(upload) == _comparable(orm_upload)
    assert _comparable(history) == _comparable(orm_history)
    assert upload["created_at"] == upload["updated_at"] == history["at"]
    assert loaded is not None and UploadView.of(loaded, None) == view


def test_a_taken_idempotency_key_inserts_nothing(database: Database, tenant: Tenant) -> None:
    with database.session() as session:
        first = insert_queued(session, _new(tenant, SHA))
        same_content = insert_queued(session, _new(tenant, SHA))
        with_key = insert_queued(session, _new(tenant, "ef" * 32, external_id="inv-1"))
        same_key = insert_queued(session, _new(tenant, "01" * 32, external_id="inv-1"))
        session.commit()
        uploads = session.scalars(select(Upload.id).where(Upload.company_id == tenant.company_id))
        histories = session.scalars(select(StatusChange.upload_id))
        stored, written = set(uploads), set(histories)

    assert first is not None and with_key is not None
    assert same_content is None and same_key is None
    assert stored == {first.id, with_key.id}
    assert written >= stored


def _request(tenant: Tenant, sha256: str, too_large: bool = False) -> IntakeRequest:
    key = None if too_large else f"uploads/{uuid.uuid4()}"
    return IntakeRequest(
        company_id=tenant.company_id,
        file_name="invoice.pdf",
        document_type="auto",
        external_id=None,
        file=StoredFile(object_key=key, sha256=sha256, size_bytes=1234, too_large=too_large),
    )


def test_a_new_upload_claimed_without_a_session_is_the_row_a_session_claims(
    database: Database, tenant: Tenant
) -> None:
    claimed = claim_new_upload(database, _request(tenant, SHA))
    with database.session() as session:
        by_session = claim_upload(session, _request(tenant, "cd" * 32))
        session.commit()
        upload, history = _rows(session, claimed.record.id if claimed else uuid.uuid4())
        other_upload, other_history = _rows(session, by_session.record.id)

    assert claimed is not None and (claimed.replayed, claimed.uses_new_object) == (False, True)
    assert claimed.record.status == "queued"
    assert _comparable(upload) == _comparable(other_upload)
    assert _comparable(history) == _comparable(other_history)


def test_a_repeat_or_a_file_over_the_limit_is_left_to_the_session(
    database: Database, tenant: Tenant
) -> None:
    assert claim_new_upload(database, _request(tenant, SHA)) is not None

    assert claim_new_upload(database, _request(tenant, SHA)) is None
    assert claim_new_upload(database, _request(tenant, "ef" * 32, too_large=True)) is None
    with database.session() as session:
        assert session.scalar(select(func.count()).select_from(Upload)) == 1

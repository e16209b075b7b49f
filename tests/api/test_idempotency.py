"""The five idempotency rules of the spec, scoped per company."""

from __future__ import annotations

import uuid

from fastapi.testclient import TestClient

from api.deps import Services
from processors.base import FailureCode
from storage.objectstore import ObjectStore
from storage.repositories import uploads as upload_repo
from storage.states import UploadStatus
from tests.api.helpers import assert_problem, pdf_bytes, post_upload
from tests.conftest import Tenant


def _move(
    services: Services,
    tenant: Tenant,
    upload_id: str,
    *path: UploadStatus,
    code: FailureCode | None = None,
) -> None:
    """Walk an upload through the state machine as the pipeline would."""
    with services.db.session() as session:
        upload = upload_repo.get_upload(session, tenant.company_id, uuid.UUID(upload_id))
        assert upload is not None
        for status in path:
            upload_repo.change_status(session, upload, status)
        upload.error_code = code
        upload.error_message = "test" if code else None
        session.commit()


def test_rule1_same_external_id_returns_the_original_even_with_another_name(
    client: TestClient, tenant: Tenant, store: ObjectStore
) -> None:
    first = post_upload(client, tenant.headers, pdf_bytes(), "a.pdf", externalId="e-1")
    again = post_upload(client, tenant.headers, pdf_bytes(), "renamed.pdf", externalId="e-1")

    assert again.status_code == 202
    assert again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert len(store.list_keys("uploads/")) == 1


def test_rule2_same_external_id_with_another_file_or_type_is_a_conflict(
    client: TestClient, tenant: Tenant, store: ObjectStore
) -> None:
    post_upload(client, tenant.headers, pdf_bytes("one"), externalId="e-2")

    other_file = post_upload(client, tenant.headers, pdf_bytes("two"), externalId="e-2")
    other_type = post_upload(
        client, tenant.headers, pdf_bytes("one"), externalId="e-2", documentType="bank_statement"
    )

    assert_problem(other_file, 409, "external_id_conflict")
    assert_problem(other_type, 409, "external_id_conflict")
    assert len(store.list_keys("uploads/")) == 1


def test_rule3_same_file_and_type_without_external_id_returns_the_original(
    client: TestClient, tenant: Tenant
) -> None:
    first = post_upload(client, tenant.headers, pdf_bytes("x"), documentType="other_document")
    again = post_upload(client, tenant.headers, pdf_bytes("x"), documentType="other_document")
    other_type = post_upload(client, tenant.headers, pdf_bytes("x"), documentType="auto")

    assert again.json()["id"] == first.json()["id"]
    assert again.headers["Idempotent-Replayed"] == "true"
    assert other_type.json()["id"] != first.json()["id"]


def test_rule4_repeat_retries_an_upload_that_failed_before_reading(
    client: TestClient, tenant: Tenant, services: Services
) -> None:
    first = post_upload(client, tenant.headers, pdf_bytes(), externalId="e-4").json()
    _move(
        services, tenant, first["id"], UploadStatus.FAILED, code=FailureCode.UNSUPPORTED_FILE_TYPE
    )

    again = post_upload(client, tenant.headers, pdf_bytes(), externalId="e-4")

    assert again.json()["id"] == first["id"]
    assert again.json()["status"] == "queued"
    assert again.json()["error"] is None
    with services.db.session() as session:
        history = upload_repo.history(session, uuid.UUID(first["id"]))
    assert [h.to_status for h in history] == ["queued", "failed", "queued"]


def test_rule4_repeat_reads_a_deleted_upload_again(
    client: TestClient, tenant: Tenant, services: Services
) -> None:
    first = post_upload(client, tenant.headers, pdf_bytes()).json()
    _move(
        services,
        tenant,
        first["id"],
        UploadStatus.PROCESSING,
        UploadStatus.COMPLETED,
        UploadStatus.DELETED,
    )

    again = post_upload(client, tenant.headers, pdf_bytes())

    assert again.json()["id"] == first["id"]
    assert again.json()["status"] == "queued"


def test_rule4_repeat_of_a_too_large_file_stores_it_once_the_limit_allows(
    client: TestClient, tenant: Tenant, services: Services, store: ObjectStore
) -> None:
    content = b"%PDF-1.4\n" + b"y" * services.settings.max_file_bytes
    first = post_upload(client, tenant.headers, content, externalId="big").json()
    assert first["error"]["code"] == "file_too_large"

    same = post_upload(client, tenant.headers, content, externalId="big").json()
    assert same["status"] == "failed"

    services.settings.max_file_bytes *= 2
    raised = post_upload(client, tenant.headers, content, externalId="big").json()
    assert raised["id"] == first["id"]
    assert raised["status"] == "queued"
    assert len(store.list_keys("uploads/")) == 1


def test_rule5_processing_failed_is_not_retried_by_a_repeat(
    client: TestClient, tenant: Tenant, services: Services
) -> None:
    first = post_upload(client, tenant.headers, pdf_bytes(), externalId="e-5").json()
    _move(
        services,
        tenant,
        first["id"],
        UploadStatus.PROCESSING,
        UploadStatus.FAILED,
        code=FailureCode.PROCESSING_FAILED,
    )

    again = post_upload(client, tenant.headers, pdf_bytes(), externalId="e-5").json()

    assert again["status"] == "failed"
    assert again["error"]["code"] == "processing_failed"


def test_idempotency_is_scoped_to_one_company(
    client: TestClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    mine = post_upload(client, tenant.headers, pdf_bytes(), externalId="shared")
    theirs = post_upload(client, other_tenant.headers, pdf_bytes(), externalId="shared")

    assert theirs.status_code == 202
    assert theirs.json()["id"] != mine.json()["id"]
    assert "Idempotent-Replayed" not in theirs.headers

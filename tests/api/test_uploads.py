"""POST /v1/uploads and GET /v1/uploads/{id}: the contract, field by field."""

from __future__ import annotations

import hashlib
import re
import uuid

import pytest
from fastapi.testclient import TestClient

from api.deps import Services
from api.intake import FLUSH_BYTES
from storage.objectstore import ObjectStore
from storage.repositories import uploads as upload_repo
from tests.api.helpers import assert_problem, pdf_bytes, post_upload
from tests.conftest import Tenant

UPLOAD_FIELDS = {
    "id",
    "batchId",
    "externalId",
    "fileName",
    "documentType",
    "status",
    "result",
    "error",
    "createdAt",
}
TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$")


def test_upload_is_accepted_as_queued_with_every_field(client: TestClient, tenant: Tenant) -> None:
    response = post_upload(client, tenant.headers, pdf_bytes(), externalId="inv-1")

    assert response.status_code == 202
    body = response.json()
    assert set(body) == UPLOAD_FIELDS
    assert body["status"] == "queued"
    assert body["result"] is None and body["error"] is None and body["batchId"] is None
    assert body["externalId"] == "inv-1"
    assert body["fileName"] == "invoice.pdf"
    assert body["documentType"] == "auto"
    assert TIMESTAMP.match(body["createdAt"])
    assert body["id"] == str(uuid.UUID(body["id"]))
    assert 1 <= int(response.headers["Retry-After"]) <= 30
    assert "Idempotent-Replayed" not in response.headers


def test_accepted_file_is_stored_whole(
    client: TestClient, tenant: Tenant, services: Services, store: ObjectStore
) -> None:
    content = pdf_bytes("stored") * 5000
    upload_id = uuid.UUID(post_upload(client, tenant.headers, content).json()["id"])

    with services.db.session() as session:
        upload = upload_repo.get_upload(session, tenant.company_id, upload_id)
        assert upload is not None and upload.object_key is not None
        assert store.read_bytes(upload.object_key) == content
        assert upload.size_bytes == len(content)
        history = upload_repo.history(session, upload_id)
    assert [(h.from_status, h.to_status) for h in history] == [(None, "queued")]


@pytest.mark.parametrize(
    "size",
    [100, FLUSH_BYTES - 1, FLUSH_BYTES, FLUSH_BYTES + 1, 2 * FLUSH_BYTES - 9],
    ids=["small", "a byte under a slice", "one slice", "a byte over", "two slices"],
)
def test_files_around_the_slice_size_are_stored_whole_with_their_hash(
    client: TestClient, tenant: Tenant, services: Services, store: ObjectStore, size: int
) -> None:
    """Under a slice a file is stored in one trip to the thread pool, from a slice on it
    streams through the sink thread: the same bytes and hash either way."""
    content = b"%PDF-1.4\n" + bytes(range(256)) * (size // 256) + b"%" * (size % 256 - 9)
    content = content[:size]
    body = post_upload(client, tenant.headers, content).json()
    assert body["status"] == "queued"
    with services.db.read_session() as session:
        upload = upload_repo.get_upload(session, tenant.company_id, uuid.UUID(body["id"]))
        assert upload is not None and upload.object_key is not None
        assert store.read_bytes(upload.object_key) == content
        assert (upload.size_bytes, upload.sha256) == (size, hashlib.sha256(content).hexdigest())


def test_get_upload_answers_the_same_resource_with_retry_after(
    client: TestClient, tenant: Tenant
) -> None:
    created = post_upload(client, tenant.headers, pdf_bytes(), documentType="supplier_invoice")

    response = client.get(f"/v1/uploads/{created.json()['id']}", headers=tenant.headers)

    assert response.status_code == 200
    assert response.json() == created.json()
    assert response.json()["documentType"] == "supplier_invoice"
    assert 1 <= int(response.headers["Retry-After"]) <= 30


def test_every_document_type_is_accepted(client: TestClient, tenant: Tenant) -> None:
    for document_type in (
        "auto",
        "supplier_invoice",
        "customer_invoice",
        "bank_statement",
        "other_document",
    ):
        response = post_upload(
            client, tenant.headers, pdf_bytes(document_type), documentType=document_type
        )
        assert response.status_code == 202
        assert response.json()["documentType"] == document_type


def test_unknown_and_malformed_ids_answer_404(client: TestClient, tenant: Tenant) -> None:
    assert_problem(
        client.get(f"/v1/uploads/{uuid.uuid4()}", headers=tenant.headers), 404, "not_found"
    )
    assert_problem(client.get("/v1/uploads/not-a-uuid", headers=tenant.headers), 404, "not_found")


def test_another_companys_upload_answers_404(
    client: TestClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    upload_id = post_upload(client, tenant.headers, pdf_bytes()).json()["id"]

    assert_problem(
        client.get(f"/v1/uploads/{upload_id}", headers=other_tenant.headers), 404, "not_found"
    )


def test_file_over_the_limit_fails_file_too_large_and_keeps_no_bytes(
    client: TestClient, tenant: Tenant, services: Services, store: ObjectStore
) -> None:
    too_large = b"%PDF-1.4\n" + b"x" * services.settings.max_file_bytes

    response = post_upload(client, tenant.headers, too_large)

    assert response.status_code == 202
    body = response.json()
    assert body["status"] == "failed"
    assert body["error"]["code"] == "file_too_large"
    assert body["error"]["message"]
    assert body["result"] is None
    assert "Retry-After" not in response.headers
    assert store.list_keys("uploads/") == []


def test_file_exactly_at_the_limit_is_accepted(
    client: TestClient, tenant: Tenant, services: Services
) -> None:
    content = b"%PDF-1.4\n" + b"x" * (services.settings.max_file_bytes - 9)

    assert post_upload(client, tenant.headers, content).json()["status"] == "queued"


def test_body_over_the_hard_cap_answers_413_and_stores_nothing(
    client: TestClient, tenant: Tenant, services: Services, store: ObjectStore
) -> None:
    huge = b"x" * (services.settings.max_request_bytes + 1)

    assert_problem(post_upload(client, tenant.headers, huge), 413, "request_too_large")
    assert store.list_keys() == []

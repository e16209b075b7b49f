"""POST /v1/uploads/batches and GET /v1/uploads/batches/{id}."""

from __future__ import annotations

import os
import struct
import uuid
import zipfile

import pytest
from fastapi.testclient import TestClient

from api.deps import Services
from storage.models import Upload
from storage.objectstore import ObjectStore
from storage.repositories import batches as batch_repo
from storage.repositories import uploads as upload_repo
from storage.states import UploadStatus
from tests.api.helpers import assert_problem, make_zip, pdf_bytes, post_batch
from tests.conftest import Tenant

BATCH_FIELDS = {
    "id",
    "externalId",
    "documentType",
    "status",
    "counts",
    "uploads",
    "createdAt",
    "source",  # an extension of the spec's batch: docs/email.md
}
ZERO_COUNTS = {"total": 0, "queued": 0, "processing": 0, "completed": 0, "failed": 0, "deleted": 0}


def _archive(count: int = 3) -> bytes:
    return make_zip({f"invoices/{i}.pdf": pdf_bytes(str(i)) for i in range(count)})


def test_batch_is_accepted_as_processing_with_every_field(
    client: TestClient, tenant: Tenant, store: ObjectStore
) -> None:
    response = post_batch(
        client, tenant.headers, _archive(), externalId="b-1", documentType="supplier_invoice"
    )

    assert response.status_code == 202
    body = response.json()
    assert set(body) == BATCH_FIELDS
    assert body["source"] == {"type": "api"}
    assert body["status"] == "processing"
    assert body["uploads"] == []
    assert body["counts"] == ZERO_COUNTS
    assert body["externalId"] == "b-1"
    assert body["documentType"] == "supplier_invoice"
    assert 1 <= int(response.headers["Retry-After"]) <= 30
    assert len(store.list_keys("batches/")) == 1


def test_get_batch_answers_the_same_resource(client: TestClient, tenant: Tenant) -> None:
    created = post_batch(client, tenant.headers, _archive()).json()

    response = client.get(f"/v1/uploads/batches/{created['id']}", headers=tenant.headers)

    assert response.status_code == 200
    assert response.json() == created
    assert "Retry-After" in response.headers


def test_batch_counts_and_status_are_derived_from_its_uploads(
    client: TestClient, tenant: Tenant, services: Services
) -> None:
    batch_id = uuid.UUID(post_batch(client, tenant.headers, _archive()).json()["id"])
    with services.db.session() as session:
        batch = batch_repo.get_batch(session, tenant.company_id, batch_id)
        assert batch is not None
        batch.unpack_state = "done"
        uploads = []
        for position in range(3):
            upload = Upload(
                id=uuid.uuid4(),
                company_id=tenant.company_id,
                batch_id=batch_id,
                position=position,
                file_name=f"{position}.pdf",
                document_type="auto",
                sha256=f"{position:064d}",
                size_bytes=10,
                attempts=0,
            )
            upload_repo.add_upload(session, upload, UploadStatus.QUEUED)
            uploads.append(upload)
        session.commit()

    def get() -> dict[str, object]:
        response = client.get(f"/v1/uploads/batches/{batch_id}", headers=tenant.headers)
        assert response.status_code == 200
        return dict(response.json())

    body = get()
    assert body["status"] == "processing"
    assert body["counts"] == {**ZERO_COUNTS, "total": 3, "queued": 3}
    assert [u["fileName"] for u in body["uploads"]] == ["0.pdf", "1.pdf", "2.pdf"]  # type: ignore[attr-defined]
    assert all(u["batchId"] == str(batch_id) for u in body["uploads"])  # type: ignore[attr-defined]

    def finish(index: int, status: UploadStatus) -> None:
        with services.db.session() as session:
            upload = session.merge(uploads[index])
            upload_repo.change_status(session, upload, UploadStatus.PROCESSING)
            upload_repo.change_status(session, upload, status)
            if status is UploadStatus.FAILED:
                upload.error_code, upload.error_message = "processing_failed", "boom"
            session.commit()

    finish(0, UploadStatus.FAILED)
    finish(1, UploadStatus.FAILED)
    finish(2, UploadStatus.FAILED)
    body = get()
    assert body["status"] == "failed"
    assert body["counts"] == {**ZERO_COUNTS, "total": 3, "failed": 3}


@pytest.mark.parametrize(
    ("statuses", "expected"),
    [
        (["completed", "completed"], "completed"),
        (["completed", "failed"], "completed_with_errors"),
        (["failed", "failed"], "failed"),
        (["completed", "processing"], "processing"),
        (["deleted", "completed"], "completed"),
    ],
)
def test_batch_status_rules(statuses: list[str], expected: str) -> None:
    from storage.states import UnpackState, derive_batch_status

    counts = {status: statuses.count(status) for status in set(statuses)}
    counts["total"] = len(statuses)
    assert derive_batch_status(UnpackState.DONE, counts) == expected


def test_not_a_zip_is_invalid_archive_and_nothing_is_kept(
    client: TestClient, tenant: Tenant, store: ObjectStore
) -> None:
    assert_problem(post_batch(client, tenant.headers, pdf_bytes()), 422, "invalid_archive")
    assert store.list_keys() == []


def test_corrupt_central_directory_is_invalid_archive(client: TestClient, tenant: Tenant) -> None:
    archive = bytearray(_archive())
    directory = archive.rfind(b"PK\x01\x02")
    archive[directory : directory + 4] = b"XXXX"

    assert_problem(post_batch(client, tenant.headers, bytes(archive)), 422, "invalid_archive")


def test_truncated_archive_is_invalid_archive(client: TestClient, tenant: Tenant) -> None:
    archive = _archive()
    assert_problem(
        post_batch(client, tenant.headers, archive[: len(archive) // 2]), 422, "invalid_archive"
    )


def _mark_encrypted(archive: bytes) -> bytes:
    """Set the 'encrypted' flag bit on every entry, as an encrypting zip tool would."""
    data = bytearray(archive)
    for signature, flag_offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        start = 0
        while (start := data.find(signature, start)) != -1:
            (flags,) = struct.unpack_from("<H", data, start + flag_offset)
            struct.pack_into("<H", data, start + flag_offset, flags | 0x1)
            start += 4
    return bytes(data)


def test_encrypted_entries_are_invalid_archive(client: TestClient, tenant: Tenant) -> None:
    body = assert_problem(
        post_batch(client, tenant.headers, _mark_encrypted(_archive())), 422, "invalid_archive"
    )
    assert "encrypted" in body["detail"]


def test_archive_without_files_is_invalid(client: TestClient, tenant: Tenant) -> None:
    archive = make_zip({"empty/": b"", "__MACOSX/._a.pdf": b"x", ".DS_Store": b"x"})
    assert_problem(post_batch(client, tenant.headers, archive), 422, "invalid_archive")


def test_more_files_than_the_limit_is_refused(
    client: TestClient, tenant: Tenant, services: Services, store: ObjectStore
) -> None:
    too_many = services.settings.max_archive_files + 1

    body = assert_problem(
        post_batch(client, tenant.headers, _archive(too_many)), 422, "archive_too_many_files"
    )
    assert str(too_many) in body["detail"]
    assert store.list_keys() == []


def test_directories_and_junk_do_not_count_towards_the_limit(
    client: TestClient, tenant: Tenant, services: Services
) -> None:
    limit = services.settings.max_archive_files
    entries = {f"docs/{i}.pdf": pdf_bytes(str(i)) for i in range(limit)}
    entries.update(
        {
            "docs/": b"",
            "__MACOSX/docs/._0.pdf": b"junk",
            "docs/.DS_Store": b"junk",
            "docs/._1.pdf": b"junk",
        }
    )

    assert post_batch(client, tenant.headers, make_zip(entries)).status_code == 202


def test_declared_unpacked_size_over_the_limit_is_refused(
    client: TestClient, tenant: Tenant, services: Services
) -> None:
    # Zeros deflate to almost nothing: a small request declaring a large unpacked size.
    big = b"\0" * (services.settings.max_archive_bytes // 2 + 1)
    archive = make_zip({"a.pdf": big, "b.pdf": big + b"\0"})
    assert len(archive) < services.settings.max_file_bytes

    assert_problem(post_batch(client, tenant.headers, archive), 422, "archive_too_large")


def test_archive_larger_than_the_per_file_limit_is_accepted(
    client: TestClient, tenant: Tenant, services: Services, store: ObjectStore
) -> None:
    part = services.settings.max_file_bytes * 9 // 10
    archive = make_zip(
        {"a.pdf": os.urandom(part), "b.pdf": os.urandom(part)}, compression=zipfile.ZIP_STORED
    )
    assert len(archive) > services.settings.max_file_bytes

    assert post_batch(client, tenant.headers, archive).status_code == 202
    (key,) = store.list_keys("batches/")
    assert store.read_bytes(key) == archive


def test_batch_repeat_by_external_id_returns_the_original(
    client: TestClient, tenant: Tenant, store: ObjectStore
) -> None:
    first = post_batch(client, tenant.headers, _archive(), externalId="b-2")
    again = post_batch(client, tenant.headers, _archive(), externalId="b-2")
    conflict = post_batch(client, tenant.headers, _archive(2), externalId="b-2")

    assert again.status_code == 202, again.text
    assert again.json()["id"] == first.json()["id"]
    assert again.headers["Idempotent-Replayed"] == "true"
    assert_problem(conflict, 409, "external_id_conflict")
    assert len(store.list_keys("batches/")) == 1


def test_batch_repeat_by_content_returns_the_original(client: TestClient, tenant: Tenant) -> None:
    first = post_batch(client, tenant.headers, _archive())
    again = post_batch(client, tenant.headers, _archive())

    assert again.json()["id"] == first.json()["id"]


def test_batch_and_single_upload_external_ids_are_separate(
    client: TestClient, tenant: Tenant
) -> None:
    from tests.api.helpers import post_upload

    assert post_upload(client, tenant.headers, pdf_bytes(), externalId="same").status_code == 202
    assert post_batch(client, tenant.headers, _archive(), externalId="same").status_code == 202


def test_another_companys_batch_answers_404(
    client: TestClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    batch_id = post_batch(client, tenant.headers, _archive()).json()["id"]

    response = client.get(f"/v1/uploads/batches/{batch_id}", headers=other_tenant.headers)
    assert_problem(response, 404, "not_found")
    assert_problem(client.get("/v1/uploads/batches/xyz", headers=tenant.headers), 404, "not_found")


def test_zip_helper_writes_directories() -> None:
    with zipfile.ZipFile(__import__("io").BytesIO(make_zip({"d/": b""}))) as archive:
        assert archive.namelist() == ["d/"]

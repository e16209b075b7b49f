"""Hostile archives and ZIP documents through the whole lifecycle (issue 37, findings 6
and 10, and the archive's retention): every batch ends, on both stores, and its archive
is deleted once nobody can need it. Real reading processes, database and store."""

from __future__ import annotations

import hashlib
import uuid

from fastapi.testclient import TestClient

from flows.pipeline import process_batch
from flows.unpack import BatchInfo, unpack
from flows.work import WorkerEnv, claim, run_job
from storage.models import Batch
from storage.repositories import batches as batch_repo
from storage.repositories import work as work_repo
from storage.states import UnpackState
from tests.api.helpers import make_zip, post_batch, post_upload
from tests.conftest import Tenant
from tests.flows.samples import blank_pdf
from tests.processors.hostile_zip import misplaced_directory, odf_bzip2_member, odf_lzma_member


def _stored_batch(env: WorkerEnv, company: Tenant, archive: bytes) -> uuid.UUID:
    """A batch as if accepted before 202 checked what it checks now: stored and queued."""
    key = f"batches/{uuid.uuid4()}.zip"
    writer = env.store.open_writer(key)
    writer.write(archive)
    writer.commit()
    batch = Batch(
        id=uuid.uuid4(),
        company_id=company.company_id,
        document_type="auto",
        file_name="old.zip",
        sha256=hashlib.sha256(archive).hexdigest(),
        size_bytes=len(archive),
        object_key=key,
        unpack_state=UnpackState.PENDING,
        attempts=0,
    )
    with env.db.session() as session:
        batch_repo.add_batch(session, batch)
        session.commit()
    return batch.id


def _claim_and_run(env: WorkerEnv) -> BatchInfo:
    with env.db.session() as session:
        batch = work_repo.claim_batch(session, env.owner, env.lease)
        assert batch is not None
        info = BatchInfo.of(batch)
        session.commit()
    process_batch(str(info.id))
    return info


def _batch(env: WorkerEnv, batch_id: uuid.UUID) -> Batch:
    with env.db.read_session() as session:
        batch = session.get(Batch, batch_id)
        assert batch is not None
        return batch


def _get(api: TestClient, company: Tenant, batch_id: object) -> dict:  # type: ignore[type-arg]
    return dict(api.get(f"/v1/uploads/batches/{batch_id}", headers=company.headers).json())


def test_a_misplaced_directory_fails_its_uploads_not_the_store(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    """Finding 6: the local store's seek error was "store unavailable", and the batch
    was claimed again every lease period, forever (S3 clamped the seek)."""
    archive = misplaced_directory({"a.pdf": blank_pdf("a"), "b.pdf": blank_pdf("b")})
    batch_id = _stored_batch(env, company, archive)

    info = _claim_and_run(env)

    body = _get(api, company, batch_id)
    assert (body["status"], body["counts"]["total"]) == ("failed", 2)
    for upload in body["uploads"]:
        assert upload["error"]["code"] == "unsupported_file_type"
        assert "before the start of the archive" in upload["error"]["message"]
    stored = _batch(env, batch_id)
    assert (stored.unpack_state, stored.crashes) == ("done", 0)
    assert stored.finished_at is not None
    assert not env.store.exists(info.object_key)  # entries committed: the archive is gone


def test_a_batch_claimed_too_often_without_an_unpack_outcome_fails(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    """Every worker that took it died: the claim counter, once never read, ends it."""
    batch_id = _stored_batch(env, company, make_zip({"a.pdf": blank_pdf("a")}))
    with env.db.session() as session:
        batch = session.get(Batch, batch_id)
        assert batch is not None
        batch.attempts = work_repo.MAX_TAKES
        session.commit()

    info = _claim_and_run(env)

    body = _get(api, company, batch_id)
    assert (body["status"], body["uploads"]) == ("failed", [])
    stored = _batch(env, batch_id)
    assert stored.error_code == "processing_failed"
    assert f"started {work_repo.MAX_TAKES} times" in (stored.error_message or "")
    assert not env.store.exists(info.object_key)  # the failure recorded: the archive is gone


def test_the_archive_is_deleted_once_unpacked_and_a_late_unpack_changes_nothing(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    """Never while a committed batch may need it: a worker whose lease ran out while it
    unpacked finds the archive gone, and neither fails nor discards the batch."""
    archive = make_zip({"a.pdf": blank_pdf("a"), "b.pdf": blank_pdf("b")})
    created = post_batch(api, company.headers, archive, externalId="late").json()
    batch_id = uuid.UUID(created["id"])
    stale = BatchInfo.of(_batch(env, batch_id))
    assert unpack(env, stale) == 2
    assert not env.store.exists(stale.object_key)

    assert unpack(env, stale) == 0  # the stale copy still says pending

    stored = _batch(env, batch_id)
    assert (stored.unpack_state, stored.crashes, stored.error_code) == ("done", 0, None)
    assert len([key for key in env.store.list_keys() if f"{batch_id}/entries/" in key]) == 2
    replay = post_batch(api, company.headers, archive, externalId="late")
    assert (replay.status_code, replay.headers["Idempotent-Replayed"]) == (202, "true")
    assert not [key for key in env.store.list_keys() if key.endswith(".zip")]


def test_a_refused_archive_is_deleted_once_the_refusal_is_recorded(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    archive = make_zip({"a.pdf": b"%PDF" + b"\0" * 4000, "b.pdf": b"%PDF" + b"\0" * 4000})
    created = post_batch(api, company.headers, archive).json()
    env.settings.max_archive_bytes = 6000  # inflated bytes are over the worker's limit

    info = _claim_and_run(env)

    assert _get(api, company, created["id"])["status"] == "failed"
    assert _batch(env, info.id).error_code == "archive_too_large"
    assert not env.store.exists(info.object_key)


def test_zip_documents_with_bzip2_or_lzma_members_fail_in_a_batch_and_alone(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    """Finding 10: their telling member holds 64 MiB; it is never inflated."""
    documents = {"lzma.odt": odf_lzma_member(), "bzip2.odt": odf_bzip2_member()}
    created = post_batch(api, company.headers, make_zip(documents)).json()
    singles = [
        post_upload(api, company.headers, data, name).json()["id"]
        for name, data in documents.items()
    ]
    _claim_and_run(env)
    results = [run_job(env, job) for job in claim(env, 2)]

    uploads = _get(api, company, created["id"])["uploads"]
    uploads += [api.get(f"/v1/uploads/{i}", headers=company.headers).json() for i in singles]
    assert len(uploads) == 4 and len(results) == 2
    for upload in uploads:
        assert upload["status"] == "failed"
        assert upload["error"]["code"] == "unsupported_file_type"
        assert "ZIP archive" in upload["error"]["message"]

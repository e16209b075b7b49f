"""Hostile archives through the batch flow: limits hold on inflated bytes. Then the
lifecycle (issue 37, findings 6 and 10, and the archive's retention): every batch ends,
on both stores, and its archive is deleted once nobody can need it."""

from __future__ import annotations

import hashlib
import io
import struct
import uuid
import zipfile

from fastapi.testclient import TestClient

from flows.pipeline import process_batch
from flows.unpack import BatchInfo, unpack
from flows.work import WorkerEnv, claim, run_job
from storage.models import Batch
from storage.repositories import batches as batch_repo
from storage.repositories import work as work_repo
from storage.states import UnpackState
from testkit.samples import blank_pdf
from tests.api.helpers import lying_sizes, make_zip, post_batch, post_upload
from tests.conftest import Tenant
from tests.processors.hostile_zip import misplaced_directory, odf_bzip2_member, odf_lzma_member


def _run(env: WorkerEnv) -> BatchInfo:
    with env.db.session() as session:
        batch = work_repo.claim_batch(session, env.owner, env.lease)
        assert batch is not None
        info = BatchInfo.of(batch)
        session.commit()
    process_batch(str(info.id))
    return info


def _batch(api: TestClient, company: Tenant, archive: bytes) -> dict:  # type: ignore[type-arg]
    response = post_batch(api, company.headers, archive)
    assert response.status_code == 202, response.text
    return dict(response.json())


def _after(api: TestClient, company: Tenant, batch: dict) -> dict:  # type: ignore[type-arg]
    return _after_id(api, company, batch["id"])


def _after_id(api: TestClient, company: Tenant, batch_id: object) -> dict:  # type: ignore[type-arg]
    return dict(api.get(f"/v1/uploads/batches/{batch_id}", headers=company.headers).json())


def test_headers_that_understate_sizes_do_not_inflate_more(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    # Each entry really inflates to 3 MiB, the headers say 10 bytes: 30 bytes declared in all.
    honest = make_zip({f"{i}.pdf": b"%PDF-" + b"\0" * (3 * 1024 * 1024) for i in range(3)})
    batch = _batch(api, company, lying_sizes(honest, 10))

    _run(env)

    body = _after(api, company, batch)
    assert body["counts"]["total"] == 3
    for upload in body["uploads"]:
        assert upload["status"] == "failed"
        assert upload["error"]["code"] == "unsupported_file_type"
        assert "could not be unpacked" in upload["error"]["message"]


def test_zip_bomb_fails_the_batch_and_keeps_nothing(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    # Declared sizes pass the check before 202 (they lie low, but not absurdly), the
    # inflated total is over the archive limit.
    limit = env.settings.max_archive_bytes
    part = limit // 3
    honest = make_zip({f"{i}.pdf": b"\0" * part for i in range(4)})
    env.settings.max_archive_bytes = limit * 2  # the API accepts the declared sizes
    batch = _batch(api, company, honest)
    env.settings.max_archive_bytes = limit  # the worker enforces the real limit

    _run(env)

    body = _after(api, company, batch)
    assert body["status"] == "failed"
    assert body["uploads"] == []
    assert not [key for key in env.store.list_keys() if "/entries/" in key]


def _overlapping(count: int) -> bytes:
    """`count` central-directory entries that all point at the same compressed data."""
    single = make_zip({"a.pdf": blank_pdf("overlap")})
    with zipfile.ZipFile(io.BytesIO(single)) as archive:
        info = archive.infolist()[0]
    cd_start = single.find(b"PK\x01\x02")
    eocd_start = single.find(b"PK\x05\x06")
    entry = single[cd_start:eocd_start]
    entries = b""
    for index in range(count):
        name = f"o{index}.pdf".encode()
        renamed = bytearray(entry[:46]) + name
        struct.pack_into("<H", renamed, 28, len(name))
        entries += bytes(renamed)
    eocd = bytearray(single[eocd_start:])
    struct.pack_into("<HHII", eocd, 8, count, count, len(entries), cd_start)
    assert info.header_offset == 0
    return single[:cd_start] + entries + bytes(eocd)


def test_overlapping_entries_are_each_read_within_the_limits(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    batch = _batch(api, company, _overlapping(5))

    _run(env)

    body = _after(api, company, batch)
    assert body["counts"]["total"] == 5
    assert body["status"] in ("completed", "completed_with_errors", "failed")
    assert body["counts"]["queued"] == body["counts"]["processing"] == 0


def test_hostile_names_are_labels_never_paths(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    names = ["../../etc/evil.pdf", "/abs/evil.pdf", "a/../../b.pdf", "C:\\win\\x.pdf"]
    batch = _batch(api, company, make_zip({n: blank_pdf(n) for n in names}))

    _run(env)

    body = _after(api, company, batch)
    assert sorted(u["fileName"] for u in body["uploads"]) == sorted(names)
    assert all(u["status"] == "completed" for u in body["uploads"])
    keys = env.store.list_keys()
    assert all(".." not in key and not key.startswith("/") for key in keys)


def test_corrupt_and_truncated_pdfs_fail_cleanly(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    good = blank_pdf("whole")
    archive = make_zip(
        {
            "truncated.pdf": good[: len(good) // 2],
            "corrupt.pdf": b"%PDF-1.7\n" + b"\x00garbage" * 50,
        }
    )
    batch = _batch(api, company, archive)

    _run(env)

    body = _after(api, company, batch)
    assert body["status"] in ("failed", "completed_with_errors", "completed")
    for upload in body["uploads"]:
        assert upload["status"] in ("completed", "failed")
        if upload["status"] == "failed":
            assert upload["error"]["code"] != "processing_failed", upload


# --- the lifecycle ----------------------------------------------------------------------


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


def _row(env: WorkerEnv, batch_id: uuid.UUID) -> Batch:
    with env.db.read_session() as session:
        batch = session.get(Batch, batch_id)
        assert batch is not None
        return batch


def test_a_misplaced_directory_fails_its_uploads_not_the_store(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    """Finding 6: the local store's seek error was "store unavailable", and the batch
    was claimed again every lease period, forever (S3 clamped the seek)."""
    archive = misplaced_directory({"a.pdf": blank_pdf("a"), "b.pdf": blank_pdf("b")})
    batch_id = _stored_batch(env, company, archive)

    info = _run(env)

    body = _after_id(api, company, batch_id)
    assert (body["status"], body["counts"]["total"]) == ("failed", 2)
    for upload in body["uploads"]:
        assert upload["error"]["code"] == "unsupported_file_type"
        assert "before the start of the archive" in upload["error"]["message"]
    stored = _row(env, batch_id)
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

    info = _run(env)

    body = _after_id(api, company, batch_id)
    assert (body["status"], body["uploads"]) == ("failed", [])
    stored = _row(env, batch_id)
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
    stale = BatchInfo.of(_row(env, batch_id))
    assert unpack(env, stale) == 2
    assert not env.store.exists(stale.object_key)

    assert unpack(env, stale) == 0  # the stale copy still says pending

    stored = _row(env, batch_id)
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

    info = _run(env)

    assert _after_id(api, company, created["id"])["status"] == "failed"
    assert _row(env, info.id).error_code == "archive_too_large"
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
    _run(env)
    results = [run_job(env, job) for job in claim(env, 2)]

    uploads = _after_id(api, company, created["id"])["uploads"]
    uploads += [api.get(f"/v1/uploads/{i}", headers=company.headers).json() for i in singles]
    assert len(uploads) == 4 and len(results) == 2
    for upload in uploads:
        assert upload["status"] == "failed"
        assert upload["error"]["code"] == "unsupported_file_type"
        assert "ZIP archive" in upload["error"]["message"]

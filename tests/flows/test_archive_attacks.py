"""Hostile archives through the batch flow: limits hold on inflated bytes."""

from __future__ import annotations

import io
import struct
import zipfile

from fastapi.testclient import TestClient

from flows.pipeline import process_batch
from flows.work import WorkerEnv
from storage.repositories import work as work_repo
from tests.api.helpers import lying_sizes, make_zip, post_batch
from tests.conftest import Tenant
from tests.flows.samples import blank_pdf


def _run(env: WorkerEnv) -> None:
    with env.db.session() as session:
        batch = work_repo.claim_batch(session, env.owner, env.lease)
        assert batch is not None
        batch_id = str(batch.id)
        session.commit()
    process_batch(batch_id)


def _batch(api: TestClient, company: Tenant, archive: bytes) -> dict:  # type: ignore[type-arg]
    response = post_batch(api, company.headers, archive)
    assert response.status_code == 202, response.text
    return dict(response.json())


def _after(api: TestClient, company: Tenant, batch: dict) -> dict:  # type: ignore[type-arg]
    return dict(api.get(f"/v1/uploads/batches/{batch['id']}", headers=company.headers).json())


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

"""From queued to a terminal state through real Prefect flows."""

from __future__ import annotations

import time
import uuid

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from flows import pipeline
from flows.pipeline import process_batch, process_uploads
from flows.unpack import BatchInfo
from flows.work import WorkerEnv
from storage.models import Batch, StatusChange, Upload
from storage.repositories import work as work_repo
from testkit.samples import blank_pdf, corpus_file
from tests.api.helpers import make_zip, post_batch, post_upload
from tests.conftest import Tenant


def _drain() -> int:
    return process_uploads(window="test", idle_seconds=0.3)


def _get(api: TestClient, company: Tenant, upload_id: str) -> dict[str, object]:
    response = api.get(f"/v1/uploads/{upload_id}", headers=company.headers)
    assert response.status_code == 200
    return dict(response.json())


def test_single_uploads_reach_their_terminal_states(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    cases = {
        "einvoice": (corpus_file("accept", ".xml"), "completed", "invoice", None),
        "sepa": (corpus_file("accept_sepa"), "completed", "payment_file", None),
        "datev": (corpus_file("refuse_datev", ".xml"), "failed", None, "unsupported_file_type"),
        "locked": (corpus_file("password_protected"), "failed", None, "password_protected"),
        "png": (corpus_file("unsupported_file_type"), "failed", None, "unsupported_file_type"),
        "plain": (("letter.pdf", blank_pdf("letter")), "completed", "other_document", None),
    }
    ids = {}
    for label, ((name, content), *_rest) in cases.items():
        response = post_upload(api, company.headers, content, name)
        assert response.status_code == 202, response.text
        ids[label] = response.json()["id"]

    assert _drain() == len(cases)

    for label, (_, status, result_type, error_code) in cases.items():
        body = _get(api, company, ids[label])
        assert body["status"] == status, (label, body)
        if result_type:
            result = body["result"]
            assert isinstance(result, dict) and result["type"] == result_type
            assert str(result["url"]).startswith("http://testserver/app/")
        else:
            error = body["error"]
            assert isinstance(error, dict) and error["code"] == error_code, (label, error)
    datev_error = _get(api, company, ids["datev"])["error"]
    assert isinstance(datev_error, dict) and "DATEV" in str(datev_error["message"])


def test_every_transition_is_in_the_history(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    upload_id = post_upload(api, company.headers, blank_pdf("h")).json()["id"]
    _drain()

    with env.db.read_session() as session:
        rows = session.scalars(
            select(StatusChange)
            .where(StatusChange.upload_id == uuid.UUID(upload_id))
            .order_by(StatusChange.id)
        ).all()
    assert [(r.from_status, r.to_status) for r in rows] == [
        (None, "queued"),
        ("queued", "processing"),
        ("processing", "completed"),
    ]


def _run_batch(env: WorkerEnv) -> dict[str, int]:
    with env.db.session() as session:
        batch = work_repo.claim_batch(session, env.owner, env.lease)
        assert batch is not None
        batch_id = str(batch.id)
        session.commit()
    return process_batch(batch_id)


def test_batch_unpacks_fans_out_and_derives_its_status(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    invoice_name, invoice = corpus_file("accept", ".xml")
    archive = make_zip(
        {
            f"in/{invoice_name}": invoice,
            "in/copy-of-invoice.xml": invoice,
            "in/letter.pdf": blank_pdf("letter"),
            "in/photo.png": corpus_file("unsupported_file_type")[1],
            "in/nested.zip": make_zip({"a.pdf": blank_pdf("a")}),
            "in/": b"",
            "__MACOSX/in/._letter.pdf": b"junk",
            "in/.DS_Store": b"junk",
        }
    )
    created = post_batch(api, company.headers, archive, documentType="auto").json()

    counts = _run_batch(env)

    assert counts == {"completed": 3, "failed": 2}
    body = api.get(f"/v1/uploads/batches/{created['id']}", headers=company.headers).json()
    assert body["status"] == "completed_with_errors"
    assert body["counts"] == {
        "total": 5,
        "queued": 0,
        "processing": 0,
        "completed": 3,
        "failed": 2,
        "deleted": 0,
    }
    by_name = {u["fileName"]: u for u in body["uploads"]}
    assert set(by_name) == {
        f"in/{invoice_name}",
        "in/copy-of-invoice.xml",
        "in/letter.pdf",
        "in/photo.png",
        "in/nested.zip",
    }
    assert all(
        u["documentType"] == "auto" and u["batchId"] == created["id"] for u in body["uploads"]
    )
    original, copy = by_name[f"in/{invoice_name}"], by_name["in/copy-of-invoice.xml"]
    assert original["result"]["id"] == copy["result"]["id"]  # booked once
    assert by_name["in/nested.zip"]["error"]["code"] == "unsupported_file_type"
    assert (
        "Retry-After"
        not in api.get(f"/v1/uploads/batches/{created['id']}", headers=company.headers).headers
    )


def test_a_batch_unpacked_ahead_of_its_run_is_not_unpacked_again(
    api: TestClient, company: Tenant, env: WorkerEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The batch loop unpacks a claimed batch while its flow run is being created; the
    run takes that outcome."""
    archive = make_zip({"a.pdf": blank_pdf("a"), "b.pdf": blank_pdf("b")})
    created = post_batch(api, company.headers, archive).json()
    with env.db.session() as session:
        batch = work_repo.claim_batch(session, env.owner, env.lease)
        assert batch is not None and str(batch.id) == created["id"]
        claimed = BatchInfo.of(batch)
        session.commit()
    with pipeline.unpacking_ahead(claimed):
        deadline = time.monotonic() + 60
        while _unpack_state(env, created["id"]) != "done":
            assert time.monotonic() < deadline
            time.sleep(0.05)

        def unpack_again(batch_id: uuid.UUID) -> int:
            raise AssertionError(f"batch {batch_id} unpacked twice")

        monkeypatch.setattr(pipeline, "_unpack", unpack_again)
        counts = process_batch(created["id"])
    assert counts == {"completed": 2}


def _unpack_state(env: WorkerEnv, batch_id: str) -> str:
    with env.db.read_session() as session:
        batch = session.get(Batch, uuid.UUID(batch_id))
        assert batch is not None
        return batch.unpack_state


def test_same_content_as_an_earlier_upload_completes_with_its_result(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    content = blank_pdf("twice")
    first = post_upload(api, company.headers, content, externalId="one").json()
    second = post_upload(api, company.headers, content, externalId="two").json()
    _drain()

    assert _get(api, company, first["id"])["result"] == _get(api, company, second["id"])["result"]


def test_entry_over_the_file_limit_fails_file_too_large(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    big = b"%PDF-1.4\n" + b"0" * env.settings.max_file_bytes
    created = post_batch(api, company.headers, make_zip({"big.pdf": big, "ok.pdf": blank_pdf()}))

    _run_batch(env)

    body = api.get(f"/v1/uploads/batches/{created.json()['id']}", headers=company.headers).json()
    errors = {u["fileName"]: (u["error"] or {}).get("code") for u in body["uploads"]}
    assert errors == {"big.pdf": "file_too_large", "ok.pdf": None}
    assert not any("entries/0" in key for key in env.store.list_keys())


def test_a_failed_e_invoice_keeps_every_finding(
    api: TestClient, company: Tenant, env: WorkerEnv
) -> None:
    name, content = corpus_file("invalid_e_invoice", ".xml")
    upload_id = post_upload(api, company.headers, content, name).json()["id"]
    _drain()

    body = _get(api, company, upload_id)
    error = body["error"]
    assert isinstance(error, dict) and error["code"] == "invalid_e_invoice"
    with env.db.read_session() as session:
        upload = session.get(Upload, uuid.UUID(upload_id))
        assert upload is not None and upload.error_details is not None
        findings = upload.error_details["findings"]
    failing = [f for f in findings if f["level"] in ("fatal", "error")]
    assert failing, findings
    assert {"id", "level", "text", "location", "stage"} <= set(failing[0])
    # The message names the first failing rule, and that rule is among the stored findings.
    assert failing[0]["id"] in str(error["message"])

"""The storage side of the result pages: deleting a result, retrying a failed upload,
confirming bank transactions. Results come from the real API and pipeline steps."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.deps import Services
from flows.unpack import BatchInfo, unpack
from storage.errors import ValidationFailed
from storage.models import Batch, Result
from storage.repositories import uploads as upload_repo
from storage.repositories import web_results
from storage.repositories import work as work_repo
from storage.repositories.web_results import NotRetryable, ResultLocked
from tests.api.helpers import make_zip, post_batch, post_upload
from tests.conftest import Tenant
from tests.web.results_helpers import (
    SLOW_LIMIT_SECONDS,
    allow_large_files,
    bank_statement,
    e_invoice,
    invalid_e_invoice,
    read_queued,
    result_id,
    send_and_read,
    slow_e_invoice,
    stored_result,
    stored_upload,
    time_limit,
    worker_env,
)


def _history(services: Services, upload_id: str | uuid.UUID) -> list[str]:
    with services.db.read_session() as session:
        return [h.to_status for h in upload_repo.history(session, uuid.UUID(str(upload_id)))]


def _delete(services: Services, tenant: Tenant, key: uuid.UUID) -> list[str] | None:
    with services.db.session() as session:
        uploads = web_results.delete_result(session, tenant.company_id, key)
        session.commit()
    return None if uploads is None else [str(upload.id) for upload in uploads]


def _processing_failed(client: TestClient, tenant: Tenant, services: Services) -> dict[str, Any]:
    """An e-invoice read under a time limit too short for it."""
    allow_large_files(services)
    name, content = slow_e_invoice()
    with time_limit(SLOW_LIMIT_SECONDS):
        body = send_and_read(client, tenant.headers, services, name, content)
    assert body["status"] == "failed", body
    assert isinstance(body["error"], dict) and body["error"]["code"] == "processing_failed"
    return body


# --- delete ----------------------------------------------------------------------------


def test_delete_marks_every_upload_of_the_result_deleted(
    client: TestClient, tenant: Tenant, services: Services
) -> None:
    name, content = e_invoice()
    first = send_and_read(client, tenant.headers, services, name, content, externalId="a")
    second = send_and_read(client, tenant.headers, services, name, content, externalId="b")
    key = result_id(first)
    assert result_id(second) == key  # the same content is booked once

    changed = _delete(services, tenant, key)

    assert sorted(changed or []) == sorted([first["id"], second["id"]])
    assert stored_result(services, key).deleted_at is not None
    for body in (first, second):
        upload = stored_upload(services, body["id"])
        assert (upload.status, upload.result_id, upload.error_code) == ("deleted", None, None)
        assert _history(services, body["id"])[-2:] == ["completed", "deleted"]
        api = client.get(f"/v1/uploads/{body['id']}", headers=tenant.headers).json()
        assert api["status"] == "deleted"
        assert api["result"] is None
    with services.db.read_session() as session:
        assert web_results.live_result(session, tenant.company_id, key) is None


def test_a_repeated_request_after_delete_reads_the_file_again(
    client: TestClient, tenant: Tenant, services: Services
) -> None:
    name, content = e_invoice()
    first = send_and_read(client, tenant.headers, services, name, content, externalId="inv-1")
    _delete(services, tenant, result_id(first))

    again = post_upload(client, tenant.headers, content, name, externalId="inv-1")
    assert again.json()["id"] == first["id"]
    assert again.json()["status"] == "queued"
    read_queued(services)
    body = client.get(f"/v1/uploads/{first['id']}", headers=tenant.headers).json()

    assert body["status"] == "completed"
    assert result_id(body) != result_id(first)
    assert stored_result(services, result_id(body)).deleted_at is None
    assert _history(services, first["id"])[-4:] == ["deleted", "queued", "processing", "completed"]


def test_another_companys_result_is_not_deleted(
    client: TestClient, tenant: Tenant, other_tenant: Tenant, services: Services
) -> None:
    name, content = e_invoice()
    body = send_and_read(client, tenant.headers, services, name, content)

    assert _delete(services, other_tenant, result_id(body)) is None
    assert stored_upload(services, body["id"]).status == "completed"
    assert stored_result(services, result_id(body)).deleted_at is None


def test_a_deleted_result_is_not_deleted_twice(
    client: TestClient, tenant: Tenant, services: Services
) -> None:
    name, content = e_invoice()
    body = send_and_read(client, tenant.headers, services, name, content)
    _delete(services, tenant, result_id(body))

    assert _delete(services, tenant, result_id(body)) is None
    assert _history(services, body["id"]).count("deleted") == 1


def test_a_statement_with_confirmed_transactions_is_locked_against_delete(
    client: TestClient, tenant: Tenant, services: Services
) -> None:
    name, content = bank_statement()
    body = send_and_read(
        client, tenant.headers, services, name, content, documentType="bank_statement"
    )
    key = result_id(body)
    with services.db.session() as session:
        result = web_results.live_result(session, tenant.company_id, key)
        assert result is not None
        web_results.confirm_transactions(session, result, [0], None)
        session.commit()

    with pytest.raises(ResultLocked):
        _delete(services, tenant, key)
    assert stored_upload(services, body["id"]).status == "completed"
    assert stored_result(services, key).deleted_at is None


# --- confirm ---------------------------------------------------------------------------


def _statement(client: TestClient, tenant: Tenant, services: Services) -> Result:
    name, content = bank_statement()
    body = send_and_read(
        client, tenant.headers, services, name, content, documentType="bank_statement"
    )
    return stored_result(services, result_id(body))


def _confirm(
    services: Services, result: Result, positions: list[int], user: None = None
) -> list[int]:
    with services.db.session() as session:
        live = session.get(Result, result.id)
        assert live is not None
        confirmed = web_results.confirm_transactions(session, live, positions, user)
        session.commit()
    return confirmed


def test_confirming_again_is_a_no_op_and_the_first_confirmation_stays(
    client: TestClient, tenant: Tenant, services: Services
) -> None:
    result = _statement(client, tenant, services)
    assert web_results.transaction_count(result) >= 2

    assert _confirm(services, result, [0]) == [0]
    with services.db.read_session() as session:
        first_at = web_results.confirmations(session, result.id)[0].confirmed_at
    assert _confirm(services, result, [0, 1, 1]) == [1]
    assert _confirm(services, result, [0, 1]) == []

    with services.db.read_session() as session:
        confirmed = web_results.confirmations(session, result.id)
    assert sorted(confirmed) == [0, 1]
    assert confirmed[0].confirmed_at == first_at
    # Confirming never touches what was read.
    assert stored_result(services, result.id).data == result.data


def test_confirming_positions_outside_the_statement_is_refused(
    client: TestClient, tenant: Tenant, services: Services
) -> None:
    result = _statement(client, tenant, services)
    count = web_results.transaction_count(result)

    for positions in ([count], [-1], [0, count + 5]):
        with pytest.raises(ValidationFailed):
            _confirm(services, result, positions)
    with services.db.read_session() as session:
        assert web_results.confirmations(session, result.id) == {}


def test_only_bank_statements_have_transactions_to_confirm(
    client: TestClient, tenant: Tenant, services: Services
) -> None:
    name, content = e_invoice()
    body = send_and_read(client, tenant.headers, services, name, content)

    with pytest.raises(ValidationFailed):
        _confirm(services, stored_result(services, result_id(body)), [0])


# --- retry -----------------------------------------------------------------------------


def _retry(services: Services, tenant: Tenant, upload_id: object) -> object:
    with services.db.session() as session:
        upload = web_results.retry_upload(session, tenant.company_id, uuid.UUID(str(upload_id)))
        session.commit()
    return upload


def test_retry_puts_a_processing_failed_upload_back_in_the_queue_and_it_is_read(
    client: TestClient, tenant: Tenant, services: Services
) -> None:
    failed = _processing_failed(client, tenant, services)
    assert stored_upload(services, failed["id"]).attempts == 1

    assert _retry(services, tenant, failed["id"]) is not None

    upload = stored_upload(services, failed["id"])
    assert (upload.status, upload.attempts, upload.error_code, upload.error_message) == (
        "queued",
        0,
        None,
        None,
    )
    assert upload.lease_owner is None
    assert _history(services, failed["id"])[-2:] == ["failed", "queued"]
    read_queued(services)
    body = client.get(f"/v1/uploads/{failed['id']}", headers=tenant.headers).json()
    assert body["status"] == "completed"
    assert body["result"]["type"] == "invoice"


def test_only_processing_failed_uploads_are_retried(
    client: TestClient, tenant: Tenant, services: Services
) -> None:
    name, content = invalid_e_invoice()
    invalid = send_and_read(client, tenant.headers, services, name, content)
    name, content = e_invoice()
    completed = send_and_read(client, tenant.headers, services, name, content)

    for body in (invalid, completed):
        with pytest.raises(NotRetryable):
            _retry(services, tenant, body["id"])
    assert stored_upload(services, invalid["id"]).error_code == "invalid_e_invoice"
    assert stored_upload(services, completed["id"]).status == "completed"


def test_another_companys_upload_is_not_retried(
    client: TestClient, tenant: Tenant, other_tenant: Tenant, services: Services
) -> None:
    failed = _processing_failed(client, tenant, services)

    assert _retry(services, other_tenant, failed["id"]) is None
    assert stored_upload(services, failed["id"]).status == "failed"


def _failed_batch_upload(
    client: TestClient, tenant: Tenant, services: Services, finish: bool = True
) -> tuple[uuid.UUID, uuid.UUID]:
    """A batch whose one e-invoice ran over the time limit, read as the batch flow
    does: claim the batch, unpack, claim its uploads, read, and (unless told) finish."""
    allow_large_files(services)
    name, content = slow_e_invoice()
    batch = post_batch(client, tenant.headers, make_zip({name: content})).json()
    batch_id = uuid.UUID(batch["id"])
    env = worker_env(services)
    with services.db.session() as session:
        claimed = work_repo.claim_batch(session, env.owner, env.lease)
        assert claimed is not None and claimed.id == batch_id
        info = BatchInfo.of(claimed)
        session.commit()
    unpack(env, info)
    with time_limit(SLOW_LIMIT_SECONDS):
        read_queued(services, batch_id)
    if finish:
        with services.db.session() as session:
            work_repo.finish_batch(session, batch_id, env.owner)
            session.commit()
    uploads = client.get(f"/v1/uploads/batches/{batch_id}", headers=tenant.headers).json()
    (entry,) = uploads["uploads"]
    assert (entry["error"] or {}).get("code") == "processing_failed", entry
    return batch_id, uuid.UUID(entry["id"])


def test_retry_of_a_batch_upload_reopens_its_finished_batch(
    client: TestClient, tenant: Tenant, services: Services
) -> None:
    batch_id, upload_id = _failed_batch_upload(client, tenant, services)

    _retry(services, tenant, upload_id)

    with services.db.read_session() as session:
        batch = session.get(Batch, batch_id)
        assert batch is not None and batch.finished_at is None
    read_queued(services, batch_id)
    assert stored_upload(services, upload_id).status == "completed"
    body = client.get(f"/v1/uploads/batches/{batch_id}", headers=tenant.headers).json()
    assert body["status"] == "completed"


def test_retry_waits_while_a_worker_holds_the_batch(
    client: TestClient, tenant: Tenant, services: Services
) -> None:
    _, upload_id = _failed_batch_upload(client, tenant, services, finish=False)

    with pytest.raises(NotRetryable):
        _retry(services, tenant, upload_id)
    assert stored_upload(services, upload_id).status == "failed"

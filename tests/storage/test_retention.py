"""The retention purge (storage/retention.py) on both backends: a deleted upload loses its
stored bytes and its result's data once the retention period is over, and not before;
completed uploads, and bytes or results that a kept upload still needs, stay. Files go
in through the real /v1 API and are read by the pipeline's own steps; results are
deleted as the web application deletes them."""

from __future__ import annotations

import threading
import uuid
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, select

from api.deps import Services
from storage.db import Database, locked
from storage.models import Result, Upload, utcnow
from storage.repositories import uploads as upload_repo
from storage.repositories import web_results
from storage.retention import PurgeRun, purge_deleted
from testkit.samples import blank_pdf
from tests.api.helpers import post_upload
from tests.conftest import Tenant, make_tenant
from tests.storage.retention_data import deleted_upload
from tests.web.results_helpers import read_queued, result_id, send_and_read, stored_upload

NOTHING = PurgeRun().counts()


def _send(
    client: TestClient, tenant: Tenant, services: Services, content: bytes, **fields: str
) -> dict[str, Any]:
    body = send_and_read(
        client,
        tenant.headers,
        services,
        "letter.pdf",
        content,
        documentType="other_document",
        **fields,
    )
    assert body["status"] == "completed", body
    return body


def _delete(services: Services, tenant: Tenant, key: uuid.UUID) -> None:
    with services.db.session() as session:
        assert web_results.delete_result(session, tenant.company_id, key)
        session.commit()


def _purge(services: Services, days_later: float) -> PurgeRun:
    """The purge as it runs `days_later` days from now, with the default period."""
    assert services.settings.purge_after_days == 30
    now = utcnow() + timedelta(days=days_later)
    return purge_deleted(services.db, services.store, services.settings.purge_after_days, now)


def _object_key(services: Services, upload_id: str) -> str:
    key = stored_upload(services, upload_id).object_key
    assert key is not None
    return key


def _result(services: Services, key: uuid.UUID) -> Result | None:
    with services.db.read_session() as session:
        return session.get(Result, key)


def _history(services: Services, upload_id: str) -> list[tuple[str | None, str, str | None]]:
    with services.db.read_session() as session:
        rows = upload_repo.history(session, uuid.UUID(upload_id))
    return [(row.from_status, row.to_status, row.event) for row in rows]


def test_a_deleted_upload_is_purged_after_the_retention_period_not_before(
    client: TestClient, tenant: Tenant, services: Services
) -> None:
    body = _send(client, tenant, services, blank_pdf("deleted"), externalId="deleted-1")
    key, result = _object_key(services, body["id"]), result_id(body)
    _delete(services, tenant, result)

    assert _purge(services, days_later=29).counts() == NOTHING
    assert services.store.exists(key)
    kept = _result(services, result)
    assert kept is not None and kept.data

    purged = _purge(services, days_later=31)

    assert (purged.uploads, purged.objects, purged.shared_objects, purged.results) == (1, 1, 0, 1)
    assert not services.store.exists(key)
    assert _result(services, result) is None
    upload = stored_upload(services, body["id"])
    assert (upload.status, upload.object_key, upload.result_id) == ("deleted", None, None)
    assert _history(services, body["id"]) == [
        (None, "queued", None),
        ("queued", "processing", None),
        ("processing", "completed", None),
        ("completed", "deleted", None),
        ("deleted", "deleted", "purged"),
    ]
    answer = client.get(f"/v1/uploads/{body['id']}", headers=tenant.headers).json()
    assert (answer["status"], answer["result"], answer["error"]) == ("deleted", None, None)
    assert _purge(services, days_later=31).counts() == NOTHING


def test_completed_uploads_are_kept(client: TestClient, tenant: Tenant, services: Services) -> None:
    body = _send(client, tenant, services, blank_pdf("kept"))

    assert _purge(services, days_later=3650).counts() == NOTHING

    assert services.store.exists(_object_key(services, body["id"]))
    assert stored_upload(services, body["id"]).status == "completed"
    kept = _result(services, result_id(body))
    assert kept is not None and kept.deleted_at is None and kept.data


def test_a_purged_upload_sent_again_is_read_from_the_file_it_brings(
    client: TestClient, tenant: Tenant, services: Services
) -> None:
    content = blank_pdf("again")
    body = _send(client, tenant, services, content, externalId="again-1")
    _delete(services, tenant, result_id(body))
    _purge(services, days_later=31)

    again = post_upload(
        client,
        tenant.headers,
        content,
        "letter.pdf",
        documentType="other_document",
        externalId="again-1",
    )
    assert again.status_code == 202 and again.json()["id"] == body["id"], again.text
    read_queued(services)

    answer = client.get(f"/v1/uploads/{body['id']}", headers=tenant.headers).json()
    assert answer["status"] == "completed", answer
    assert services.store.read_bytes(_object_key(services, body["id"])) == content


def test_content_shared_with_a_kept_upload_stays(
    client: TestClient, tenant: Tenant, services: Services
) -> None:
    """Two uploads of one content share its result; both are deleted with it, and one is
    sent again, read again, and completes with a new result of the same content."""
    content = blank_pdf("shared")
    first = _send(client, tenant, services, content, externalId="shared-1")
    second = _send(client, tenant, services, content, externalId="shared-2")
    deleted_result = result_id(first)
    assert result_id(second) == deleted_result, "one content, one booking"
    _delete(services, tenant, deleted_result)
    second = _send(client, tenant, services, content, externalId="shared-2")
    live_result = result_id(second)
    assert live_result != deleted_result

    purged = _purge(services, days_later=31)

    assert (purged.uploads, purged.objects, purged.results) == (1, 1, 1)
    assert stored_upload(services, first["id"]).object_key is None
    assert services.store.read_bytes(_object_key(services, second["id"])) == content
    assert _result(services, deleted_result) is None
    live = _result(services, live_result)
    assert live is not None and live.deleted_at is None and live.data
    answer = client.get(f"/v1/uploads/{second['id']}", headers=tenant.headers).json()
    assert answer["status"] == "completed"


def test_bytes_and_results_that_a_kept_upload_points_at_stay(
    client: TestClient, tenant: Tenant, services: Services
) -> None:
    """Stored bytes and results are kept while any row points at them, whoever else was
    deleted: as with content-addressed objects, where uploads of one content share one."""
    deleted = _send(client, tenant, services, blank_pdf("gone"))
    kept = _send(client, tenant, services, blank_pdf("stays"))
    shared_key, deleted_result = _object_key(services, deleted["id"]), result_id(deleted)
    _delete(services, tenant, deleted_result)
    with services.db.session() as session:
        row = session.get(Upload, uuid.UUID(kept["id"]))
        assert row is not None
        row.object_key, row.result_id = shared_key, deleted_result
        session.commit()

    purged = _purge(services, days_later=31)

    assert (purged.uploads, purged.objects, purged.shared_objects, purged.results) == (1, 0, 1, 0)
    assert stored_upload(services, deleted["id"]).object_key is None
    assert services.store.exists(shared_key)
    assert _result(services, deleted_result) is not None


def test_an_upload_a_repeated_request_holds_is_left_for_the_next_run(
    backend: str, fresh_engine: Engine, services: Services
) -> None:
    """A repeated request locks the deleted upload to read it again; the purge passes it
    by instead of waiting (SQLite has one writer at a time: there it waits its turn)."""
    if not backend.startswith("postgres"):
        pytest.skip("row locks are Postgres's; SQLite's writers take turns")
    db, store = Database(fresh_engine), services.store
    tenant = make_tenant(db)
    held, held_key, _ = deleted_upload(db, store, tenant.company_id, days_ago=40)
    _, free_key, _ = deleted_upload(db, store, tenant.company_id, days_ago=40)

    runs: list[PurgeRun] = []
    with db.session() as request:
        request.scalars(locked(request, select(Upload).where(Upload.id == held))).one()
        purge = threading.Thread(target=lambda: runs.append(purge_deleted(db, store, 30)))
        purge.start()
        purge.join(timeout=60)
        assert not purge.is_alive(), "the purge waited for the request's lock"
        assert store.exists(held_key) and not store.exists(free_key)
        request.rollback()
    runs.append(purge_deleted(db, store, 30))

    assert [run.uploads for run in runs] == [1, 1]
    assert not store.exists(held_key)

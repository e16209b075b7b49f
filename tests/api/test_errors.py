"""Unexpected errors, unavailable dependencies, health, and the OpenAPI document."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from api.app import create_app
from api.deps import Services
from storage.db import Database, make_engine
from storage.objectstore import LocalDirStore, ObjectStore, S3Store, make_minio_client
from storage.repositories import uploads as upload_repo
from storage.settings import Settings
from testkit.seaweed import free_port
from tests.api.helpers import assert_problem, dead_database, pdf_bytes, post_upload
from tests.conftest import Tenant, make_tenant
from tests.support.proxy import OutageProxy


def test_unexpected_error_is_a_500_problem_without_a_stack_trace(
    services: Services, tenant: Tenant
) -> None:
    app = create_app(services)

    def explode() -> None:
        raise RuntimeError("secret internal detail")

    app.add_api_route("/v1/explode", explode)
    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.get("/v1/explode", headers=tenant.headers)

    body = assert_problem(response, 500, "internal_error")
    assert "secret" not in response.text and "Traceback" not in response.text
    assert body["detail"] == "An unexpected error occurred."


def test_unknown_route_and_method_are_problems(client: TestClient, tenant: Tenant) -> None:
    assert_problem(client.get("/v1/nothing", headers=tenant.headers), 404, "not_found")
    assert_problem(client.delete("/v1/uploads", headers=tenant.headers), 405, "method_not_allowed")


def test_database_down_answers_503_and_stores_nothing(
    settings: Settings, store: ObjectStore
) -> None:
    services = Services(settings=settings, db=dead_database(), store=store)
    with TestClient(create_app(services), raise_server_exceptions=False) as client:
        headers = {"Authorization": "Bearer dik_whatever"}
        upload = post_upload(client, headers, pdf_bytes())
        health = client.get("/healthz")

    problem = assert_problem(upload, 503, "service_unavailable")
    assert int(upload.headers["Retry-After"]) >= 1
    assert "nothing was stored" in problem["detail"]
    assert health.status_code == 503
    assert health.json()["database"].startswith("unavailable")
    assert store.list_keys() == []


def test_object_store_down_answers_503_and_records_nothing(
    settings: Settings, database: Database, tenant: Tenant
) -> None:
    dead = make_minio_client(f"127.0.0.1:{free_port()}", "x", "y")
    services = Services(settings=settings, db=database, store=S3Store(dead, "docintake"))
    with TestClient(create_app(services), raise_server_exceptions=False) as client:
        upload = post_upload(client, tenant.headers, pdf_bytes(), externalId="while-down")
        health = client.get("/healthz")

    assert_problem(upload, 503, "service_unavailable")
    assert health.status_code == 503
    assert health.json()["objectStore"].startswith("unavailable")
    with database.session() as session:
        assert upload_repo.find_by_external_id(session, tenant.company_id, "while-down") is None


def test_healthz_answers_200_when_everything_answers(client: TestClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "objectStore": "ok"}


def test_openapi_describes_every_operation_and_its_problems(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    assert client.get("/docs").status_code == 200
    expected = {
        ("/v1/uploads", "post"): {"202", "401", "409", "413", "422", "429", "503"},
        ("/v1/uploads/batches", "post"): {"202", "401", "409", "413", "422", "429", "503"},
        ("/v1/uploads/{upload_id}", "get"): {"200", "401", "404", "429", "503"},
        ("/v1/uploads/batches/{batch_id}", "get"): {"200", "401", "404", "429", "503"},
    }
    for (path, method), statuses in expected.items():
        operation = spec["paths"][path][method]
        assert statuses <= set(operation["responses"]), (path, operation["responses"].keys())
        for status in statuses - {"200", "202"}:
            content = operation["responses"][status]["content"]
            assert "application/problem+json" in content
    assert "Problem" in spec["components"]["schemas"]
    upload_form = spec["paths"]["/v1/uploads"]["post"]["requestBody"]["content"]
    assert "file" in upload_form["multipart/form-data"]["schema"]["properties"]


def test_local_store_refuses_path_like_keys(tmp_path: Path) -> None:
    store = LocalDirStore(tmp_path)
    for key in ("../x", "a//b", "/abs", "a/./b", "a\\b"):
        with pytest.raises(ValueError):
            store.open_writer(key)


def test_after_a_database_restart_at_most_one_request_fails(
    backend: str, fresh_engine: Engine, settings: Settings, store: ObjectStore
) -> None:
    """Pooled connections are not pinged before use (storage/db.py): after a restart the
    first request on a stale connection answers 503, the pool is discarded, and every
    request after it is served again."""
    if not backend.startswith("postgres"):
        pytest.skip("SQLite has no connection to lose")
    proxy = OutageProxy("127.0.0.1", 5432)
    direct = fresh_engine.url.render_as_string(hide_password=False)
    database = Database(make_engine(direct.replace("127.0.0.1:5432", proxy.address)))
    tenant = make_tenant(Database(fresh_engine))
    services = Services(settings=settings, db=database, store=store)
    try:
        with TestClient(create_app(services), raise_server_exceptions=False) as client:
            created = post_upload(client, tenant.headers, pdf_bytes())
            assert created.status_code == 202, created.text
            path = f"/v1/uploads/{created.json()['id']}"
            assert client.get(path, headers=tenant.headers).status_code == 200

            proxy.cut()  # every pooled connection is gone, as when Postgres restarts
            proxy.restore()
            codes = [client.get(path, headers=tenant.headers).status_code for _ in range(6)]
    finally:
        database.engine.dispose()
        proxy.close()

    assert codes.count(503) <= 1, codes
    assert codes[1:] == [200] * 5, codes

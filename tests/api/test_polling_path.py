"""The polling GETs answered in front of FastAPI (api/v1/polling.py): the same answers
as the routes in the OpenAPI document, errors as problems, every other request to the
app."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.routing import BaseRoute

from api.app import create_app
from api.deps import Services
from api.v1 import polling
from api.v1.polling import PollingPath, batch_response, polled, upload_response
from storage.objectstore import ObjectStore
from storage.settings import Settings
from tests.api.helpers import (
    assert_problem,
    dead_database,
    make_zip,
    pdf_bytes,
    post_batch,
    post_upload,
)
from tests.conftest import Tenant

POLLED = ("/v1/uploads/{upload_id}", "/v1/uploads/batches/{batch_id}")


def _routes_only(services: Services) -> FastAPI:
    app = create_app(services)
    app.user_middleware = [entry for entry in app.user_middleware if entry.cls is not PollingPath]
    return app


@pytest.fixture
def routes_only(services: Services) -> Iterator[TestClient]:
    with TestClient(_routes_only(services), raise_server_exceptions=False) as client:
        yield client


def _paths(client: TestClient, tenant: Tenant, other: Tenant) -> list[str]:
    upload = post_upload(client, tenant.headers, pdf_bytes("polled")).json()["id"]
    archive = make_zip({f"{n}.pdf": pdf_bytes(str(n)) for n in range(3)})
    batch = post_batch(client, tenant.headers, archive).json()["id"]
    others = post_upload(client, other.headers, pdf_bytes("theirs")).json()["id"]
    return [
        f"/v1/uploads/{upload}",
        f"/v1/uploads/batches/{batch}",
        f"/v1/uploads/{others}",
        f"/v1/uploads/batches/{uuid.uuid4()}",
        "/v1/uploads/not-a-uuid",
        "/v1/uploads/batches",
        f"/v1/uploads/{upload}/",
        f"/v1/uploads/{upload}/more",
    ]


@pytest.mark.parametrize(
    "authorization", [None, "Bearer dik_unknown", "tenant"], ids=["none", "unknown", "valid"]
)
def test_the_polling_path_answers_as_the_routes_do(
    client: TestClient,
    routes_only: TestClient,
    tenant: Tenant,
    other_tenant: Tenant,
    authorization: str | None,
) -> None:
    headers = {"Authorization": authorization} if authorization else {}
    if authorization == "tenant":
        headers = tenant.headers
    for path in _paths(client, tenant, other_tenant):
        fast, routed = client.get(path, headers=headers), routes_only.get(path, headers=headers)

        assert (fast.status_code, fast.content) == (routed.status_code, routed.content), path
        assert fast.headers == routed.headers, path


def test_polls_are_answered_without_the_routes(
    services: Services, tenant: Tenant, other_tenant: Tenant
) -> None:
    app = create_app(services)
    app.router.routes = [route for route in app.router.routes if _path(route) not in POLLED]
    with TestClient(app, raise_server_exceptions=False) as client:
        upload, batch, *_ = _paths(client, tenant, other_tenant)

        assert client.get(upload, headers=tenant.headers).json()["status"] == "queued"
        assert client.get(batch, headers=tenant.headers).json()["status"] == "processing"


def _path(route: BaseRoute) -> str | None:
    return getattr(route, "path", None)


@pytest.mark.parametrize(
    ("method", "path", "answer"),
    [
        ("GET", "/v1/uploads/abc", upload_response),
        ("GET", "/v1/uploads/batches/abc", batch_response),
        ("GET", "/v1/uploads/batches", upload_response),  # an upload id, as the routes read it
        ("HEAD", "/v1/uploads/abc", None),
        ("POST", "/v1/uploads/abc", None),
        ("GET", "/v1/uploads/", None),
        ("GET", "/v1/uploads/batches/", None),
        ("GET", "/v1/uploads/abc/", None),
        ("GET", "/v1/uploads/batches/abc/x", None),
        ("GET", "/v1/webhook-endpoints/abc", None),
    ],
)
def test_only_the_two_polling_gets_take_the_path(method: str, path: str, answer: object) -> None:
    found = polled({"type": "http", "method": method, "path": path})

    assert (found[0] if found else None) is answer


def test_a_lifespan_event_does_not_take_the_path() -> None:
    assert polled({"type": "lifespan"}) is None


def test_an_unexpected_error_in_a_poll_is_a_500_problem_without_a_trace(
    client: TestClient, tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    def explode(*_: object) -> None:
        raise RuntimeError("secret internal detail")

    monkeypatch.setattr(polling, "keyed_upload_view", explode)
    response = client.get(f"/v1/uploads/{uuid.uuid4()}", headers=tenant.headers)

    body = assert_problem(response, 500, "internal_error")
    assert "secret" not in response.text and "Traceback" not in response.text
    assert body["detail"] == "An unexpected error occurred."


def test_polls_answer_503_while_the_database_is_down(
    settings: Settings, store: ObjectStore
) -> None:
    services = Services(settings=settings, db=dead_database(), store=store)
    headers = {"Authorization": "Bearer dik_whatever"}
    with TestClient(create_app(services), raise_server_exceptions=False) as client:
        for path in (f"/v1/uploads/{uuid.uuid4()}", f"/v1/uploads/batches/{uuid.uuid4()}"):
            response = client.get(path, headers=headers)

            assert_problem(response, 503, "service_unavailable")
            assert int(response.headers["Retry-After"]) >= 1

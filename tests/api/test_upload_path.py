"""`POST /v1/uploads` answered in front of FastAPI (api/v1/upload_path.py): the same
answers as the route in the OpenAPI document, byte for byte, for good and bad requests;
errors as problems; every other request to the app."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from httpx2 import Response
from starlette.routing import BaseRoute

from api.app import create_app
from api.deps import Services
from api.v1 import uploads
from api.v1.upload_path import UploadPath, is_single_upload
from storage.objectstore import ObjectStore
from storage.settings import Settings
from tests.api.helpers import assert_problem, dead_database, pdf_bytes, post_upload
from tests.conftest import Tenant

BOUNDARY = "upload-path-boundary"
Send = Callable[[TestClient, dict[str, str]], Response]


def _routes_only(services: Services) -> FastAPI:
    app = create_app(services)
    fast_path: Any = UploadPath
    app.user_middleware = [entry for entry in app.user_middleware if entry.cls is not fast_path]
    return app


@pytest.fixture
def routes_only(services: Services) -> Iterator[TestClient]:
    with TestClient(_routes_only(services), raise_server_exceptions=False) as client:
        yield client


def _multipart(parts: list[tuple[str, str | None, bytes]], close: bool = True) -> bytes:
    body = b""
    for name, file_name, data in parts:
        disposition = f'form-data; name="{name}"'
        if file_name is not None:
            disposition += f'; filename="{file_name}"'
        body += f"--{BOUNDARY}\r\nContent-Disposition: {disposition}\r\n\r\n".encode()
        body += data + b"\r\n"
    return body + (f"--{BOUNDARY}--\r\n".encode() if close else b"")


def _raw(body: bytes, content_type: str = f"multipart/form-data; boundary={BOUNDARY}") -> Send:
    def send(client: TestClient, headers: dict[str, str]) -> Response:
        return client.post(
            "/v1/uploads", headers={**headers, "Content-Type": content_type}, content=body
        )

    return send


def _file(content: bytes, file_name: str = "invoice.pdf", **fields: str) -> Send:
    return lambda client, headers: post_upload(client, headers, content, file_name, **fields)


FILE = ("file", "a.pdf", pdf_bytes("part"))
BAD_REQUESTS: dict[str, Send] = {
    "json body": lambda client, headers: client.post("/v1/uploads", headers=headers, json={}),
    "no body": lambda client, headers: client.post("/v1/uploads", headers=headers),
    "no boundary": _raw(b"x", "multipart/form-data"),
    "not multipart": _raw(b"%PDF-1.4", "application/pdf"),
    "no file field": _raw(_multipart([("documentType", None, b"auto")])),
    "empty file": _raw(_multipart([("file", "a.pdf", b"")])),
    "two files": _raw(_multipart([FILE, FILE])),
    "unknown documentType": _file(pdf_bytes("t"), documentType="receipt"),
    "documentType in capitals": _file(pdf_bytes("t"), documentType="AUTO"),
    "repeated field": _raw(
        _multipart([FILE, ("externalId", None, b"a"), ("externalId", None, b"b")])
    ),
    "externalId too long": _file(pdf_bytes("t"), externalId="x" * 256),
    "empty externalId": _raw(_multipart([FILE, ("externalId", None, b"")])),
    "externalId not UTF-8": _raw(_multipart([FILE, ("externalId", None, b"\xff\xfe")])),
    "file name not UTF-8": _raw(_multipart([("file", "NAME", b"x")]).replace(b"NAME", b"\xff")),
    "file name with a control character": _raw(_multipart([("file", "a\x01b.pdf", b"x")])),
    "file name only directories": _file(pdf_bytes("t"), "../"),
    "body ends early": _raw(_multipart([FILE], close=False)),
    "garbage": _raw(b"\x00\x01garbage" * 100),
    "too many fields": _raw(_multipart([FILE, *[(f"f{n}", None, b"v") for n in range(40)]])),
    "field too long": _raw(_multipart([FILE, ("externalId", None, b"x" * 5000)])),
}
AUTHORIZATIONS = {
    "none": {},
    "empty": {"Authorization": ""},
    "basic": {"Authorization": "Basic dXNlcjpwYXNz"},
    "unknown key": {"Authorization": "Bearer dik_unknown"},
    "overlong key": {"Authorization": "Bearer " + "k" * 300},
}


def _same(fast: Response, routed: Response, case: str) -> None:
    assert (fast.status_code, fast.content) == (routed.status_code, routed.content), case
    assert fast.headers == routed.headers, case


@pytest.mark.parametrize("case", sorted(BAD_REQUESTS))
def test_bad_requests_are_answered_as_the_route_does(
    client: TestClient, routes_only: TestClient, tenant: Tenant, case: str
) -> None:
    send = BAD_REQUESTS[case]
    fast, routed = send(client, tenant.headers), send(routes_only, tenant.headers)

    assert fast.status_code in (409, 422), fast.text
    _same(fast, routed, case)


@pytest.mark.parametrize("authorization", sorted(AUTHORIZATIONS))
def test_requests_without_a_valid_key_are_answered_as_the_route_does(
    client: TestClient, routes_only: TestClient, authorization: str
) -> None:
    headers = AUTHORIZATIONS[authorization]
    for case, send in [("a file", _file(pdf_bytes("k"))), *BAD_REQUESTS.items()]:
        fast, routed = send(client, headers), send(routes_only, headers)

        assert_problem(fast, 401, "unauthorized")
        _same(fast, routed, f"{authorization}: {case}")


def test_repeats_and_conflicts_are_answered_as_the_route_does(
    client: TestClient, routes_only: TestClient, tenant: Tenant
) -> None:
    cases = {
        "repeat": _file(pdf_bytes("same")),
        "repeat with externalId": _file(pdf_bytes("keyed"), externalId="R-1"),
        "externalId with another file": _file(pdf_bytes("other"), externalId="R-1"),
        "another documentType": _file(pdf_bytes("same"), documentType="supplier_invoice"),
    }
    assert _file(pdf_bytes("keyed"), externalId="R-1")(client, tenant.headers).status_code == 202
    for case, send in cases.items():
        send(client, tenant.headers)  # the first time is new: compare the repeats
        fast, routed = send(client, tenant.headers), send(routes_only, tenant.headers)

        assert fast.status_code in (202, 409), fast.text
        _same(fast, routed, case)


ISO_TIME = re.compile(rb'"\d{4}-\d\d-\d\dT[0-9:.]+Z"')


def _without_identity(response: Response) -> bytes:
    """The body with the upload's own id and times taken out: all else is the same."""
    upload_id = response.json()["id"].encode()
    return ISO_TIME.sub(b'"<time>"', response.content.replace(upload_id, b"<id>"))


@pytest.mark.parametrize(
    "fields",
    [
        {},
        {"documentType": "supplier_invoice", "externalId": "X-7"},
        {"documentType": "other_document"},
    ],
)
def test_new_uploads_are_answered_as_the_route_does(
    client: TestClient,
    routes_only: TestClient,
    tenant: Tenant,
    other_tenant: Tenant,
    fields: dict[str, str],
) -> None:
    send = _file(pdf_bytes("new"), "dir/Rechnung März.pdf", **fields)
    fast, routed = send(client, tenant.headers), send(routes_only, other_tenant.headers)

    assert fast.status_code == 202
    assert (fast.status_code, _without_identity(fast)) == (
        routed.status_code,
        _without_identity(routed),
    )
    assert fast.headers == routed.headers


def test_a_single_upload_is_answered_without_the_route(services: Services, tenant: Tenant) -> None:
    app = create_app(services)
    app.router.routes = [route for route in app.router.routes if _path(route) != "/v1/uploads"]
    with TestClient(app, raise_server_exceptions=False) as client:
        response = post_upload(client, tenant.headers, pdf_bytes("no route"))

        assert response.status_code == 202
        assert (
            client.get(f"/v1/uploads/{response.json()['id']}", headers=tenant.headers).status_code
            == 200
        )


def _path(route: BaseRoute) -> str | None:
    return getattr(route, "path", None)


@pytest.mark.parametrize(
    ("method", "path", "taken"),
    [
        ("POST", "/v1/uploads", True),
        ("POST", "/v1/uploads/", False),
        ("POST", "/v1/uploads/batches", False),
        ("PUT", "/v1/uploads", False),
        ("GET", "/v1/uploads", False),
        ("POST", "/v1/uploadsx", False),
    ],
)
def test_only_the_single_upload_post_takes_the_path(method: str, path: str, taken: bool) -> None:
    assert is_single_upload({"type": "http", "method": method, "path": path}) is taken


def test_a_lifespan_event_does_not_take_the_path() -> None:
    assert not is_single_upload({"type": "lifespan"})


def test_an_unexpected_error_is_a_500_problem_without_a_trace_and_keeps_nothing(
    client: TestClient, tenant: Tenant, store: ObjectStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    def explode(*_: Any) -> None:
        raise RuntimeError("secret internal detail")

    monkeypatch.setattr(uploads, "claim_new_upload", explode)
    response = post_upload(client, tenant.headers, pdf_bytes("boom"))

    body = assert_problem(response, 500, "internal_error")
    assert "secret" not in response.text and "Traceback" not in response.text
    assert body["detail"] == "An unexpected error occurred."
    assert store.list_keys() == []


def test_with_the_database_down_both_answer_503(settings: Settings, store: ObjectStore) -> None:
    services = Services(settings=settings, db=dead_database(), store=store)
    headers = {"Authorization": "Bearer dik_whatever"}
    with (
        TestClient(create_app(services), raise_server_exceptions=False) as client,
        TestClient(_routes_only(services), raise_server_exceptions=False) as routes_only,
    ):
        send = _file(pdf_bytes("down"))
        fast, routed = send(client, headers), send(routes_only, headers)

        assert_problem(fast, 503, "service_unavailable")
        _same(fast, routed, "database down")

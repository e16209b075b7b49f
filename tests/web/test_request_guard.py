"""The guard in front of /app: form bodies capped before parsing (declared and chunked
bytes by the one cap of every route, api/request_limits.py, answered 413 problem+json;
field counts, answered with the app's error page); and the security headers on every
kind of answer under /app, but not on the API."""

from __future__ import annotations

from collections.abc import Iterator

from fastapi.testclient import TestClient
from httpx2 import Response

from api.app import create_app
from api.deps import Services
from api.web.limits import MAX_FORM_BYTES, MAX_FORM_FIELDS
from api.web.security_headers import CONTENT_SECURITY_POLICY
from storage.db import Database
from testkit.hostile_http import stream
from tests.api.helpers import assert_problem
from tests.support.live import serve
from tests.web.results_helpers import e_invoice, result_id, result_path, send_and_read
from tests.web.support import Account, csrf_in, seed_upload, session_csrf

FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def assert_error_page(response: Response, status: int, title: str) -> None:
    assert response.status_code == status
    text = response.text
    assert text.startswith("<!doctype html>") and f"<h1>{title}</h1>" in text
    assert "Traceback" not in text


# --- caps ------------------------------------------------------------------------------


def test_a_declared_body_over_the_cap_is_refused(
    web_client: TestClient, database: Database
) -> None:
    body = "csrf_token=" + session_csrf(web_client, database) + "&name=" + "x" * MAX_FORM_BYTES
    response = web_client.post("/app/settings", content=body, headers=FORM)
    assert_problem(response, 413, "request_too_large")
    assert response.headers["connection"] == "close"


def test_a_chunked_body_over_the_cap_is_refused(web_client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(MAX_FORM_BYTES // 65536 + 2):
            yield b"a" * 65536

    response = web_client.post("/app/settings", content=chunks(), headers=FORM)
    assert_problem(response, 413, "request_too_large")


def test_too_many_fields_are_refused(web_client: TestClient) -> None:
    body = "&".join(["position=1"] * (MAX_FORM_FIELDS + 1))
    response = web_client.post("/app/logout", content=body, headers=FORM)
    assert_error_page(response, 400, "Bad request")
    assert "more fields" in response.text


def test_a_body_that_is_not_a_form_is_refused(web_client: TestClient) -> None:
    response = web_client.post(
        "/app/logout", content=b'{"csrf_token": "x"}', headers={"Content-Type": "application/json"}
    )
    assert_error_page(response, 415, "Unsupported form")


def test_a_body_over_the_cap_is_refused_before_login(client: TestClient) -> None:
    response = client.post("/app/login", content="a" * (MAX_FORM_BYTES + 1), headers=FORM)
    assert_problem(response, 413, "request_too_large")


def test_the_largest_real_forms_pass_the_caps(
    web_client: TestClient, database: Database, account: Account
) -> None:
    csrf = session_csrf(web_client, database)
    ibans = "\r\n".join(["DE89 3704 0044 0532 0130 00"] * 340)  # 9,858 of 10,000 characters
    settings = web_client.post(
        "/app/settings",
        data={"csrf_token": csrf, "name": "Ä" * 255, "vat_ids": "", "ibans": ibans, "locale": "de"},
        follow_redirects=False,
    )
    assert settings.status_code == 303, settings.text

    upload = seed_upload(database, account.company_id)
    positions = "&".join(f"position={index}" for index in range(MAX_FORM_FIELDS - 2))
    confirm = web_client.post(
        f"/app/bank-imports/{upload}/confirm",
        content=f"csrf_token={csrf}&{positions}",
        headers=FORM,
    )
    assert_error_page(confirm, 404, "Not found")  # read whole and parsed: no such statement


def _head(transfer: str) -> bytes:
    return (
        "POST /app/login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Content-Type: application/x-www-form-urlencoded\r\n{transfer}\r\n\r\n"
    ).encode()


def test_the_server_answers_before_reading_a_body_declared_too_large(
    services: Services,
) -> None:
    declared = 100 * MAX_FORM_BYTES
    with serve(create_app(services)) as url:
        answer = stream(
            url, _head(f"Content-Length: {declared}"), (b"a" * 65536 for _ in range(1600))
        )
    assert answer.status == 413
    assert answer.sent < declared // 10


def test_the_server_stops_a_chunked_body_at_the_cap(services: Services) -> None:
    chunk = b"10000\r\n" + b"a" * 65536 + b"\r\n"  # 64 KiB chunks, never the last one
    with serve(create_app(services)) as url:
        answer = stream(url, _head("Transfer-Encoding: chunked"), (chunk for _ in range(1600)))
    assert answer.status == 413
    assert answer.sent < 10 * MAX_FORM_BYTES


# --- security headers ------------------------------------------------------------------


def assert_secured(response: Response, https: bool = False) -> None:
    headers = response.headers
    assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert "frame-ancestors 'none'" in CONTENT_SECURITY_POLICY
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"
    assert ("strict-transport-security" in headers) is https


def test_every_kind_of_page_is_sent_with_the_security_headers(
    web_client: TestClient, account: Account, services: Services, client: TestClient
) -> None:
    name, content = e_invoice()
    body = send_and_read(web_client, account.headers, services, name, content)
    path = result_path(body)
    answers = [
        web_client.get("/app/uploads"),  # a page
        web_client.get(path),  # a result page
        web_client.get(f"/app/results/{result_id(body)}/original"),  # a download
        web_client.get("/app/static/app.css"),  # a static file
        web_client.get("/app/nothing-here"),  # an error page
        web_client.get("/app", follow_redirects=False),  # a redirect
        web_client.post("/app/logout", data={}),  # a refused form
    ]
    for answer in answers:
        assert_secured(answer)
    assert [answer.status_code for answer in answers] == [200, 200, 200, 200, 404, 303, 403]


def test_the_login_page_and_its_refusals_have_the_headers(client: TestClient) -> None:
    assert_secured(client.get("/app/login"))
    form = client.get("/app/login")
    refused = client.post(
        "/app/login", data={"email": "a@b.c", "password": "x", "csrf_token": csrf_in(form.text)}
    )
    assert_secured(refused)


def test_https_adds_strict_transport_security(services: Services) -> None:
    https = services.settings.model_copy(update={"public_base_url": "https://docs.example"})
    secure = Services(settings=https, db=services.db, store=services.store)
    with TestClient(create_app(secure), base_url="https://docs.example") as client:
        assert_secured(client.get("/app/login"), https=True)
    with TestClient(create_app(services), base_url="https://testserver") as client:
        assert_secured(client.get("/app/login"), https=True)  # the request came over https


def test_the_api_keeps_its_own_headers(client: TestClient) -> None:
    response = client.get("/v1/uploads/00000000-0000-0000-0000-000000000000")
    assert "content-security-policy" not in response.headers

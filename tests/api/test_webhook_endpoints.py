"""POST/GET/DELETE /v1/webhook-endpoints: the company's own endpoints only, at most 20,
the secret shown once, rotation, problem+json errors; the events in OpenAPI's `webhooks`
section."""

from __future__ import annotations

import base64
import re
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient

from tests.api.helpers import assert_problem
from tests.conftest import Tenant

ENDPOINTS = "/v1/webhook-endpoints"
TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


def _create(client: TestClient, tenant: Tenant, **body: object) -> dict[str, object]:
    body = {"url": "https://hooks.example.com/docintake", "events": ["upload.completed"], **body}
    response = client.post(ENDPOINTS, headers=tenant.headers, json=body)
    assert response.status_code == 201, response.text
    created: dict[str, object] = response.json()
    return created


def test_created_with_a_secret_shown_once(client: TestClient, tenant: Tenant) -> None:
    created = _create(client, tenant, events=["upload.failed", "batch.completed", "upload.failed"])
    assert set(created) == {"id", "url", "events", "secret", "createdAt"}
    assert created["url"] == "https://hooks.example.com/docintake"
    assert created["events"] == ["upload.failed", "batch.completed"]
    assert TIMESTAMP.match(str(created["createdAt"]))
    secret = str(created["secret"])
    assert secret.startswith("whsec_") and len(base64.b64decode(secret[6:])) == 32

    listed = client.get(ENDPOINTS, headers=tenant.headers)
    assert listed.status_code == 200
    assert listed.json() == [{k: v for k, v in created.items() if k != "secret"}]
    assert secret not in listed.text


def test_each_company_sees_and_deletes_only_its_own(
    client: TestClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    mine = _create(client, tenant)
    theirs = _create(client, other_tenant, url="http://hooks.example.org/x")
    assert [e["id"] for e in client.get(ENDPOINTS, headers=tenant.headers).json()] == [mine["id"]]

    response = client.delete(f"{ENDPOINTS}/{theirs['id']}", headers=tenant.headers)
    assert_problem(response, 404, "not_found")
    assert len(client.get(ENDPOINTS, headers=other_tenant.headers).json()) == 1

    deleted = client.delete(f"{ENDPOINTS}/{mine['id']}", headers=tenant.headers)
    assert deleted.status_code == 204 and deleted.content == b""
    assert client.get(ENDPOINTS, headers=tenant.headers).json() == []
    again = client.delete(f"{ENDPOINTS}/{mine['id']}", headers=tenant.headers)
    assert_problem(again, 404, "not_found")
    assert_problem(
        client.delete(f"{ENDPOINTS}/not-a-uuid", headers=tenant.headers), 404, "not_found"
    )


@pytest.mark.parametrize(
    "body",
    [
        {"url": "ftp://example.com/x", "events": ["upload.completed"]},
        {"url": "https://user:pass@example.com/", "events": ["upload.completed"]},
        {"url": "https://example.com/a b", "events": ["upload.completed"]},
        {"url": "example.com", "events": ["upload.completed"]},
        {"url": "http://[::1]:8000/", "events": ["upload.completed"]},
        {"url": "http://example.com:70000/", "events": ["upload.completed"]},
        {"url": "https://example.com/" + "a" * 2048, "events": ["upload.completed"]},
        {"url": "https://example.com/", "events": []},
        {"url": "https://example.com/", "events": ["upload.queued"]},
        {"url": "https://example.com/"},
        {"events": ["upload.completed"]},
    ],
)
def test_invalid_bodies_are_problems(
    client: TestClient, tenant: Tenant, body: dict[str, object]
) -> None:
    response = client.post(ENDPOINTS, headers=tenant.headers, json=body)
    assert_problem(response, 422, "validation_error")


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", ENDPOINTS),
        ("post", ENDPOINTS),
        ("delete", f"{ENDPOINTS}/0d3f6a2b-1c4e-4b5a-9f8e-7d6c5b4a3921"),  # fixed for xdist
    ],
)
def test_the_api_key_is_required(client: TestClient, method: str, path: str) -> None:
    response = client.request(method, path, json={"url": "https://a.example", "events": []})
    assert_problem(response, 401, "unauthorized")


def test_openapi_describes_the_endpoints_and_the_events(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    assert document["openapi"].startswith("3.1")
    assert {"post", "get"} <= set(document["paths"][ENDPOINTS])
    assert "delete" in document["paths"][ENDPOINTS + "/{endpoint_id}"]
    hooks = document["webhooks"]
    assert set(hooks) == {
        "upload.completed",
        "upload.failed",
        "upload.deleted",
        "batch.completed",
        "result.confirmed",
        "result.deleted",
    }
    body = hooks["batch.completed"]["post"]["requestBody"]["content"]["application/json"]
    event = document["components"]["schemas"][body["schema"]["$ref"].rsplit("/", 1)[1]]
    # The very component the GET endpoint answers with.
    assert event["properties"]["data"]["allOf"] == [{"$ref": "#/components/schemas/BatchOut"}]
    assert "webhook-signature" in hooks["upload.completed"]["post"]["description"]


def test_other_methods_name_both_allowed_ones(client: TestClient, tenant: Tenant) -> None:
    response = client.request("PATCH", ENDPOINTS, headers=tenant.headers)
    assert_problem(response, 405, "method_not_allowed")
    assert response.headers["Allow"] == "GET, POST"


def test_a_company_has_at_most_twenty_endpoints(
    client: TestClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    created = [_create(client, tenant, url=f"https://hooks.example.com/{n}") for n in range(20)]
    body = {"url": "https://hooks.example.com/21", "events": ["upload.completed"]}
    refused = client.post(ENDPOINTS, headers=tenant.headers, json=body)
    assert_problem(refused, 409, "too_many_webhook_endpoints")
    assert "at most 20" in refused.json()["detail"]
    assert len(client.get(ENDPOINTS, headers=tenant.headers).json()) == 20
    _create(client, other_tenant)  # the cap is per company

    client.delete(f"{ENDPOINTS}/{created[0]['id']}", headers=tenant.headers)
    _create(client, tenant, url="https://hooks.example.com/21")


def test_rotating_gives_a_new_secret_and_keeps_the_old_one_for_a_day(
    client: TestClient, tenant: Tenant, other_tenant: Tenant
) -> None:
    created = _create(client, tenant)
    rotate = f"{ENDPOINTS}/{created['id']}/rotate-secret"
    assert_problem(client.post(rotate, headers=other_tenant.headers), 404, "not_found")
    assert_problem(
        client.post(f"{ENDPOINTS}/not-a-uuid/rotate-secret", headers=tenant.headers),
        404,
        "not_found",
    )

    response = client.post(rotate, headers=tenant.headers)
    assert response.status_code == 200, response.text
    rotated = response.json()
    assert set(rotated) == {"id", "url", "events", "secret", "createdAt", "previousSecretExpiresAt"}
    assert rotated["id"] == created["id"] and rotated["secret"] != created["secret"]
    assert str(rotated["secret"]).startswith("whsec_")
    expires = datetime.fromisoformat(str(rotated["previousSecretExpiresAt"]))
    assert abs(expires - datetime.now(UTC) - timedelta(hours=24)) < timedelta(minutes=1)
    assert rotated["secret"] not in client.get(ENDPOINTS, headers=tenant.headers).text

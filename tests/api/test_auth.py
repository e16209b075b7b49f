"""Bearer API keys on every /v1 endpoint; rate limits per key."""

from __future__ import annotations

import uuid

import pytest
from fastapi.testclient import TestClient

from api.deps import Services
from storage.repositories import api_keys
from tests.api.helpers import assert_problem, make_zip, pdf_bytes
from tests.conftest import Tenant

ENDPOINTS = [
    ("post", "/v1/uploads"),
    ("post", "/v1/uploads/batches"),
    # Fixed ids: test ids must be the same in every collection (pytest-xdist compares them).
    ("get", "/v1/uploads/5b0f3c1e-8d2a-4f6b-9c3d-0e1f2a3b4c5d"),
    ("get", "/v1/uploads/batches/7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f"),
]


def _call(client: TestClient, method: str, path: str, headers: dict[str, str]):  # type: ignore[no-untyped-def]
    if method == "post":
        content = make_zip({"a.pdf": pdf_bytes()}) if "batches" in path else pdf_bytes()
        return client.post(path, headers=headers, files={"file": ("a", content)})
    return client.get(path, headers=headers)


@pytest.mark.parametrize(("method", "path"), ENDPOINTS)
@pytest.mark.parametrize(
    "authorization",
    [None, "", "Bearer", "Bearer ", "Basic dXNlcjpwYXNz", "Bearer dik_unknown", "bearer x y"],
)
def test_missing_malformed_or_unknown_keys_are_unauthorized(
    client: TestClient, method: str, path: str, authorization: str | None
) -> None:
    headers = {} if authorization is None else {"Authorization": authorization}

    response = _call(client, method, path, headers)

    assert_problem(response, 401, "unauthorized")
    assert response.headers["WWW-Authenticate"] == "Bearer"


def test_revoked_key_is_refused_at_once(
    client: TestClient, tenant: Tenant, services: Services
) -> None:
    assert client.get(f"/v1/uploads/{uuid.uuid4()}", headers=tenant.headers).status_code == 404
    with services.db.session() as session:
        (key,) = api_keys.list_api_keys(session, tenant.company_id)
        assert key.last_used_at is not None
        assert api_keys.revoke_api_key(session, tenant.company_id, key.id)
        session.commit()

    response = client.get(f"/v1/uploads/{uuid.uuid4()}", headers=tenant.headers)
    assert_problem(response, 401, "unauthorized")


def test_keys_are_stored_only_as_hashes(tenant: Tenant, services: Services) -> None:
    with services.db.session() as session:
        (key,) = api_keys.list_api_keys(session, tenant.company_id)
    assert tenant.api_key not in (key.key_hash, key.prefix)
    assert key.key_hash == api_keys.hash_key(tenant.api_key)
    assert tenant.api_key.startswith(key.prefix)


def test_request_rate_above_the_limit_is_rate_limited(
    client: TestClient, tenant: Tenant, other_tenant: Tenant, services: Services
) -> None:
    from api.ratelimit import RateLimiter

    services.rate_limiter = RateLimiter(per_second=0.1, burst=3)  # no refill on a slow run
    path = f"/v1/uploads/{uuid.uuid4()}"
    statuses = [client.get(path, headers=tenant.headers).status_code for _ in range(3)]
    assert statuses == [404, 404, 404]

    limited = client.get(path, headers=tenant.headers)
    assert_problem(limited, 429, "rate_limited")
    assert 1 <= int(limited.headers["Retry-After"]) <= 30
    assert client.get(path, headers=other_tenant.headers).status_code == 404

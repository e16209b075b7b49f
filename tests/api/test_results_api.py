"""GET /v1/results/{id}, its original, and the listing: results made by the real API and
pipeline steps (tests/web/results_helpers.py), read back as data."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi.testclient import TestClient
from pydantic import TypeAdapter

from api.deps import Services
from api.v1.result_models import ResultOut
from storage.repositories import web_results
from tests.api.helpers import assert_problem
from tests.conftest import Tenant
from tests.web.results_helpers import (
    bank_statement,
    e_invoice,
    payment_file,
    plain_pdf,
    result_id,
    send_and_read,
)

RESULT = TypeAdapter(ResultOut)


def _read(
    client: TestClient, tenant: Tenant, services: Services, document: Any, **fields: str
) -> uuid.UUID:
    name, content = document
    return result_id(send_and_read(client, tenant.headers, services, name, content, **fields))


def _statement(client: TestClient, tenant: Tenant, services: Services) -> uuid.UUID:
    return _read(client, tenant, services, bank_statement(), documentType="bank_statement")


def _get(client: TestClient, tenant: Tenant, key: uuid.UUID, **headers: str) -> Any:
    return client.get(f"/v1/results/{key}", headers={**tenant.headers, **headers})


def test_an_invoice_as_data(client: TestClient, tenant: Tenant, services: Services) -> None:
    key = _read(client, tenant, services, e_invoice())
    response = _get(client, tenant, key)
    assert response.status_code == 200, response.text
    body = response.json()
    RESULT.validate_python(body)
    assert body["type"] == "invoice" and body["id"] == str(key)
    assert body["schemaVersion"] == 1 and body["changeSequence"] >= 1
    invoice = body["data"]["invoice"]
    assert isinstance(invoice["totals"]["gross"], str)  # amounts: decimal strings
    assert invoice["issueDate"].count("-") == 2  # ISO 8601
    assert body["data"]["validation"]["valid"] is True
    assert body["url"].endswith(f"/app/invoices/{key}")
    assert body["original"].endswith(f"/v1/results/{key}/original")


def test_every_result_type_fits_its_schema(
    client: TestClient, tenant: Tenant, services: Services
) -> None:
    keys = {
        "bank_statement": _statement(client, tenant, services),
        "payment_file": _read(client, tenant, services, payment_file()),
        "other_document": _read(client, tenant, services, plain_pdf()),
    }
    for result_type, key in keys.items():
        body = _get(client, tenant, key).json()
        assert body["type"] == result_type, body
        RESULT.validate_python(body)


def test_confirmed_transactions_and_the_change_sequence(
    client: TestClient, tenant: Tenant, services: Services
) -> None:
    key = _statement(client, tenant, services)
    before = _get(client, tenant, key)
    with services.db.session() as session:
        result = web_results.live_result(session, tenant.company_id, key, lock=True)
        assert result is not None
        web_results.confirm_transactions(session, result, [0], None)
        session.commit()
    after = _get(client, tenant, key, **{"If-None-Match": before.headers["etag"]})
    assert after.status_code == 200  # changed: the old ETag no longer matches
    transactions = after.json()["data"]["transactions"]
    assert transactions[0]["confirmed"] is True
    assert not any(t["confirmed"] for t in transactions[1:])
    assert after.json()["changeSequence"] > before.json()["changeSequence"]


def test_etag_and_if_none_match(client: TestClient, tenant: Tenant, services: Services) -> None:
    key = _read(client, tenant, services, payment_file())
    first = _get(client, tenant, key)
    etag = first.headers["etag"]
    again = _get(client, tenant, key, **{"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == etag
    assert _get(client, tenant, key, **{"If-None-Match": '"other"'}).status_code == 200


def test_versions_by_accept(client: TestClient, tenant: Tenant, services: Services) -> None:
    key = _read(client, tenant, services, plain_pdf())
    asked = _get(client, tenant, key, Accept="application/json; version=1")
    assert asked.status_code == 200 and asked.json()["schemaVersion"] == 1
    refused = _get(client, tenant, key, Accept="application/json; version=7")
    assert_problem(refused, 406, "not_acceptable")
    listing = client.get(
        "/v1/results", headers={**tenant.headers, "Accept": "application/json; version=2"}
    )
    assert_problem(listing, 406, "not_acceptable")


def test_other_companies_results_are_not_found(
    client: TestClient, tenant: Tenant, other_tenant: Tenant, services: Services
) -> None:
    key = _read(client, tenant, services, plain_pdf())
    assert_problem(_get(client, other_tenant, key), 404, "not_found")
    original = client.get(f"/v1/results/{key}/original", headers=other_tenant.headers)
    assert_problem(original, 404, "not_found")
    assert_problem(_get(client, tenant, "not-a-uuid"), 404, "not_found")  # type: ignore[arg-type]
    listed = client.get("/v1/results", headers=other_tenant.headers).json()
    assert listed["items"] == []


def test_the_original_file(client: TestClient, tenant: Tenant, services: Services) -> None:
    name, content = e_invoice()
    key = _read(client, tenant, services, (name, content))
    response = client.get(f"/v1/results/{key}/original", headers=tenant.headers)
    assert response.status_code == 200
    assert response.content == content
    assert response.headers["content-type"] == "application/xml"
    assert response.headers["content-disposition"].startswith(f'attachment; filename="{name}"')


def _all_pages(client: TestClient, tenant: Tenant, **params: Any) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    cursor = None
    while True:
        query = {**params, **({"cursor": cursor} if cursor else {})}
        page = client.get("/v1/results", headers=tenant.headers, params=query).json()
        items += page["items"]
        cursor = page["nextCursor"]
        if not page["hasMore"]:
            return items


def test_the_listing_pages_in_change_order_and_shows_deletions(
    client: TestClient, tenant: Tenant, services: Services
) -> None:
    keys = [
        _read(client, tenant, services, document)
        for document in (plain_pdf(), payment_file(), e_invoice())
    ]
    with services.db.session() as session:
        web_results.delete_result(session, tenant.company_id, keys[0])
        session.commit()
    items = _all_pages(client, tenant, limit=1)
    assert [item["id"] for item in items] == [str(keys[1]), str(keys[2]), str(keys[0])]
    sequences = [item["changeSequence"] for item in items]
    assert sequences == sorted(sequences)
    assert items[-1]["deleted"] is True and items[-1]["result"] is None
    invoices = _all_pages(client, tenant, type="invoice")
    assert [item["id"] for item in invoices] == [str(keys[2])]
    RESULT.validate_python(invoices[0]["result"])
    since = items[-1]["updatedAt"]  # the deletion was the last change
    assert [i["id"] for i in _all_pages(client, tenant, updatedSince=since)] == [str(keys[0])]
    assert _all_pages(client, tenant, updatedSince="2999-01-01T00:00:00+01:00") == []
    for params in (
        {"cursor": "c1.5"},
        {"updatedSince": "0.5"},
        {"updatedSince": "2026-13-01T00:00:00Z"},
    ):
        bad = client.get("/v1/results", headers=tenant.headers, params=params)
        assert_problem(bad, 422, "validation_error")

"""Bad requests get a clear problem answer, or a failed upload, and nothing half-stored."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from storage.objectstore import ObjectStore
from tests.api.helpers import assert_problem, pdf_bytes, post_upload
from tests.conftest import Tenant

BOUNDARY = "docintake-test-boundary"


def _raw_multipart(parts: list[tuple[str, str | None, bytes]], close: bool = True) -> bytes:
    body = b""
    for name, file_name, data in parts:
        disposition = f'form-data; name="{name}"'
        if file_name is not None:
            disposition += f'; filename="{file_name}"'
        body += f"--{BOUNDARY}\r\nContent-Disposition: {disposition}\r\n\r\n".encode()
        body += data + b"\r\n"
    if close:
        body += f"--{BOUNDARY}--\r\n".encode()
    return body


def _post_raw(client: TestClient, tenant: Tenant, body: bytes, content_type: str | None = None):  # type: ignore[no-untyped-def]
    headers = {
        **tenant.headers,
        "Content-Type": content_type or f"multipart/form-data; boundary={BOUNDARY}",
    }
    return client.post("/v1/uploads", headers=headers, content=body)


@pytest.fixture(autouse=True)
def _nothing_half_stored(store: ObjectStore):  # type: ignore[no-untyped-def]
    yield
    # Every test here either stores a whole accepted file or nothing at all.
    assert all(key.startswith("uploads/") for key in store.list_keys())


def test_non_multipart_bodies_are_validation_errors(client: TestClient, tenant: Tenant) -> None:
    json_body = client.post("/v1/uploads", headers=tenant.headers, json={"file": "x"})
    no_body = client.post("/v1/uploads", headers=tenant.headers)
    no_boundary = _post_raw(client, tenant, b"x", content_type="multipart/form-data")

    for response in (json_body, no_body, no_boundary):
        assert_problem(response, 422, "validation_error")


def test_missing_file_is_a_validation_error(
    client: TestClient, tenant: Tenant, store: ObjectStore
) -> None:
    response = _post_raw(client, tenant, _raw_multipart([("documentType", None, b"auto")]))

    body = assert_problem(response, 422, "validation_error")
    assert "file" in body["detail"]
    assert store.list_keys() == []


def test_empty_file_is_a_validation_error(
    client: TestClient, tenant: Tenant, store: ObjectStore
) -> None:
    assert_problem(post_upload(client, tenant.headers, b""), 422, "validation_error")
    assert store.list_keys() == []


def test_two_files_are_a_validation_error(
    client: TestClient, tenant: Tenant, store: ObjectStore
) -> None:
    body = _raw_multipart([("file", "a.pdf", pdf_bytes()), ("file", "b.pdf", pdf_bytes())])

    assert_problem(_post_raw(client, tenant, body), 422, "validation_error")
    assert store.list_keys() == []


def test_unknown_document_type_is_a_validation_error(
    client: TestClient, tenant: Tenant, store: ObjectStore
) -> None:
    response = post_upload(client, tenant.headers, pdf_bytes(), documentType="invoice")

    body = assert_problem(response, 422, "validation_error")
    assert "documentType" in body["detail"]
    assert store.list_keys() == []


@pytest.mark.parametrize("value", ["", " auto", "AUTO"])
def test_document_type_is_exactly_one_of_the_values(
    client: TestClient, tenant: Tenant, value: str
) -> None:
    response = post_upload(client, tenant.headers, pdf_bytes(), documentType=value)
    assert_problem(response, 422, "validation_error")


@pytest.mark.parametrize("field", ["externalId", "documentType"])
def test_a_repeated_field_is_a_validation_error(
    client: TestClient, tenant: Tenant, store: ObjectStore, field: str
) -> None:
    response = client.post(
        "/v1/uploads",
        headers=tenant.headers,
        files=[("file", ("a.pdf", pdf_bytes())), (field, (None, "auto")), (field, (None, "auto"))],
    )

    body = assert_problem(response, 422, "validation_error")
    assert f"send form field {field} once" in body["detail"]
    assert store.list_keys() == []


def test_external_id_of_255_characters_is_fine_and_256_is_not(
    client: TestClient, tenant: Tenant
) -> None:
    assert (
        post_upload(client, tenant.headers, pdf_bytes("a"), externalId="x" * 255).status_code == 202
    )
    response = post_upload(client, tenant.headers, pdf_bytes("b"), externalId="x" * 256)
    assert_problem(response, 422, "validation_error")


def test_very_long_external_id_is_a_validation_error(client: TestClient, tenant: Tenant) -> None:
    response = post_upload(client, tenant.headers, pdf_bytes(), externalId="x" * 100_000)
    assert_problem(response, 422, "validation_error")


def test_non_utf8_external_id_is_a_validation_error(client: TestClient, tenant: Tenant) -> None:
    body = _raw_multipart([("file", "a.pdf", pdf_bytes()), ("externalId", None, b"\xff\xfe")])

    response = _post_raw(client, tenant, body)
    assert "UTF-8" in assert_problem(response, 422, "validation_error")["detail"]


def test_non_utf8_file_name_is_a_validation_error(client: TestClient, tenant: Tenant) -> None:
    body = _raw_multipart([("file", "a@@.pdf", pdf_bytes())]).replace(b"@@", b"\xff")
    assert_problem(_post_raw(client, tenant, body), 422, "validation_error")


@pytest.mark.parametrize(
    ("sent", "kept"),
    [
        ("../../etc/passwd.pdf", "passwd.pdf"),
        ("C:\\Users\\a\\invoice.pdf", "invoice.pdf"),
        ("/abs/path/x.pdf", "x.pdf"),
        ("Rechnung März.pdf", "Rechnung März.pdf"),
    ],
)
def test_file_names_keep_only_their_base_name(
    client: TestClient, tenant: Tenant, sent: str, kept: str
) -> None:
    response = post_upload(client, tenant.headers, pdf_bytes(sent), sent)

    assert response.status_code == 202
    assert response.json()["fileName"] == kept


def test_file_name_with_nul_byte_is_a_validation_error(
    client: TestClient, tenant: Tenant, store: ObjectStore
) -> None:
    body = _raw_multipart([("file", "a\0.pdf", pdf_bytes())])

    assert_problem(_post_raw(client, tenant, body), 422, "validation_error")
    assert store.list_keys() == []


def test_truncated_body_is_a_validation_error_and_nothing_is_kept(
    client: TestClient, tenant: Tenant, store: ObjectStore
) -> None:
    body = _raw_multipart([("file", "a.pdf", pdf_bytes() * 1000)], close=False)[:-100]

    body_problem = assert_problem(_post_raw(client, tenant, body), 422, "validation_error")
    assert "ended" in body_problem["detail"]
    assert store.list_keys() == []


def test_garbage_multipart_is_a_validation_error(client: TestClient, tenant: Tenant) -> None:
    assert_problem(_post_raw(client, tenant, b"\x00\x01garbage" * 50), 422, "validation_error")

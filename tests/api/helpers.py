from __future__ import annotations

import io
import struct
import zipfile
from typing import Any

from fastapi.testclient import TestClient
from httpx2 import Response

from storage.db import Database, make_engine
from testkit.seaweed import free_port

PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def dead_database() -> Database:
    """A real Postgres client pointed at a port where nothing listens."""
    url = f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/test?connect_timeout=2"
    return Database(make_engine(url))


def pdf_bytes(tag: str = "") -> bytes:
    return PDF + f"% {tag}\n".encode()


def post_upload(
    client: TestClient,
    headers: dict[str, str],
    content: bytes,
    file_name: str = "invoice.pdf",
    **fields: str,
) -> Response:
    return client.post(
        "/v1/uploads", headers=headers, files={"file": (file_name, content)}, data=fields
    )


def post_batch(
    client: TestClient, headers: dict[str, str], archive: bytes, **fields: str
) -> Response:
    return client.post(
        "/v1/uploads/batches",
        headers=headers,
        files={"file": ("documents.zip", archive, "application/zip")},
        data=fields,
    )


def make_zip(entries: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, data in entries.items():
            # A fixed timestamp: the same entries always make the same bytes.
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 2, 3, 4, 5))
            info.compress_type = compression
            archive.writestr(info, b"" if name.endswith("/") else data)
    return buffer.getvalue()


def lying_sizes(archive: bytes, declared: int) -> bytes:
    """The archive with every entry's uncompressed size in both headers set to
    `declared` (a zip bomb's understatement)."""
    data = bytearray(archive)
    for signature, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        start = 0
        while (start := data.find(signature, start)) != -1:
            struct.pack_into("<I", data, start + offset, declared)
            start += 4
    return bytes(data)


def assert_problem(response: Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body: dict[str, Any] = response.json()
    assert body["code"] == code
    assert body["status"] == status
    assert {"type", "title", "detail"} <= body.keys()
    return body

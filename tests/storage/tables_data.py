"""Known rows for the status-table tests: uploads with a status history at given times."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.dataset as ds  # type: ignore[import-untyped]
import pyarrow.fs as pafs  # type: ignore[import-untyped]
import pytest
from sqlalchemy.orm import Session

from storage.models import Batch, Result, StatusChange, Upload
from storage.objectstore import LocalDirStore, ObjectStore, S3Store, s3_reader_options
from storage.tables.schemas import TableSchema
from testkit.seaweed import ACCESS_KEY, SECRET_KEY, SeaweedServer

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

# The usual life of an upload: seconds after creation at which each state is entered.
READ_OK: Sequence[tuple[str, float]] = (("queued", 0), ("processing", 2), ("completed", 5))


def add_upload(
    session: Session,
    company_id: uuid.UUID,
    *,
    created_at: datetime = T0,
    path: Sequence[tuple[str, float]] = READ_OK,
    document_type: str = "auto",
    file_name: str = "invoice.pdf",
    result_type: str = "invoice",
    error_code: str | None = None,
    batch_id: uuid.UUID | None = None,
    size_bytes: int = 1000,
) -> Upload:
    """An upload that went through `path` (state, seconds after `created_at`), with a
    result when it ends completed."""
    upload_id = uuid.uuid4()
    sha256 = hashlib.sha256(upload_id.bytes).hexdigest()
    final, last_offset = path[-1]
    result_id = None
    if final == "completed":
        result = Result(company_id=company_id, type=result_type, sha256=sha256, data={})
        session.add(result)
        session.flush()
        result_id = result.id
    upload = Upload(
        id=upload_id,
        company_id=company_id,
        batch_id=batch_id,
        position=None if batch_id is None else int(upload_id.int % 1_000_000),
        file_name=file_name,
        document_type=document_type,
        status=final,
        sha256=sha256,
        size_bytes=size_bytes,
        object_key=f"uploads/{upload_id}",
        result_id=result_id,
        error_code=error_code if final == "failed" else None,
        error_message=f"{error_code} happened" if final == "failed" and error_code else None,
        created_at=created_at,
        updated_at=created_at + timedelta(seconds=last_offset),
    )
    session.add(upload)
    session.flush()
    previous = None
    for status, offset in path:
        at = created_at + timedelta(seconds=offset)
        session.add(
            StatusChange(upload_id=upload_id, from_status=previous, to_status=status, at=at)
        )
        previous = status
    session.flush()
    return upload


def add_batch(
    session: Session,
    company_id: uuid.UUID,
    *,
    created_at: datetime = T0,
    finished_after: float | None = 30.0,
    document_type: str = "auto",
) -> Batch:
    batch = Batch(
        company_id=company_id,
        document_type=document_type,
        file_name="documents.zip",
        sha256=hashlib.sha256(uuid.uuid4().bytes).hexdigest(),
        size_bytes=5000,
        object_key=f"batches/{uuid.uuid4()}",
        unpack_state="done",
        created_at=created_at,
        updated_at=created_at,
        finished_at=None
        if finished_after is None
        else created_at + timedelta(seconds=finished_after),
    )
    session.add(batch)
    session.flush()
    return batch


def tables_store(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> ObjectStore:
    """The backend's object store, readable by polars and pyarrow: a local directory, or
    a SeaweedFS bucket with the storage options readers need."""
    if not backend.endswith("s3"):
        return LocalDirStore(tmp_path / "objects")
    seaweed: SeaweedServer = request.getfixturevalue("seaweed")
    options = s3_reader_options(seaweed.endpoint, ACCESS_KEY, SECRET_KEY, False, "us-east-1")
    store = S3Store(seaweed.client(), f"tables-{uuid.uuid4().hex[:12]}", options)
    store.ensure_bucket()
    return store


def duckdb_query(store: ObjectStore, table: TableSchema, query: str) -> list[tuple[Any, ...]]:
    """Run `query` in duckdb over the table, named `t` in it: read_parquet on a local
    directory; on S3, a pyarrow dataset (duckdb's httpfs extension is not installed)."""
    location, options = store.reader_location(table.prefix)
    connection = duckdb.connect()
    if not options:
        files = f"{location}/**/*.parquet"
        connection.execute(
            f"CREATE VIEW t AS SELECT * FROM read_parquet('{files}', hive_partitioning=true)"
        )
    else:
        filesystem = pafs.S3FileSystem(
            access_key=options["aws_access_key_id"],
            secret_key=options["aws_secret_access_key"],
            endpoint_override=options["aws_endpoint_url"].split("://", 1)[1],
            scheme="http",
            region=options["aws_region"],
        )
        partitioning = ds.partitioning(
            pa.schema([("company_id", pa.string()), ("date", pa.date32())]), flavor="hive"
        )
        dataset = ds.dataset(
            location.removeprefix("s3://"),
            filesystem=filesystem,
            format="parquet",
            partitioning=partitioning,
        )
        connection.register("t", dataset)
    return connection.execute(query).fetchall()

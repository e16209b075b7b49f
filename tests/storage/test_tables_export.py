"""Status tables: exported from known rows, read back with polars and duckdb, on both
backends (SQLite + local directory, Postgres + SeaweedFS)."""

from __future__ import annotations

import io
import os
import re
import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq  # type: ignore[import-untyped]
import pytest
from pydantic import SecretStr

from storage.db import Database
from storage.links import result_url
from storage.models import Batch, Upload
from storage.objectstore import LocalDirStore, ObjectStore, build_object_store
from storage.repositories import uploads as upload_repo
from storage.settings import Settings
from storage.states import UploadStatus
from storage.tables.export import export_changed, has_changes
from storage.tables.parquet import write_partition
from storage.tables.read import scan_table
from storage.tables.schemas import (
    ALL_TABLES,
    BATCHES,
    FAILURE_CODES,
    RESULT_TABLES,
    RESULTS_BY_TYPE,
    STATE_KEY,
    STATUS_HISTORY,
    UPLOADS,
    versions,
)
from storage.tables.state import ExportState, load_state, save_state
from testkit.seaweed import ACCESS_KEY, SECRET_KEY, SeaweedServer
from tests.conftest import Tenant
from tests.storage.tables_data import T0, add_batch, add_upload, duckdb_query, tables_store

FAILED_READ = (("queued", 0), ("processing", 1), ("failed", 4))
REFUSED = (("failed", 0),)


@pytest.fixture
def store(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> ObjectStore:
    return tables_store(backend, request, tmp_path)


def _frame(store: ObjectStore, table: object) -> pl.DataFrame:
    return scan_table(store, table).collect()  # type: ignore[arg-type]


def _seed(database: Database, company_id: uuid.UUID) -> dict[str, Upload]:
    with database.session() as session:
        batch = add_batch(session, company_id)
        uploads = {
            "read": add_upload(session, company_id, document_type="supplier_invoice"),
            "in_batch": add_upload(
                session, company_id, batch_id=batch.id, result_type="other_document"
            ),
            "failed": add_upload(
                session, company_id, path=FAILED_READ, error_code="processing_failed"
            ),
            "refused": add_upload(
                session,
                company_id,
                created_at=T0 + timedelta(days=1),
                path=REFUSED,
                error_code="unsupported_file_type",
            ),
        }
        session.commit()
    return uploads


def test_tables_read_back_with_polars_and_duckdb(
    database: Database, store: ObjectStore, settings: Settings, tenant: Tenant
) -> None:
    uploads = _seed(database, tenant.company_id)

    run = export_changed(database, store, settings)

    assert run.full
    assert run.rows == {
        "uploads": 4,
        "status_history": 10,
        "results_by_type": 2,
        "failure_codes": 2,
        "batches": 1,
        # The seeded results hold no data: unreadable as their type, left out.
        **{table.name: 0 for table in RESULT_TABLES},
    }
    frame = _frame(store, UPLOADS)
    assert frame.height == 4
    read = frame.filter(pl.col("upload_id") == str(uploads["read"].id)).row(0, named=True)
    assert read["status"] == "completed"
    assert read["document_type"] == "supplier_invoice"
    assert read["result_type"] == "invoice"
    assert read["result_url"] == result_url(
        settings.public_base_url, "invoice", uploads["read"].result_id or uuid.uuid4()
    )
    assert read["created_at"] == T0 and read["updated_at"] == T0 + timedelta(seconds=5)
    assert read["company_id"] == str(tenant.company_id) and read["date"] == T0.date()
    assert read["batch_id"] is None
    in_batch = frame.filter(pl.col("upload_id") == str(uploads["in_batch"].id))
    assert in_batch["batch_id"][0] == str(uploads["in_batch"].batch_id)

    assert duckdb_query(store, UPLOADS, "SELECT count(*), count(DISTINCT upload_id) FROM t") == [
        (4, 4)
    ]
    assert duckdb_query(
        store, UPLOADS, "SELECT date, status, count(*) FROM t GROUP BY ALL ORDER BY ALL"
    ) == [
        (T0.date(), "completed", 2),
        (T0.date(), "failed", 1),
        ((T0 + timedelta(days=1)).date(), "failed", 1),
    ]
    assert duckdb_query(store, STATUS_HISTORY, "SELECT sum(duration_seconds) FROM t") == [
        (2 + 3 + 2 + 3 + 1 + 3,)
    ]


def test_status_history_has_the_time_spent_in_each_state(
    database: Database, store: ObjectStore, settings: Settings, tenant: Tenant
) -> None:
    uploads = _seed(database, tenant.company_id)

    export_changed(database, store, settings)

    history = _frame(store, STATUS_HISTORY)
    read = history.filter(pl.col("upload_id") == str(uploads["read"].id)).sort("sequence")
    assert read.select(
        "sequence", "from_status", "to_status", "duration_seconds", "is_current"
    ).rows() == [
        (1, None, "queued", 2.0, False),
        (2, "queued", "processing", 3.0, False),
        (3, "processing", "completed", None, True),
    ]
    assert read["left_at"].to_list() == [T0 + timedelta(seconds=2), T0 + timedelta(seconds=5), None]
    refused = history.filter(pl.col("upload_id") == str(uploads["refused"].id))
    assert refused.select("sequence", "to_status", "is_current").rows() == [(1, "failed", True)]


def test_batches_results_by_type_and_failure_codes(
    database: Database, store: ObjectStore, settings: Settings, tenant: Tenant
) -> None:
    _seed(database, tenant.company_id)

    export_changed(database, store, settings)

    batch = _frame(store, BATCHES).row(0, named=True)
    assert (batch["uploads"], batch["completed"], batch["failed"], batch["queued"]) == (1, 1, 0, 0)
    assert batch["status"] == "completed" and batch["duration_seconds"] == 30.0
    results = _frame(store, RESULTS_BY_TYPE).sort("result_type")
    assert results.select("document_type", "result_type", "uploads", "size_bytes").rows() == [
        ("supplier_invoice", "invoice", 1, 1000),
        ("auto", "other_document", 1, 1000),
    ]
    failures = _frame(store, FAILURE_CODES).sort("error_code")
    assert failures.select("date", "error_code", "uploads", "last_failed_at").rows() == [
        (T0.date(), "processing_failed", 1, T0 + timedelta(seconds=4)),
        ((T0 + timedelta(days=1)).date(), "unsupported_file_type", 1, T0 + timedelta(days=1)),
    ]


def _exported_at(store: ObjectStore, key: str) -> str:
    metadata = pq.read_metadata(io.BytesIO(store.read_bytes(key))).metadata
    return str(metadata[b"docintake.exported_at"].decode())


def test_incremental_export_rewrites_only_changed_partitions(
    database: Database, store: ObjectStore, settings: Settings, tenant: Tenant
) -> None:
    uploads = _seed(database, tenant.company_id)
    first = export_changed(database, store, settings, now=T0 + timedelta(days=2))
    untouched = UPLOADS.partition_key(tenant.company_id, (T0 + timedelta(days=1)).date())
    exported_before = _exported_at(store, untouched)

    with database.session() as session:
        upload = session.get(Upload, uploads["read"].id)
        assert upload is not None
        upload_repo.change_status(session, upload, UploadStatus.DELETED)
        upload.result_id = None
        session.commit()
    second = export_changed(database, store, settings)

    assert first.full and not second.full
    assert (second.upload_partitions, second.batch_partitions) == (1, 0)
    frame = _frame(store, UPLOADS)
    assert frame.height == 4 and frame["upload_id"].n_unique() == 4
    changed = frame.filter(pl.col("upload_id") == str(uploads["read"].id))
    assert changed["status"].to_list() == ["deleted"]
    assert changed["result_url"].to_list() == [None]
    history = _frame(store, STATUS_HISTORY)
    assert history.height == 11 and history["history_id"].n_unique() == 11
    deleted = history.filter(pl.col("upload_id") == str(uploads["read"].id), pl.col("is_current"))
    assert deleted["to_status"].to_list() == ["deleted"]
    assert _frame(store, RESULTS_BY_TYPE)["uploads"].sum() == 1
    assert _exported_at(store, untouched) == exported_before


def test_the_watermark_moves_to_the_start_of_the_run(
    database: Database, store: ObjectStore, settings: Settings, tenant: Tenant
) -> None:
    _seed(database, tenant.company_id)
    started = T0 + timedelta(days=3)

    export_changed(database, store, settings, now=started)
    nothing_new = export_changed(database, store, settings, now=started + timedelta(hours=1))

    state = load_state(store)
    assert state is not None and state.versions == versions()
    assert state.watermark == started + timedelta(hours=1)
    overlap = timedelta(seconds=settings.tables_export_overlap_seconds)
    assert nothing_new.since == started - overlap
    assert (nothing_new.upload_partitions, nothing_new.batch_partitions) == (0, 0)


def test_a_new_schema_version_exports_everything_again(
    database: Database, store: ObjectStore, settings: Settings, tenant: Tenant
) -> None:
    _seed(database, tenant.company_id)
    export_changed(database, store, settings)
    state = load_state(store)
    assert state is not None
    save_state(store, ExportState(state.watermark, {**state.versions, "uploads": 0}, T0))

    again = export_changed(database, store, settings)

    assert again.full and again.upload_partitions == 2


KEY = re.compile(
    r"tables/(?P<table>[a-z_]+)/v(?P<version>\d+)/company_id=(?P<company>[0-9a-f-]{36})"
    r"/date=(?P<date>\d{4}-\d{2}-\d{2})/part-0\.parquet"
)


def test_keys_carry_table_version_and_hive_partitions(
    database: Database, store: ObjectStore, settings: Settings, tenant: Tenant
) -> None:
    _seed(database, tenant.company_id)

    export_changed(database, store, settings)

    keys = store.list_keys("tables/")
    assert STATE_KEY in keys
    tables = {table.name: table for table in ALL_TABLES}
    matches = [KEY.fullmatch(key) for key in keys if key != STATE_KEY]
    assert all(matches), keys
    for match in matches:
        assert match is not None
        table = tables[match["table"]]
        assert int(match["version"]) == table.version
        assert match["company"] == str(tenant.company_id)
        metadata = pq.read_metadata(io.BytesIO(store.read_bytes(match[0]))).metadata
        assert metadata[b"docintake.schema_version"] == str(table.version).encode()
    # Four upload tables on two days, one batch partition, the result tables on one day.
    assert len(matches) == 4 * 2 + 1 + len(RESULT_TABLES)


def _failing_after_first(frame: pl.DataFrame) -> Iterator[pl.DataFrame]:
    yield frame
    raise RuntimeError("interrupted")


def test_an_interrupted_write_leaves_the_old_file_and_no_temporary_one(
    store: ObjectStore, tmp_path: Path
) -> None:
    key = FAILURE_CODES.partition_key(uuid.uuid4(), T0.date())
    old = pl.DataFrame(
        {
            "document_type": ["auto"],
            "error_code": ["processing_failed"],
            "uploads": [3],
            "first_failed_at": [T0],
            "last_failed_at": [T0],
        }
    )
    write_partition(store, key, FAILURE_CODES, [old], {})
    new = old.with_columns(pl.lit(7).alias("uploads"))

    with pytest.raises(RuntimeError, match="interrupted"):
        write_partition(store, key, FAILURE_CODES, _failing_after_first(new), {})

    assert store.list_keys("tables/") == [key]
    assert pl.read_parquet(io.BytesIO(store.read_bytes(key)))["uploads"].to_list() == [3]
    if isinstance(store, LocalDirStore):
        files = [name for _, _, names in os.walk(store.root) for name in names]
        assert files == ["part-0.parquet"]


def test_an_export_is_wanted_only_when_something_changed(
    database: Database, store: ObjectStore, settings: Settings, tenant: Tenant
) -> None:
    uploads = _seed(database, tenant.company_id)  # changed around T0
    margin = timedelta(seconds=50)
    assert has_changes(database, store, settings, margin), "never exported"
    export_changed(database, store, settings, now=T0 + timedelta(days=2))
    assert not has_changes(database, store, settings, margin)
    assert has_changes(database, store, settings, timedelta(days=3)), "within the margin"

    with database.session() as session:
        upload = session.get(Upload, uploads["read"].id)
        assert upload is not None
        upload_repo.change_status(session, upload, UploadStatus.DELETED)
        session.commit()

    assert has_changes(database, store, settings, margin)


def test_a_batch_changed_alone_wants_an_export(
    database: Database, store: ObjectStore, settings: Settings, tenant: Tenant
) -> None:
    with database.session() as session:
        batch_id = add_batch(session, tenant.company_id).id
        session.commit()
    export_changed(database, store, settings, now=T0 + timedelta(days=2))

    with database.session() as session:  # an archive refused while unpacking
        batch = session.get(Batch, batch_id)
        assert batch is not None
        batch.unpack_state = "failed"
        session.commit()

    assert has_changes(database, store, settings, timedelta(seconds=50))


def test_a_new_schema_version_wants_an_export(
    database: Database, store: ObjectStore, settings: Settings, tenant: Tenant
) -> None:
    _seed(database, tenant.company_id)
    export_changed(database, store, settings, now=T0 + timedelta(days=2))
    state = load_state(store)
    assert state is not None
    save_state(store, ExportState(state.watermark, {**state.versions, "uploads": 0}, T0))

    assert has_changes(database, store, settings, timedelta(seconds=50))


def test_a_table_never_written_reads_as_empty(store: ObjectStore) -> None:
    frame = _frame(store, BATCHES)

    assert frame.height == 0
    assert frame.schema == BATCHES.polars | {"company_id": pl.String(), "date": pl.Date()}


def test_an_s3_store_from_settings_tells_readers_where_it_is(
    seaweed: SeaweedServer, settings: Settings
) -> None:
    s3_settings = settings.model_copy(
        update={
            "s3_endpoint": f"http://{seaweed.endpoint}",
            "s3_bucket": f"tables-{uuid.uuid4().hex[:12]}",
            "s3_access_key": SecretStr(ACCESS_KEY),
            "s3_secret_key": SecretStr(SECRET_KEY),
        }
    )
    store = build_object_store(s3_settings)
    key = FAILURE_CODES.partition_key(uuid.uuid4(), T0.date())
    frame = pl.DataFrame(schema=FAILURE_CODES.polars)
    write_partition(store, key, FAILURE_CODES, [frame], {})

    location, options = store.reader_location(FAILURE_CODES.prefix)

    assert location == f"s3://{s3_settings.s3_bucket}/{FAILURE_CODES.prefix}"
    assert options["aws_endpoint_url"] == f"http://{seaweed.endpoint}"
    assert scan_table(store, FAILURE_CODES).collect().height == 0

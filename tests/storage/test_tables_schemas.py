"""The tables' declared schemas: documented, written as declared, keys as documented."""

from __future__ import annotations

import re
import uuid
from datetime import date
from pathlib import Path

import polars as pl
import pyarrow as pa  # type: ignore[import-untyped]
import pytest

from storage.links import RESULT_PATHS, result_url
from storage.objectstore import LocalDirStore
from storage.tables.frames import result_urls, state_durations
from storage.tables.parquet import arrow_schema, write_partition
from storage.tables.schemas import ALL_TABLES, UPLOADS, TableSchema
from tests.storage.tables_data import T0

DOC = Path(__file__).parents[2] / "docs" / "tables.md"


@pytest.mark.parametrize("table", ALL_TABLES, ids=lambda table: table.name)
def test_the_docs_list_every_column_of_the_current_version(table: TableSchema) -> None:
    text = DOC.read_text()
    heading = f"### {table.name} (v{table.version})\n"
    assert heading in text
    section = re.split(r"\n##", text.split(heading, 1)[1], maxsplit=1)[0]

    assert re.findall(r"^\| `(\w+)` \|", section, re.MULTILINE) == table.names
    assert re.search(rf"^\| {table.name} \| {table.version} \|", text, re.MULTILINE)


def test_files_carry_the_declared_types_nullability_and_metadata() -> None:
    schema = arrow_schema(UPLOADS, {"docintake.schema_version": "1"})

    assert schema.names == UPLOADS.names
    assert schema.field("created_at").type == pa.timestamp("us", tz="UTC")
    assert schema.field("attempts").type == pa.int32()
    assert not schema.field("upload_id").nullable and schema.field("batch_id").nullable
    assert schema.metadata == {b"docintake.schema_version": b"1"}


def _upload_row(**values: object) -> pl.DataFrame:
    row: dict[str, object] = {
        c.name: None if c.nullable else "x" if c.dtype == pl.String() else 1
        for c in UPLOADS.columns
    }
    row |= {"created_at": T0, "updated_at": T0, **values}
    return pl.DataFrame([row], schema_overrides={"attempts": pl.Int64})


@pytest.mark.parametrize(
    ("values", "error"),
    [({"attempts": 2**40}, pa.ArrowInvalid), ({"file_name": None}, ValueError)],
    ids=["too-large-for-int32", "null-in-non-null-column"],
)
def test_a_value_that_does_not_fit_its_column_is_refused(
    tmp_path: Path, values: dict[str, object], error: type[Exception]
) -> None:
    store = LocalDirStore(tmp_path)
    write_partition(store, "tables/x/part-0.parquet", UPLOADS, [_upload_row()], {})

    with pytest.raises(error):
        write_partition(store, "tables/x/part-0.parquet", UPLOADS, [_upload_row(**values)], {})

    assert store.list_keys() == ["tables/x/part-0.parquet"]


def test_partition_keys_are_hive_style_under_the_version() -> None:
    company = uuid.UUID("12345678-1234-5678-1234-567812345678")

    key = UPLOADS.partition_key(company, date(2026, 3, 2))

    assert key == f"tables/uploads/v2/company_id={company}/date=2026-03-02/part-0.parquet"


def test_result_urls_are_those_of_storage_links() -> None:
    ids = [uuid.uuid4() for _ in RESULT_PATHS]
    frame = pl.DataFrame(
        {"result_type": [*RESULT_PATHS, None], "result_id": [*map(str, ids), None]}
    )

    urls = frame.select(result_urls("https://app.example/")).to_series().to_list()

    pairs = zip(RESULT_PATHS, ids, strict=True)
    expected = [result_url("https://app.example/", kind, id_) for kind, id_ in pairs]
    assert urls == [*expected, None]


def _history(upload: str, count: int, start: int) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "upload_id": [upload] * count,
            "at": [T0.replace(second=start + s) for s in range(count)],
        }
    )


def test_an_upload_split_over_two_chunks_keeps_its_durations() -> None:
    chunks = [_history("a", 2, 0), pl.concat([_history("b", 2, 10), _history("c", 1, 20)])]
    chunks.insert(1, _history("b", 1, 5))
    # a: 0, 1 | b: 5 (chunk 2), 10, 11 (chunk 3) | c: 20

    frames = list(state_durations(iter(chunks)))

    result = pl.concat(frames)
    assert result.select("upload_id", "sequence", "duration_seconds", "is_current").rows() == [
        ("a", 1, 1.0, False),
        ("a", 2, None, True),
        ("b", 1, 5.0, False),
        ("b", 2, 1.0, False),
        ("b", 3, None, True),
        ("c", 1, None, True),
    ]

"""Lazy scans of the status tables, wherever the object store keeps them."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from storage.objectstore import ObjectStore
from storage.tables.schemas import TableSchema

HIVE_SCHEMA = pl.Schema({"company_id": pl.String(), "date": pl.Date()})


def scan_table(store: ObjectStore, table: TableSchema) -> pl.LazyFrame:
    """The table's current version with its partition columns (`company_id`, `date`);
    filters on them skip whole partitions. A table never written reads as empty."""
    location, options = store.reader_location(table.prefix)
    empty = pl.LazyFrame(schema=table.polars | HIVE_SCHEMA)
    if not options and not Path(location).is_dir():
        return empty
    return pl.scan_parquet(
        f"{location}/**/*.parquet",
        schema=table.polars,
        hive_schema=HIVE_SCHEMA,
        hive_partitioning=True,
        storage_options=options or None,
    )

"""Writing one partition file: row groups streamed into an object store writer.

The file is built chunk by chunk (one row group per chunk), so memory stays at about one
chunk whatever the partition's size. Nothing is visible until the writer commits: on
the local store the bytes go to a temporary file outside `tables/` that `os.replace`
moves into place, on S3 the object exists only once its upload completes. An error
aborts the writer and the previous file stays as it was.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from functools import cache
from typing import Any

import polars as pl
import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.parquet as pq  # type: ignore[import-untyped]

from storage.objectstore import ObjectStore, ObjectWriter
from storage.settings import MIB
from storage.tables.schemas import TableSchema

COMPRESSION = "zstd"


class _WriterFile(io.RawIOBase):
    """An ObjectWriter as the write-only file pyarrow expects."""

    def __init__(self, writer: ObjectWriter) -> None:
        self._writer = writer
        self._position = 0

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        view = memoryview(data).cast("B")
        self._writer.write(bytes(view))
        self._position += len(view)
        return len(view)

    def tell(self) -> int:
        return self._position


@cache
def _arrow_fields(table: TableSchema) -> list[Any]:
    """The Arrow types polars hands out for the table's polars types."""
    empty = pl.DataFrame(schema=table.polars).to_arrow()
    return [
        pa.field(column.name, empty.schema.field(column.name).type, nullable=column.nullable)
        for column in table.columns
    ]


def arrow_schema(table: TableSchema, metadata: dict[str, str]) -> Any:
    return pa.schema(_arrow_fields(table), metadata=metadata)


def to_arrow(frame: pl.DataFrame, schema: Any) -> Any:
    """The frame as an Arrow table of exactly the table's columns, in order and of the
    declared types; a value that does not fit its type raises."""
    return frame.to_arrow().select(schema.names).cast(schema)


def write_partition(
    store: ObjectStore,
    key: str,
    table: TableSchema,
    frames: Iterable[pl.DataFrame],
    metadata: dict[str, str],
) -> int:
    """Write `frames` as one Parquet file under `key`, replacing what was there in one
    step. Returns the rows written (a partition may be empty: the file then holds the
    schema and no rows, which replaces stale rows just as well)."""
    schema = arrow_schema(table, metadata)
    writer = store.open_writer(key)
    rows = 0
    try:
        buffered = io.BufferedWriter(_WriterFile(writer), buffer_size=MIB)
        parquet = pq.ParquetWriter(buffered, schema, compression=COMPRESSION)
        try:
            for frame in frames:
                if frame.height:
                    parquet.write_table(to_arrow(frame, schema))
                    rows += frame.height
        finally:
            parquet.close()
        buffered.flush()
    except BaseException:
        writer.abort()
        raise
    writer.commit()
    return rows

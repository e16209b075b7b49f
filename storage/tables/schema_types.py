"""What a status table is: its columns, its version and where its files live."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date

import polars as pl

TABLES_PREFIX = "tables"
STATE_KEY = f"{TABLES_PREFIX}/_state.json"
# One file per partition under a fixed name: a rewrite replaces it in one atomic step,
# so a reader sees the old rows or the new ones, never both and never neither.
PART_FILE = "part-0.parquet"

UTC_MICROS = pl.Datetime("us", "UTC")


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    dtype: pl.DataType
    nullable: bool
    description: str


@dataclass(frozen=True, slots=True)
class TableSchema:
    name: str
    version: int
    description: str
    columns: tuple[Column, ...]

    @property
    def polars(self) -> pl.Schema:
        return pl.Schema({column.name: column.dtype for column in self.columns})

    @property
    def names(self) -> list[str]:
        return [column.name for column in self.columns]

    @property
    def prefix(self) -> str:
        """Where this version's partitions live; scan it with hive partitioning."""
        return f"{TABLES_PREFIX}/{self.name}/v{self.version}"

    def partition_key(self, company_id: uuid.UUID, day: date) -> str:
        return f"{self.prefix}/company_id={company_id}/date={day.isoformat()}/{PART_FILE}"


def col(name: str, dtype: pl.DataType, description: str, nullable: bool = False) -> Column:
    return Column(name, dtype, nullable, description)

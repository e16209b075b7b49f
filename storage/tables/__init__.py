"""Status tables as Parquet in the object store, for data teams (docs/tables.md).

schemas.py   the tables, their columns and versions, the key layout
export.py    incremental export: changed partitions rewritten whole, a watermark
parquet.py   one partition file, streamed and replaced atomically
frames.py    rows to table frames (durations per state, aggregates, batch status)
read.py      lazy scans of the tables for polars (local directory or S3)
report.py    the status report over the tables (volumes, outcomes, times)
"""

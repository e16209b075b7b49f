"""The status tables: their columns, types and versions, and where their files live.

Every table is versioned on its own. A change to a table's columns bumps its version,
and the new version is written under a new prefix (`tables/<table>/v<version>/`), so a
reader of the old version never meets a file of the new shape. docs/tables.md documents
every column; tests/storage/test_tables_schemas.py keeps the two in step.
"""

from __future__ import annotations

import polars as pl

from storage.tables.result_schemas import RESULT_TABLES
from storage.tables.schema_types import (
    PART_FILE,
    STATE_KEY,
    TABLES_PREFIX,
    UTC_MICROS,
    Column,
    TableSchema,
    col,
)

__all__ = [
    "PART_FILE",
    "RESULT_TABLES",
    "STATE_KEY",
    "TABLES_PREFIX",
    "UTC_MICROS",
    "Column",
    "TableSchema",
]

# Hive partition columns: in the path, not in the files (`company_id=<uuid>/date=<day>`).
PARTITION_COLUMNS = ("company_id", "date")

UPLOADS = TableSchema(
    "uploads",
    2,
    "One row per upload, as it is now. Partition date: the day the upload was created (UTC).",
    (
        col("upload_id", pl.String(), "upload id (uuid)"),
        col("batch_id", pl.String(), "batch the file came in; null for a single upload", True),
        col("external_id", pl.String(), "the client's externalId", True),
        col("file_name", pl.String(), "file name; inside a batch, the path in the archive"),
        col("document_type", pl.String(), "documentType as sent (auto, supplier_invoice, ...)"),
        col("status", pl.String(), "queued, processing, completed, failed or deleted"),
        col("result_type", pl.String(), "invoice, other_document, bank_statement, ...", True),
        col("result_id", pl.String(), "result id (uuid)", True),
        col("result_url", pl.String(), "where the result opens in the web application", True),
        col(
            "hybrid_mismatches",
            pl.List(pl.String()),
            "a hybrid PDF's fields whose XML and visible text disagree; null if not a hybrid",
            True,
        ),
        col("error_code", pl.String(), "failure code of a failed upload", True),
        col("error_message", pl.String(), "failure message of a failed upload", True),
        col("size_bytes", pl.Int64(), "file size in bytes"),
        col("sha256", pl.String(), "SHA-256 of the file, hex"),
        col("attempts", pl.Int32(), "times a worker took the file in hand"),
        col("created_at", UTC_MICROS, "when the upload was accepted"),
        col("updated_at", UTC_MICROS, "last change of the upload row"),
    ),
)

STATUS_HISTORY = TableSchema(
    "status_history",
    1,
    "Every status change of every upload, with the time spent in the state it entered. "
    "Partition: the upload's company and creation day, so an upload's history is never split.",
    (
        col("history_id", pl.Int64(), "id of the change, increasing in the order of changes"),
        col(
            "upload_id",
            pl.String(),
            "upload id (uuid); its row in `uploads` is in the same partition",
        ),
        col("sequence", pl.Int32(), "1 for the upload's first change, then 2, 3, ..."),
        col("from_status", pl.String(), "state left; null for the first change", True),
        col("to_status", pl.String(), "state entered"),
        col("at", UTC_MICROS, "when the change happened"),
        col("left_at", UTC_MICROS, "when the upload left `to_status`; null if still in it", True),
        col(
            "duration_seconds",
            pl.Float64(),
            "time spent in `to_status` (left_at - at); null while still in it",
            True,
        ),
        col("is_current", pl.Boolean(), "true for the upload's latest change"),
    ),
)

BATCHES = TableSchema(
    "batches",
    2,
    "One row per batch (ZIP archive), with counts of its uploads by status. "
    "Partition date: the day the batch was created (UTC).",
    (
        col("batch_id", pl.String(), "batch id (uuid)"),
        col("external_id", pl.String(), "the client's externalId", True),
        col("document_type", pl.String(), "documentType as sent"),
        col("file_name", pl.String(), "archive file name"),
        col("size_bytes", pl.Int64(), "archive size in bytes"),
        col("status", pl.String(), "processing, completed, completed_with_errors or failed"),
        col("unpack_state", pl.String(), "pending, done or failed"),
        col("error_code", pl.String(), "why the archive was refused while unpacking", True),
        col("error_message", pl.String(), "the message that goes with error_code", True),
        col("attempts", pl.Int32(), "times a worker took the batch in hand"),
        col("uploads", pl.Int64(), "files of the batch"),
        col("queued", pl.Int64(), "of them queued"),
        col("processing", pl.Int64(), "of them processing"),
        col("completed", pl.Int64(), "of them completed"),
        col("failed", pl.Int64(), "of them failed"),
        col("deleted", pl.Int64(), "of them deleted (completed, then the result deleted)"),
        col("created_at", UTC_MICROS, "when the batch was accepted"),
        col("finished_at", UTC_MICROS, "when the pipeline finished the batch", True),
        col("updated_at", UTC_MICROS, "last change of the batch row"),
        col("duration_seconds", pl.Float64(), "finished_at - created_at", True),
        col("source_type", pl.String(), "api or email"),
        col("mail_from", pl.String(), "an e-mail batch's sender", True),
        col("mail_subject", pl.String(), "an e-mail batch's subject", True),
        col("message_id", pl.String(), "an e-mail batch's Message-ID", True),
        col("received_at", UTC_MICROS, "when an e-mail batch's message arrived", True),
    ),
)

RESULTS_BY_TYPE = TableSchema(
    "results_by_type",
    1,
    "Completed uploads counted by documentType sent and result type made of them "
    "(a deleted result no longer counts). "
    "Partition: company and the uploads' creation day.",
    (
        col("document_type", pl.String(), "documentType as sent"),
        col("result_type", pl.String(), "invoice, other_document, bank_statement, payment_file"),
        col("uploads", pl.Int64(), "completed uploads with this result type"),
        col("size_bytes", pl.Int64(), "their bytes"),
    ),
)

FAILURE_CODES = TableSchema(
    "failure_codes",
    1,
    "Failed uploads counted by documentType and failure code. "
    "Partition: company and the uploads' creation day.",
    (
        col("document_type", pl.String(), "documentType as sent"),
        col("error_code", pl.String(), "failure code"),
        col("uploads", pl.Int64(), "failed uploads with this code"),
        col("first_failed_at", UTC_MICROS, "earliest failure (last change of the upload)"),
        col("last_failed_at", UTC_MICROS, "latest failure"),
    ),
)

ALL_TABLES = (
    UPLOADS,
    STATUS_HISTORY,
    BATCHES,
    RESULTS_BY_TYPE,
    FAILURE_CODES,
    *RESULT_TABLES,
)
# Tables partitioned by the uploads' company and creation day, written together.
UPLOAD_TABLES = (UPLOADS, STATUS_HISTORY, RESULTS_BY_TYPE, FAILURE_CODES)


def versions() -> dict[str, int]:
    return {table.name: table.version for table in ALL_TABLES}

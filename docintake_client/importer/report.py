"""Reporting: one row per file, the results file (CSV and Parquet), the closing summary
and the exit code."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import polars as pl
from rich.console import Console
from rich.table import Table

from docintake_client.errors import ProblemError
from docintake_client.importer.model import Plan, Row
from docintake_client.models import Batch, Upload

EXIT_OK, EXIT_FAILED, EXIT_INTERRUPTED = 0, 1, 130
RESULT_COLUMNS = ("path", "upload_id", "status", "result_url", "error_code", "error_message")


@dataclass(frozen=True, slots=True)
class ImportReport:
    rows: tuple[Row, ...]
    interrupted: bool
    sent_batches: int
    replayed_batches: int
    resumed_batches: int

    @property
    def failure_codes(self) -> Counter[str]:
        return Counter(
            row.error_code or row.status for row in self.rows if row.status != "completed"
        )

    @property
    def exit_code(self) -> int:
        if self.interrupted:
            return EXIT_INTERRUPTED
        return EXIT_FAILED if self.failure_codes else EXIT_OK


def _row_for(path: str, upload: Upload | None, batch: Batch | None) -> Row:
    if upload is None and batch is not None and batch.is_terminal:
        message = "the finished batch has no upload of this name"
        return Row(path, None, "missing", None, None, message)
    if upload is None:
        status = "not_sent" if batch is None else "pending"
        return Row(path, None, status, None, None, None)
    return Row(
        path,
        upload.id,
        upload.status,
        upload.result.url if upload.result else None,
        upload.error.code if upload.error else None,
        upload.error.message if upload.error else None,
    )


def rows_for(plan: Plan, outcome: Batch | ProblemError | None) -> list[Row]:
    if isinstance(outcome, ProblemError):
        return [
            Row(d.path, None, "failed", None, outcome.code, outcome.detail) for d in plan.documents
        ]
    by_name = {upload.file_name: upload for upload in outcome.uploads} if outcome else {}
    return [_row_for(d.path, by_name.get(plan.name_in_archive(d)), outcome) for d in plan.documents]


def write_results(rows: Sequence[Row], base: Path) -> tuple[Path, Path]:
    frame = pl.DataFrame(
        {column: [getattr(row, column) for row in rows] for column in RESULT_COLUMNS},
        schema={column: pl.String for column in RESULT_COLUMNS},
    )
    base.parent.mkdir(parents=True, exist_ok=True)
    csv_path, parquet_path = base.with_suffix(".csv"), base.with_suffix(".parquet")
    frame.write_csv(csv_path)
    frame.write_parquet(parquet_path)
    return csv_path, parquet_path


def print_summary(console: Console, report: ImportReport) -> None:
    completed = sum(row.status == "completed" for row in report.rows)
    console.print(f"{completed} of {len(report.rows)} files completed")
    codes = report.failure_codes
    if not codes:
        return
    table = Table(title="Files not completed")
    table.add_column("code")
    table.add_column("files", justify="right")
    for code, count in codes.most_common():
        table.add_row(code, str(count))
    console.print(table)

"""The status report: polars over the status tables (lazy scans, partitions pruned by
date). `docintake report` prints it (api/report.py); the export flow publishes it as a
Prefect markdown artifact.

Definitions (also in docs/tables.md):
- The window holds the uploads and batches created in it.
- An upload's processing time is measured on its latest arrival in a final state
  (`completed` or `failed`): queued -> final from the last time it entered `queued`
  before that, processing -> final from the last time it entered `processing`. An upload
  refused at intake never queued and is not timed.
- p50 and p95 are linear-interpolated quantiles.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

import polars as pl

from storage.models import utcnow
from storage.objectstore import ObjectStore
from storage.settings import MIB
from storage.states import UploadStatus
from storage.tables.frames import upload_urls
from storage.tables.read import scan_table
from storage.tables.schemas import BATCHES, STATUS_HISTORY, UPLOADS, TableSchema

FINAL = [UploadStatus.COMPLETED.value, UploadStatus.FAILED.value]


@dataclass(frozen=True, slots=True)
class Section:
    title: str
    frame: pl.DataFrame
    # Columns holding URLs: rendered as links where the output allows.
    links: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StatusReport:
    start: datetime
    end: datetime
    company_id: uuid.UUID | None
    sections: tuple[Section, ...]

    def section(self, title: str) -> pl.DataFrame:
        return next(s.frame for s in self.sections if s.title == title)

    @property
    def scope(self) -> str:
        company = f" of company {self.company_id}" if self.company_id else ""
        return (
            f"Uploads and batches{company} created from {self.start:%Y-%m-%d %H:%M} "
            f"to {self.end:%Y-%m-%d %H:%M} UTC"
        )


def _seconds(end: str, start: str) -> pl.Expr:
    return (pl.col(end) - pl.col(start)).dt.total_microseconds() / 1_000_000


def _entered(status: str) -> pl.Expr:
    """When the upload last entered `status`, as of each change (rows sorted)."""
    at = pl.when(pl.col("to_status") == status).then(pl.col("at"))
    return at.forward_fill().over("upload_id")


def timed_uploads(history: pl.LazyFrame, uploads: pl.LazyFrame) -> pl.LazyFrame:
    """One row per upload that reached a final state: its latest final change with the
    seconds since it entered queued and processing, and the upload's columns."""
    final = (
        history.select("upload_id", "sequence", "to_status", "at")
        .sort("upload_id", "sequence")
        .with_columns(queued_at=_entered("queued"), processing_at=_entered("processing"))
        .filter(pl.col("to_status").is_in(FINAL))
        .group_by("upload_id")
        .agg(pl.all().sort_by("sequence").last())
        .select(
            "upload_id",
            final_at="at",
            queued_seconds=_seconds("at", "queued_at"),
            processing_seconds=_seconds("at", "processing_at"),
        )
    )
    return uploads.join(final, on="upload_id", how="inner")


def _volumes(uploads: pl.LazyFrame, batches: pl.LazyFrame) -> pl.LazyFrame:
    per_day = uploads.group_by("date").agg(
        uploads=pl.len(), MiB=(pl.col("size_bytes").sum() / MIB).round(1)
    )
    batches_per_day = batches.group_by("date").agg(batches=pl.len())
    return (
        per_day.join(batches_per_day, on="date", how="full", coalesce=True)
        .select("date", pl.col("uploads", "batches").fill_null(0), pl.col("MiB").fill_null(0.0))
        .sort("date")
    )


def _shares(frame: pl.LazyFrame, by: str) -> pl.LazyFrame:
    return (
        frame.group_by(by)
        .agg(uploads=pl.len())
        .with_columns(percent=(100 * pl.col("uploads") / pl.col("uploads").sum()).round(1))
        .sort(["uploads", by], descending=[True, False])
    )


def _times(timed: pl.LazyFrame) -> pl.LazyFrame:
    def quantile(column: str, q: float) -> pl.Expr:
        return pl.col(column).quantile(q, interpolation="linear").round(2)

    return (
        timed.group_by("document_type")
        .agg(
            finished=pl.len(),
            queued_p50=quantile("queued_seconds", 0.5),
            queued_p95=quantile("queued_seconds", 0.95),
            processing_p50=quantile("processing_seconds", 0.5),
            processing_p95=quantile("processing_seconds", 0.95),
        )
        .sort("document_type")
    )


def _slowest(timed: pl.LazyFrame, base_url: str, count: int) -> pl.LazyFrame:
    return (
        timed.filter(pl.col("queued_seconds").is_not_null())
        .sort(["queued_seconds", "upload_id"], descending=[True, False])
        .head(count)
        .select(
            "file_name",
            "document_type",
            "status",
            pl.col("queued_seconds").round(2),
            pl.col("processing_seconds").round(2),
            upload_urls(base_url).alias("upload"),
            pl.col("result_url").alias("result"),
        )
    )


def build_report(
    store: ObjectStore,
    base_url: str,
    since: timedelta,
    now: datetime | None = None,
    company_id: uuid.UUID | None = None,
    slowest: int = 10,
) -> StatusReport:
    end = now or utcnow()
    start = end - since

    def scan(table: TableSchema) -> pl.LazyFrame:
        frame = scan_table(store, table).filter(pl.col("date") >= start.date())
        if company_id is not None:
            frame = frame.filter(pl.col("company_id") == str(company_id))
        return frame

    uploads = scan(UPLOADS).filter(pl.col("created_at") >= start, pl.col("created_at") <= end)
    batches = scan(BATCHES).filter(pl.col("created_at") >= start, pl.col("created_at") <= end)
    timed = timed_uploads(scan(STATUS_HISTORY), uploads)
    failed = uploads.filter(pl.col("status") == UploadStatus.FAILED)
    completed = uploads.filter(pl.col("status") == UploadStatus.COMPLETED)
    titles = (
        "Volumes",
        "Outcomes",
        "Results by type",
        "Failure codes",
        "Processing time by document type (seconds)",
        "Slowest files (seconds)",
    )
    frames: Sequence[pl.DataFrame] = pl.collect_all(
        [
            _volumes(uploads, batches),
            _shares(uploads, "status"),
            _shares(completed, "result_type"),
            _shares(failed, "error_code"),
            _times(timed),
            _slowest(timed, base_url, slowest),
        ]
    )
    sections = [Section(title, frame) for title, frame in zip(titles, frames, strict=True)]
    sections[-1] = Section(titles[-1], frames[-1], links=("upload", "result"))
    return StatusReport(start, end, company_id, tuple(sections))


def _cell(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:,.2f}"
    return str(value).replace("|", "\\|")


def to_markdown(report: StatusReport) -> str:
    lines = ["# Status report", "", report.scope + ".", ""]
    for section in report.sections:
        lines += [f"## {section.title}", ""]
        if section.frame.height == 0:
            lines += ["None.", ""]
            continue
        lines.append("| " + " | ".join(section.frame.columns) + " |")
        lines.append("|" + "---|" * section.frame.width)
        for row in section.frame.iter_rows(named=True):
            cells = [
                f"[open]({value})" if name in section.links and value else _cell(value)
                for name, value in row.items()
            ]
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)

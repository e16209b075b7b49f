"""Status-table export of 1,000,000 status rows, on SQLite and on Postgres.

A fresh database of each kind gets 333,334 uploads with 1,000,000 status changes between
them, inserted in bulk (executemany on SQLite, COPY on Postgres; not timed). Layout
`spread`: 4 companies x 25 days = 100 partitions, half of the uploads in batches of 100.
Layout `single` (SQLite only): everything in one company and day, one partition of
1,000,000 status rows, to show that memory does not grow with a partition's size.

Each measurement runs in a subprocess of its own, timing and taking the peak RSS of
- `full`: the whole export (uploads, status_history, results_by_type, failure_codes,
  batches), what the scheduled flow does on its first run;
- `status_history`: that table alone, and next to it the floor: polars writing the same
  1,000,000-row frame (read back from the export) to Parquet, once as one file and once
  partitioned by company and date like the export.

Run alone: `python -m bench.run export`.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, cast

from sqlalchemy import Engine

from testkit.databases import migrated_postgres, migrated_sqlite, postgres_reachable

UPLOADS = 333_334
HISTORY_ROWS = 1_000_000
BATCH_SIZE = 100
START = datetime(2026, 1, 5, 0, 30, tzinfo=UTC)
TARGET_SECONDS = 10.0
BASE_URL = "http://127.0.0.1:8000"


@dataclass(frozen=True)
class Layout:
    name: str
    companies: int
    days: int


SPREAD = Layout("spread", 4, 25)
SINGLE = Layout("single", 1, 1)


# --- data ------------------------------------------------------------------------------


@dataclass
class Rows:
    companies: list[tuple[Any, ...]]
    batches: list[tuple[Any, ...]]
    results: list[tuple[Any, ...]]
    uploads: list[tuple[Any, ...]]
    history: list[tuple[Any, ...]]


COLUMNS = {
    "companies": ("id", "name", "vat_ids", "ibans", "locale", "created_at"),
    "batches": [
        "id",
        "company_id",
        "document_type",
        "file_name",
        "sha256",
        "size_bytes",
        "object_key",
        "unpack_state",
        "attempts",
        "finished_at",
        "created_at",
        "updated_at",
    ],
    "results": ("id", "company_id", "type", "sha256", "data", "created_at"),
    "uploads": [
        "id",
        "company_id",
        "batch_id",
        "position",
        "file_name",
        "document_type",
        "status",
        "sha256",
        "size_bytes",
        "object_key",
        "result_id",
        "error_code",
        "error_message",
        "attempts",
        "created_at",
        "updated_at",
    ],
    "status_history": ("upload_id", "from_status", "to_status", "at"),
}
RESULT_TYPES = ("invoice", "other_document", "bank_statement")


def _sha(value: uuid.UUID) -> str:
    return hashlib.sha256(value.bytes).hexdigest()


def build_rows(layout: Layout) -> Rows:
    """Every row, as Python values (uuids, aware datetimes). The last upload failed at
    intake (one status change), every other one has three: 1,000,000 in all."""
    rows = Rows([], [], [], [], [])
    company_ids = [uuid.uuid4() for _ in range(layout.companies)]
    rows.companies = [(c, f"Bench {i}", "[]", "[]", "de", START) for i, c in enumerate(company_ids)]
    partitions = layout.companies * layout.days
    for index in range(partitions):
        company = company_ids[index % layout.companies]
        day_start = START + timedelta(days=index // layout.companies)
        count = UPLOADS // partitions + (1 if index < UPLOADS % partitions else 0)
        _partition_rows(rows, company, day_start, count, last=index == partitions - 1)
    assert len(rows.history) == HISTORY_ROWS, len(rows.history)
    return rows


def _partition_rows(
    rows: Rows, company: uuid.UUID, day_start: datetime, count: int, last: bool
) -> None:
    spacing = timedelta(seconds=min(10.0, 80_000 / count))
    batch_id = None
    for k in range(count):
        created = day_start + k * spacing
        if k < count // 2 and k % BATCH_SIZE == 0:
            batch_id = uuid.uuid4()
            finished = created + BATCH_SIZE * spacing + timedelta(seconds=8)
            rows.batches.append(
                (batch_id, company, "auto", "docs.zip", _sha(batch_id), 10_000_000,
                 f"batches/{batch_id}", "done", 1, finished, created, finished)
            )  # fmt: skip
        in_batch = batch_id if k < count // 2 else None
        _upload_rows(rows, company, in_batch, k, created, intake_failure=last and k == count - 1)


def _upload_rows(
    rows: Rows,
    company: uuid.UUID,
    batch_id: uuid.UUID | None,
    k: int,
    created: datetime,
    intake_failure: bool,
) -> None:
    upload_id = uuid.uuid4()
    sha = _sha(upload_id)
    processing = created + timedelta(seconds=0.5 + (k % 7) * 0.3)
    finished = processing + timedelta(seconds=1.0 + (k % 13) * 0.4)
    failed = intake_failure or k % 25 == 7
    result_id = None
    if not failed:
        result_id = uuid.uuid4()
        rows.results.append((result_id, company, RESULT_TYPES[k % 3], sha, "{}", finished))
    code = "unsupported_file_type" if intake_failure else "processing_failed" if failed else None
    position = k if batch_id else None
    status = "failed" if failed else "completed"
    updated = created if intake_failure else finished
    rows.uploads.append(
        (upload_id, company, batch_id, position, f"docs/file-{k}.pdf", "auto", status, sha,
         150_000 + k, f"uploads/{upload_id}", result_id, code, code and f"{code} message",
         0 if intake_failure else 1, created, updated)
    )  # fmt: skip
    if intake_failure:
        rows.history.append((upload_id, None, "failed", created))
        return
    rows.history.append((upload_id, None, "queued", created))
    rows.history.append((upload_id, "queued", "processing", processing))
    rows.history.append((upload_id, "processing", status, finished))


def _sqlite_value(value: Any) -> Any:
    """As storage.models' types store them on SQLite."""
    if isinstance(value, uuid.UUID):
        return value.hex
    if isinstance(value, datetime):
        return value.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
    return value


def insert_rows(engine: Engine, rows: Rows) -> None:
    """Bulk inserts through the driver (the ORM's per-value conversions would take
    minutes here): executemany on SQLite, COPY on Postgres."""
    raw = engine.raw_connection()
    try:
        cursor = raw.cursor()
        if engine.dialect.name == "sqlite":
            cursor.execute("BEGIN")  # the engine's connections autocommit otherwise
        for table, columns in COLUMNS.items():
            values = getattr(rows, "history" if table == "status_history" else table)
            names = ", ".join(columns)
            if engine.dialect.name == "sqlite":
                marks = ", ".join("?" for _ in columns)
                cursor.executemany(
                    f"INSERT INTO {table} ({names}) VALUES ({marks})",
                    cast(Any, ([_sqlite_value(v) for v in row] for row in values)),
                )
            else:
                with cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                    for row in values:
                        copy.write_row(row)
        raw.commit()
    finally:
        raw.close()


@contextmanager
def fresh_database(kind: str, directory: Path) -> Iterator[Engine]:
    if kind == "postgres":
        with migrated_postgres() as engine:
            yield engine
    else:
        with migrated_sqlite(directory) as engine:
            yield engine


# --- measurement (in a subprocess) -----------------------------------------------------


def _memory_mib(field: str) -> float:
    """VmRSS (now) or VmHWM (peak) of this process. Unlike ru_maxrss, the peak starts
    afresh at exec, so the parent's memory (the rows it inserted) does not count."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"{field} not in /proc/self/status")


def measure(url: str, store_dir: str, what: str) -> dict[str, Any]:
    import polars as pl

    from storage.db import Database, make_engine
    from storage.objectstore import LocalDirStore
    from storage.repositories import exports as repo
    from storage.tables.export import Exporter, ExportRun

    db = Database(make_engine(url))
    exporter = Exporter(db, LocalDirStore(Path(store_dir)), BASE_URL)
    with db.read_session() as session:  # warm the connection and the imports
        repo.changed_upload_partitions(session, datetime.now(UTC))
    rss_before = _memory_mib("VmRSS")
    load = os.getloadavg()[0]
    started, cpu_started = time.perf_counter(), time.process_time()
    if what == "full":
        run = exporter.export_changed(timedelta(0))
    else:
        run = ExportRun()
        with db.read_session() as session:
            partitions = repo.changed_upload_partitions(session, None)
        for partition in sorted(partitions):
            _export_history(exporter, partition, run)
    seconds = time.perf_counter() - started
    result: dict[str, Any] = {
        "seconds": round(seconds, 2),
        "cpu_seconds": round(time.process_time() - cpu_started, 2),
        "load_average_at_start": round(load, 1),
        "rows": run.rows,
        "partitions": run.upload_partitions + run.batch_partitions,
        "rss_before_mib": round(rss_before, 1),
        "peak_rss_mib": round(_memory_mib("VmHWM"), 1),
        "peak_growth_mib": round(_memory_mib("VmHWM") - rss_before, 1),
    }
    if what == "status_history":
        table = Path(store_dir) / "tables" / "status_history" / "v1"
        frame = pl.read_parquet(table, hive_partitioning=True)
        result["floor"] = _floor(frame)
    return result


def _export_history(exporter: Any, partition: Any, run: Any) -> None:
    from storage.repositories import exports as repo
    from storage.tables import frames
    from storage.tables.parquet import write_partition
    from storage.tables.schemas import STATUS_HISTORY

    key = STATUS_HISTORY.partition_key(partition.company_id, partition.day)
    with exporter.db.read_session() as session:
        history = frames.state_durations(
            repo.stream_history(session, partition, exporter.chunk_rows)
        )
        run.add(STATUS_HISTORY, write_partition(exporter.store, key, STATUS_HISTORY, history, {}))
    run.upload_partitions += 1


def _floor(frame: Any) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as directory:
        started = time.perf_counter()
        frame.drop("company_id", "date").write_parquet(Path(directory) / "one.parquet")
        one_file = time.perf_counter() - started
        started = time.perf_counter()
        frame.write_parquet(Path(directory) / "parts", partition_by=["company_id", "date"])
        partitioned = time.perf_counter() - started
    return {
        "rows": frame.height,
        "one_file_seconds": round(one_file, 2),
        "partitioned_seconds": round(partitioned, 2),
    }


def _measure_in_subprocess(url: str, store_dir: Path, what: str) -> dict[str, Any]:
    completed = subprocess.run(
        [sys.executable, "-m", "bench.export", "measure", url, str(store_dir), what],
        capture_output=True,
        text=True,
        check=False,
    )
    if completed.returncode != 0:
        raise RuntimeError(f"export measurement failed:\n{completed.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(completed.stdout.splitlines()[-1])
    return result


def _bench_one(kind: str, layout: Layout, work: Path) -> dict[str, Any]:
    rows = build_rows(layout)
    with fresh_database(kind, work) as engine:
        started = time.perf_counter()
        insert_rows(engine, rows)
        del rows
        insert_seconds = time.perf_counter() - started
        url = engine.url.render_as_string(hide_password=False)
        full = _measure_in_subprocess(url, work / "full", "full")
        history = _measure_in_subprocess(url, work / "history", "status_history")
    floor = history.pop("floor")
    return {
        "database": kind,
        "layout": layout.name,
        "status_rows": HISTORY_ROWS,
        "uploads": UPLOADS,
        "insert_seconds_untimed_setup": round(insert_seconds, 1),
        "full_export": full,
        "status_history_export": history,
        "floor_polars_write": floor,
        "status_history_vs_floor_partitioned": round(
            history["seconds"] / max(floor["partitioned_seconds"], 1e-9), 1
        ),
        "target_seconds": TARGET_SECONDS,
        "full_export_under_target": full["seconds"] < TARGET_SECONDS,
    }


def run() -> dict[str, Any]:
    runs = [("sqlite", SPREAD), ("sqlite", SINGLE)]
    if postgres_reachable():
        runs.append(("postgres", SPREAD))
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-export-") as directory:
        for kind, layout in runs:
            work = Path(directory) / f"{kind}-{layout.name}"
            work.mkdir()
            results.append(_bench_one(kind, layout, work))
            print(json.dumps(results[-1]), file=sys.stderr)
    return {"runs": results}


if __name__ == "__main__":
    if sys.argv[1:2] == ["measure"]:
        print(json.dumps(measure(*sys.argv[2:5])))
    else:
        print(json.dumps(run(), indent=2))

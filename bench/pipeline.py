"""Pipeline benchmarks on real processes (Prefect server, API, the dispatcher and a
Prefect worker of the `docintake` pool running `serve-queue`; Postgres when reachable,
else SQLite; local object directory), each next to its floor or target:

0. Cold start: one upload into the idle pipeline (a `serve-queue` run starts and warms
   up); the benchmarks after it find the run warm, as a busy service would.
1. A 100-file batch from ../shared/corpus, POST until terminal (the last upload's
   terminal time in the status history), five times. Floor: the pure processors' CPU
   time for those files, divided by the cores; cold (a process's first pass) for the
   first batch, warm (its second pass) for the others.
2. 1,000 small single uploads from 16 concurrent clients: documents/s sustained, and
   queued-to-completed latency from the status history.
3. Polling while a batch is processing: GET /v1/uploads/{id} at 200 requests/s, and the
   batch GET with 100 uploads.
"""

from __future__ import annotations

import io
import json
import os
import statistics
import subprocess
import tempfile
import time
import uuid
import zipfile
from contextlib import ExitStack
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx2 as httpx
from pypdf import PdfWriter
from sqlalchemy import text

from bench.stack import Stack, fresh_prefect_database
from bench.webhooks import bench_webhook_lag
from flows.reader_process import ReaderLimits, read_in_child, warm_up
from processors.base import CompanyProfile, DocumentType, ProcessingContext
from storage.db import make_engine
from testkit.databases import (
    POSTGRES_URL,
    migrated_postgres,
    migrated_sqlite,
    postgres_reachable,
)

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
CORES = os.cpu_count() or 1


def _corpus_files(count: int) -> list[tuple[str, bytes]]:
    rows = [json.loads(line) for line in (CORPUS / "manifest.jsonl").read_text().splitlines()]
    wanted = (
        "accept",
        "invalid_e_invoice",
        "accept_sepa",
        "pain008",
        "plain_pdf",
        "opens_without_password",
        "password_protected",
        "bank_statement",
        "plain_invoice",
    )
    picked, seen = [], set()
    for row in rows:
        if row["expected"] in wanted and row["sha256"] not in seen:
            seen.add(row["sha256"])
            picked.append(
                (f"{len(picked):03d}-{Path(row['file']).name}", (CORPUS / row["file"]).read_bytes())
            )
        if len(picked) == count:
            break
    return picked


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _floor_seconds(files: list[tuple[str, bytes]]) -> tuple[float, float]:
    """The pure processors' CPU time for the files over the cores, twice: `cold` is the
    first pass of a process that has only warmed up (as the readers meet a first batch),
    `warm` the second (as they meet every batch after it)."""
    warm_up()
    context = ProcessingContext(DocumentType.AUTO, "x", CompanyProfile("Bench GmbH"))
    passes = []
    for _ in range(2):
        started = time.process_time()
        for _, data in files:
            read_in_child(data, context, ReaderLimits())
        passes.append((time.process_time() - started) / CORES)
    return passes[0], passes[1]


def zip_files(files: list[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files:
            archive.writestr(name, data)
    return buffer.getvalue()


def _wait_batch(client: httpx.Client, batch_id: str, timeout: float = 600) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body = client.get(f"/v1/uploads/batches/{batch_id}").json()
        if body["status"] != "processing":
            return dict(body)
        time.sleep(0.25)  # a client polling faster than Retry-After would load the API
    raise RuntimeError("batch did not finish")


def bench_cold_start(stack: Stack) -> dict[str, Any]:
    """One upload into an idle pipeline: the dispatcher starts a `serve-queue` run on the
    work pool, whose process warms up before it reads. Later benchmarks find it warm."""
    key = stack.company_key("cold-start-bench")
    with httpx.Client(
        base_url=stack.api_url, headers={"Authorization": f"Bearer {key}"}, timeout=60
    ) as client:
        started = time.perf_counter()
        upload = client.post("/v1/uploads", files={"file": ("c.pdf", _tiny_pdf(-1))}).json()
        while client.get(f"/v1/uploads/{upload['id']}").json()["status"] != "completed":
            time.sleep(0.1)
    return {"seconds_idle_to_first_completed": round(time.perf_counter() - started, 2)}


def _rows(database_url: str, query: str, params: dict[str, Any]) -> list[Any]:
    engine = make_engine(database_url)
    with engine.connect() as connection:
        rows = connection.execute(text(query), params).all()
    engine.dispose()
    return list(rows)


def _unix_time(value: Any) -> float:
    """A timestamp column as a Unix time (SQLite hands back ISO text)."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return float(value.timestamp())


def _terminal_at(database_url: str, batch_id: str) -> float:
    """When the batch's last upload reached its terminal state (the status history),
    as a Unix time: polling every 0.25 s would add up to that much to the measure."""
    query = (
        "SELECT max(h.at) FROM status_history h JOIN uploads u ON u.id = h.upload_id "
        "WHERE u.batch_id = :batch AND h.to_status IN ('completed', 'failed')"
    )
    ((value,),) = _rows(database_url, query, {"batch": batch_id})
    return _unix_time(value)


def _one_batch(stack: Stack, database_url: str, archive: bytes, floor: float) -> dict[str, Any]:
    key = stack.company_key("batch-bench")
    with httpx.Client(
        base_url=stack.api_url, headers={"Authorization": f"Bearer {key}"}, timeout=120
    ) as client:
        posted_at, started = time.time(), time.perf_counter()
        created = client.post("/v1/uploads/batches", files={"file": ("b.zip", archive)}).json()
        body = _wait_batch(client, created["id"])
        seen = time.perf_counter() - started
    elapsed = _terminal_at(database_url, created["id"]) - posted_at
    return {
        "seconds_post_to_terminal": round(elapsed, 2),
        "seconds_until_client_saw_it": round(seen, 2),
        "ratio_to_floor": round(elapsed / floor, 2),
        "batch_status": body["status"],
        "counts": body["counts"],
    }


def bench_batch(
    stack: Stack, database_url: str, files: list[tuple[str, bytes]], repeats: int = 5
) -> dict[str, Any]:
    """The same 100 files as new batches of new companies, `repeats` times: the first
    meets readers that have only warmed up (against the cold floor), the others meet
    readers that have read such files before (against the warm floor)."""
    cold, warm = _floor_seconds(files)
    archive = zip_files(files)
    runs = [_one_batch(stack, database_url, archive, cold)]
    runs += [_one_batch(stack, database_url, archive, warm) for _ in range(repeats - 1)]
    later = statistics.median(run["seconds_post_to_terminal"] for run in runs[1:])
    return {
        "files": len(files),
        "floor_seconds_cold": round(cold, 2),
        "floor_seconds_warm": round(warm, 2),
        "runs": runs,
        "first_ratio_to_cold_floor": runs[0]["ratio_to_floor"],
        "later_median_seconds": round(later, 2),
        "later_median_ratio_to_warm_floor": round(later / warm, 2),
        "target_ratio": 1.5,
    }


def _tiny_pdf(index: int) -> bytes:
    writer = PdfWriter()
    writer.add_blank_page(width=100, height=100)
    writer.add_metadata({"/Title": f"bench document {index}"})
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def _latencies(database_url: str, company_key_prefix: str) -> list[float]:
    query = (
        "SELECT q.at, c.at FROM status_history q JOIN status_history c "
        "ON c.upload_id = q.upload_id AND c.to_status IN ('completed', 'failed') "
        "JOIN uploads u ON u.id = q.upload_id JOIN api_keys k ON k.company_id = u.company_id "
        "WHERE q.to_status = 'queued' AND q.from_status IS NULL AND k.prefix = :prefix"
    )
    rows = _rows(database_url, query, {"prefix": company_key_prefix})
    return [_unix_time(done) - _unix_time(queued) for queued, done in rows]


def _curl_config(url: str, key: str, files: list[Path]) -> str:
    blocks = [
        f'url = "{url}"\nheader = "Authorization: Bearer {key}"\nform = "file=@{path}"\n'
        'output = "/dev/null"\nwrite-out = "%{http_code}\\n"\n'
        for path in files
    ]
    return "next\n".join(blocks)


def bench_singles(
    stack: Stack, database_url: str, count: int = 1000, clients: int = 16, key: str | None = None
) -> dict[str, Any]:
    """One curl process with `clients` parallel transfers sends the uploads: a C client,
    so the 2 cores measure the service rather than a Python client. `key`: a company's
    (bench/webhooks.py sends for a company with a webhook endpoint)."""
    key = key or stack.company_key("singles-bench")
    folder = stack.work / "singles"
    folder.mkdir()
    paths = []
    for index in range(count):
        path = folder / f"{index}.pdf"
        path.write_bytes(_tiny_pdf(index))
        paths.append(path)
    config = folder / "curl.cfg"
    config.write_text(_curl_config(stack.api_url + "/v1/uploads", key, paths))
    started = time.perf_counter()
    answer = subprocess.run(
        ["curl", "-sS", "--parallel", "--parallel-max", str(clients), "--config", str(config)],
        capture_output=True,
        text=True,
        check=True,
    )
    accepted = time.perf_counter() - started
    codes = answer.stdout.split()
    assert codes.count("202") == count, codes[:20]
    # Completion is read from the database, not by polling the API 1,000 times.
    while len(latencies := _latencies(database_url, key[:12])) < count:
        time.sleep(0.25)
    elapsed = time.perf_counter() - started
    return {
        "uploads": count,
        "clients": clients,
        "client": "curl --parallel",
        "seconds_to_accept_all": round(accepted, 2),
        "accepted_per_second": round(count / accepted, 1),
        "seconds_to_complete_all": round(elapsed, 2),
        "documents_per_second": round(count / elapsed, 1),
        "target_documents_per_second": 25,
        "queued_to_completed_p50_s": round(statistics.median(latencies), 3),
        "queued_to_completed_p95_s": round(_percentile(latencies, 0.95), 3),
        "target_p50_s": 2.0,
    }


def _paced_gets(
    url: str, key: str, rate: int, seconds: float, folder: Path
) -> subprocess.Popen[str]:
    """A curl process sending `rate` GETs per second for `seconds`, printing the status
    and the time of each: a C client, so the timings are the server's, not a Python
    client's waiting for its own GIL."""
    count = int(rate * seconds)
    block = (
        f'url = "{url}"\nheader = "Authorization: Bearer {key}"\noutput = "/dev/null"\n'
        'write-out = "%{http_code} %{time_total}\\n"\n'
    )
    config = folder / f"poll-{uuid.uuid4().hex[:8]}.cfg"
    config.write_text("next\n".join([block] * count))
    return subprocess.Popen(
        ["curl", "-sS", "--rate", f"{rate}/s", "--config", str(config)],
        stdout=subprocess.PIPE,
        text=True,
    )


def _timings(process: subprocess.Popen[str]) -> list[float]:
    out, _ = process.communicate(timeout=120)
    rows = [line.split() for line in out.splitlines()]
    assert rows and all(code == "200" for code, _ in rows), rows[:5]
    return [float(seconds) for _, seconds in rows]


BUSY_BATCHES = 8
POLL_SECONDS = 10


def bench_polling(stack: Stack, files: list[tuple[str, bytes]]) -> dict[str, Any]:
    key = stack.company_key("polling-bench")
    headers = {"Authorization": f"Bearer {key}"}
    with httpx.Client(base_url=stack.api_url, headers=headers, timeout=30) as client:
        done = client.post(
            "/v1/uploads/batches", files={"file": ("p.zip", zip_files(files))}
        ).json()
        finished = _wait_batch(client, done["id"])
        upload_id = finished["uploads"][0]["id"]
        # Enough new work to keep the pipeline busy through the whole polling window.
        for round_ in range(BUSY_BATCHES):
            busy = zip_files(
                [(f"{round_}-{name}", data + b"\n" * (round_ + 1)) for name, data in files]
            )
            running = client.post("/v1/uploads/batches", files={"file": ("q.zip", busy)}).json()
        time.sleep(1.0)
        single = _paced_gets(
            f"{stack.api_url}/v1/uploads/{upload_id}", key, 200, POLL_SECONDS, stack.work
        )
        batch = _paced_gets(
            f"{stack.api_url}/v1/uploads/batches/{done['id']}", key, 20, POLL_SECONDS, stack.work
        )
        single_t, batch_t = _timings(single), _timings(batch)
        still_running = client.get(f"/v1/uploads/batches/{running['id']}").json()["status"]
    return {
        "client": "curl --rate, one process per URL",
        "upload_get_rate_per_s": 200,
        "upload_get_p50_ms": round(1000 * statistics.median(single_t), 1),
        "upload_get_p99_ms": round(1000 * _percentile(single_t, 0.99), 1),
        "upload_get_target_p99_ms": 25,
        "batch_get_uploads": len(finished["uploads"]),
        "batch_get_p50_ms": round(1000 * statistics.median(batch_t), 1),
        "batch_get_p99_ms": round(1000 * _percentile(batch_t, 0.99), 1),
        "batch_get_target_p99_ms": 50,
        "batch_still_processing_after": still_running == "processing",
    }


def run() -> dict[str, Any]:
    files = _corpus_files(100)
    with tempfile.TemporaryDirectory(prefix="docintake-pipeline-") as tmp, ExitStack() as stack:
        work = Path(tmp)
        prefect_database = None
        if postgres_reachable():
            engine = stack.enter_context(migrated_postgres())
            database = "postgres"
            prefect_database = fresh_prefect_database(POSTGRES_URL)
        else:
            engine = stack.enter_context(migrated_sqlite(work))
            database = "sqlite"
        url = engine.url.render_as_string(hide_password=False)
        processes = Stack(
            work,
            url,
            {"DOCINTAKE_MAX_ARCHIVE_BYTES": str(300 * 1024 * 1024)},
            prefect_database,
        )
        try:
            return {
                "database": database,
                "prefect_server_database": "postgres" if prefect_database else "sqlite",
                "worker_processes": CORES,
                "cold_start": bench_cold_start(processes),
                "batch_100_files": bench_batch(processes, url, files),
                "singles_1000_from_16_clients": bench_singles(processes, url),
                "webhooks_under_singles_load": bench_webhook_lag(processes, url),
                "polling_while_processing": bench_polling(processes, files),
            }
        finally:
            processes.stop()

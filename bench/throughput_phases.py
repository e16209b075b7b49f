"""The phases of the throughput benchmark on a running stack (bench/throughput.py): each
sends its load, waits for its documents to be terminal (read from the status history,
not by polling the API) and returns what it measured next to its floor and target."""

from __future__ import annotations

import os
import statistics
import subprocess
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx2 as httpx
from sqlalchemy import Uuid, bindparam, text

from bench.pipeline import (
    _curl_config,
    _paced_gets,
    _percentile,
    _rows,
    _timings,
    _unix_time,
    zip_files,
)
from bench.stack import Stack
from bench.stack_cpu import CpuMeter
from bench.throughput_docs import Document, Floor
from storage.db import make_engine

WAIT_SECONDS = 900.0


def _terminal_at(url: str, batch_id: str) -> float:
    """When the batch's last upload reached its terminal state, as a Unix time."""
    query = text(
        "SELECT max(h.at) FROM status_history h JOIN uploads u ON u.id = h.upload_id "
        "WHERE u.batch_id = :batch AND h.to_status IN ('completed', 'failed')"
    ).bindparams(bindparam("batch", type_=Uuid()))
    engine = make_engine(url)
    with engine.connect() as connection:
        value = connection.execute(query, {"batch": uuid.UUID(batch_id)}).scalar_one()
    engine.dispose()
    return _unix_time(value)


def prefect_events(work: Path, prefect_url: str | None) -> dict[str, int]:
    """Events the Prefect server stored during the run, by name, most first: each is
    writes and trigger evaluations in the server."""
    if prefect_url is None:
        url = f"sqlite:///{work / 'prefect' / 'prefect.db'}"
    else:
        url = prefect_url.replace("+asyncpg", "+psycopg")
    query = "SELECT event, count(*) FROM events GROUP BY event ORDER BY count(*) DESC"
    return {str(name): int(count) for name, count in _rows(url, query, {})}


def load_average() -> float:
    return round(os.getloadavg()[0], 2)


def _client(stack: Stack, key: str) -> httpx.Client:
    headers = {"Authorization": f"Bearer {key}"}
    return httpx.Client(base_url=stack.api_url, headers=headers, timeout=120)


def _post_batch(stack: Stack, key: str, archive: bytes) -> str:
    with _client(stack, key) as client:
        answer = client.post("/v1/uploads/batches", files={"file": ("b.zip", archive)})
        answer.raise_for_status()
        return str(answer.json()["id"])


def _wait_batches(stack: Stack, keys: list[str], batch_ids: list[str]) -> list[str]:
    """Until every batch is finished (its run has written its artifact and status):
    their final statuses."""
    deadline = time.monotonic() + WAIT_SECONDS
    statuses = []
    for key, batch_id in zip(keys, batch_ids, strict=True):
        with _client(stack, key) as client:
            while (status := client.get(f"/v1/uploads/batches/{batch_id}").json()["status"]) == (
                "processing"
            ):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"batch {batch_id} did not finish")
                time.sleep(0.5)
        statuses.append(status)
    return statuses


def company_keys(stack: Stack, label: str, count: int) -> list[str]:
    """API keys of `count` new companies (each made by a CLI process: made before any
    clock starts)."""
    return [stack.company_key(f"{label}-{n}") for n in range(count)]


def post_batches(stack: Stack, keys: list[str], archives: list[bytes]) -> list[str]:
    """Every archive at once, the n-th for the n-th key's company: the batch ids."""
    with ThreadPoolExecutor(len(archives)) as pool:
        pairs = zip(keys, archives, strict=True)
        return list(pool.map(lambda pair: _post_batch(stack, *pair), pairs))


def idle_cpu_per_second(meter: CpuMeter, seconds: float) -> dict[str, float]:
    """What the idle stack spends (polling loops, Prefect's services), CPU s per s."""
    meter.start()
    time.sleep(seconds)
    spent = meter.stop()
    return {role: round(value / seconds, 4) for role, value in spent.items()}


def sustained(
    stack: Stack, url: str, batches: list[list[Document]], floor: Floor, meter: CpuMeter
) -> dict[str, Any]:
    """Targets 1 and 2: the batches sent at once; throughput from the first POST to the
    last upload's terminal time, CPU of every process of the stack from just before the
    first POST until every batch is finished."""
    documents = [document for batch in batches for document in batch]
    keys = company_keys(stack, "sustained", len(batches))
    archives = [zip_files(batch) for batch in batches]
    load = load_average()
    meter.start()
    posted_at = time.time()
    ids = post_batches(stack, keys, archives)
    statuses = _wait_batches(stack, keys, ids)
    spent = meter.stop()
    elapsed = max(_terminal_at(url, batch_id) for batch_id in ids) - posted_at
    floor_rate = floor.per_second(documents)
    processors_cpu = floor.cpu(documents)
    rate = len(documents) / elapsed
    return {
        "load_average_1m_at_start": load,
        "load_average_1m_at_end": load_average(),
        "batches": len(batches),
        "documents": len(documents),
        "batch_statuses": sorted(set(statuses)),
        "seconds_first_post_to_last_terminal": round(elapsed, 2),
        "documents_per_second": round(rate, 1),
        "floor_documents_per_second": round(floor_rate, 1),
        "fraction_of_floor": round(rate / floor_rate, 3),
        "target_fraction_of_floor": 0.85,
        "cpu": {
            "processors_own_cpu_s": round(processors_cpu, 2),
            "stack_cpu_s": round(meter.total, 2),
            "stack_cpu_by_role_s": {role: round(value, 2) for role, value in spent.items()},
            "stack_per_processors_cpu": round(meter.total / processors_cpu, 3),
            "target_stack_per_processors_cpu": 1.2,
            "beyond_processors_ms_per_document_by_role": _beyond(spent, processors_cpu, documents),
            # The floor swings by a quarter between runs on a shared machine; the
            # reading processes of the same run swing with the machine, so the rest of
            # the stack per reader CPU compares runs more steadily (docs/throughput.md).
            "rest_of_stack_per_readers_cpu": _rest_per_readers(spent),
            "seconds_measured": round(time.time() - posted_at, 2),
        },
    }


def _rest_per_readers(spent: dict[str, float]) -> float | None:
    readers = spent.get("reader", 0.0)
    rest = sum(value for role, value in spent.items() if role != "reader")
    return round(rest / readers, 3) if readers else None


def _beyond(spent: dict[str, float], processors_cpu: float, documents: list[Document]) -> Any:
    """Milliseconds of CPU per document each role spends; for the readers, what they
    spend beyond the processors' own CPU in one warm process."""
    per = {role: 1000 * value / len(documents) for role, value in spent.items()}
    if "reader" in per:
        per["reader"] -= 1000 * processors_cpu / len(documents)
    return {role: round(value, 2) for role, value in sorted(per.items(), key=lambda kv: -kv[1])}


def idle_batches(
    stack: Stack, url: str, files: list[Document], floor: Floor, repeats: int
) -> tuple[dict[str, Any], tuple[str, str]]:
    """Target 3: one batch at a time on an otherwise idle stack, POST to terminal (the
    last upload's terminal time in the status history). Also returns the last batch
    (key, id), finished, for polling."""
    warm = floor.seconds(files)
    archive = zip_files(files)
    runs = []
    for _ in range(repeats):
        time.sleep(2.0)  # the previous batch's run finishes its artifact and tables
        load = load_average()
        key = stack.company_key("idle-batch")
        posted_at = time.time()
        batch_id = _post_batch(stack, key, archive)
        (status,) = _wait_batches(stack, [key], [batch_id])
        if status == "failed":
            with _client(stack, key) as client:
                raise RuntimeError(client.get(f"/v1/uploads/batches/{batch_id}").text)
        elapsed = _terminal_at(url, batch_id) - posted_at
        runs.append({"seconds_post_to_terminal": round(elapsed, 3), "load_average_1m": load})
    seconds = statistics.median(run["seconds_post_to_terminal"] for run in runs)
    return {
        "files": len(files),
        "floor_seconds_warm": round(warm, 3),
        "runs": runs,
        "median_seconds_post_to_terminal": round(seconds, 2),
        "over_floor_seconds": round(seconds - warm, 2),
        "target_over_floor_seconds": 0.4,
    }, (key, batch_id)


def _singles_record(url: str, prefix: str) -> tuple[list[float], float]:
    """Queued-to-terminal latencies of a company's uploads and the last terminal time."""
    query = (
        "SELECT q.at, c.at FROM status_history q JOIN status_history c "
        "ON c.upload_id = q.upload_id AND c.to_status IN ('completed', 'failed') "
        "JOIN uploads u ON u.id = q.upload_id JOIN api_keys k ON k.company_id = u.company_id "
        "WHERE q.to_status = 'queued' AND q.from_status IS NULL AND k.prefix = :prefix"
    )
    rows = [(_unix_time(q), _unix_time(c)) for q, c in _rows(url, query, {"prefix": prefix})]
    return [done - queued for queued, done in rows], max((c for _, c in rows), default=0.0)


def _send_singles(
    stack: Stack, key: str, documents: list[Document], folder: Path, senders: int, rate: float
) -> float:
    """curl processes (a C client) sending the uploads: `senders` in parallel as fast as
    the API takes them (rate 0), or `senders` paced ones at `rate` uploads/s together.
    Returns the wall time of the first send."""
    folder.mkdir(parents=True)
    paths = []
    for index, (name, data) in enumerate(documents):
        # curl's form syntax breaks on `;` and `,` in a path: a safe name, same suffix.
        (path := folder / f"{index:04d}{Path(name).suffix}").write_bytes(data)
        paths.append(path)
    url = stack.api_url + "/v1/uploads"
    commands = []
    for index in range(senders if rate else 1):
        config = folder / f"curl-{index}.cfg"
        config.write_text(_curl_config(url, key, paths[index :: senders if rate else 1]))
        base = ["curl", "-sS", "--config", str(config)]
        if rate:
            commands.append([*base, "--rate", f"{max(1, round(60 * rate / senders))}/m"])
        else:
            commands.append([*base, "--parallel", "--parallel-max", str(senders)])
    started = time.time()
    processes = [subprocess.Popen(c, stdout=subprocess.PIPE, text=True) for c in commands]
    codes = [code for process in processes for code in process.communicate()[0].split()]
    assert codes.count("202") == len(documents), codes[:20]
    return started


def _wait_singles(url: str, prefix: str, count: int) -> tuple[list[float], float]:
    deadline = time.monotonic() + WAIT_SECONDS
    while len((record := _singles_record(url, prefix))[0]) < count:
        if time.monotonic() > deadline:
            raise RuntimeError("single uploads did not finish")
        time.sleep(0.5)
    return record


def singles(
    stack: Stack,
    url: str,
    fast: list[Document],
    paced: list[Document],
    floor: Floor,
    meter: CpuMeter,
) -> dict[str, Any]:
    """Target 4: single uploads from 16 parallel senders, throughput against the floor
    (and the stack's CPU by role, from the first send until every one is terminal); then
    others paced at half the floor's rate, their queued-to-completed latency."""
    load = load_average()
    key = stack.company_key("singles-fast")
    meter.start()
    started = _send_singles(stack, key, fast, stack.work / "singles-fast", 16, 0)
    _, last = _wait_singles(url, key[:12], len(fast))
    spent = meter.stop()
    rate, floor_rate = len(fast) / (last - started), floor.per_second(fast)
    time.sleep(2.0)
    paced_load = load_average()
    paced_rate = floor.per_second(paced) / 2
    key = stack.company_key("singles-paced")
    started = _send_singles(stack, key, paced, stack.work / "singles-paced", 4, paced_rate)
    sent_for = time.time() - started
    latencies, _ = _wait_singles(url, key[:12], len(paced))
    return {
        "load_average_1m_at_start": load,
        "uploads": len(fast),
        "senders": "curl --parallel, 16 transfers",
        "documents_per_second": round(rate, 1),
        "floor_documents_per_second": round(floor_rate, 1),
        "fraction_of_floor": round(rate / floor_rate, 3),
        "target_fraction_of_floor": 0.8,
        "cpu_by_role_s": {role: round(value, 2) for role, value in spent.items()},
        "beyond_processors_ms_per_document_by_role": _beyond(spent, floor.cpu(fast), fast),
        "paced": {
            "load_average_1m_at_start": paced_load,
            "uploads": len(paced),
            "senders": "4 curl processes, --rate each",
            "target_rate_per_second": round(paced_rate, 1),
            "achieved_rate_per_second": round(len(paced) / sent_for, 1),
            "queued_to_completed_p50_s": round(statistics.median(latencies), 3),
            "queued_to_completed_p95_s": round(_percentile(latencies, 0.95), 3),
            "target_p50_s": 0.3,
        },
    }


def polling(
    stack: Stack,
    finished: tuple[str, str],
    load_batches: list[list[Document]],
    rate: int,
    seconds: float,
) -> dict[str, Any]:
    """Target 5: GET of one upload at `rate` requests/s (five paced curl processes) and
    the batch GET of a finished 100-file batch at 20/s, while `load_batches` are read."""
    key, batch_id = finished
    with _client(stack, key) as client:
        uploads = client.get(f"/v1/uploads/batches/{batch_id}").json()["uploads"]
    keys = company_keys(stack, "polling-load", len(load_batches))
    ids = post_batches(stack, keys, [zip_files(batch) for batch in load_batches])
    time.sleep(1.0)
    load = load_average()
    upload_url = f"{stack.api_url}/v1/uploads/{uploads[0]['id']}"
    started = time.monotonic()
    singles = [_paced_gets(upload_url, key, rate // 5, seconds, stack.work) for _ in range(5)]
    batch_url = f"{stack.api_url}/v1/uploads/batches/{batch_id}"
    batch = _paced_gets(batch_url, key, 20, seconds, stack.work)
    single_t = [t for process in singles for t in _timings(process)]
    batch_t = _timings(batch)
    polled_for = time.monotonic() - started
    with _client(stack, keys[-1]) as client:
        busy = client.get(f"/v1/uploads/batches/{ids[-1]}").json()["status"] == "processing"
    _wait_batches(stack, keys, ids)
    return {
        "load_average_1m_at_start": load,
        "load": f"{len(load_batches)} batches of {len(load_batches[0])} documents",
        "upload_get_target_rate_per_s": rate,
        "upload_get_achieved_rate_per_s": round(len(single_t) / polled_for, 1),
        "upload_get_p50_ms": round(1000 * statistics.median(single_t), 1),
        "upload_get_p99_ms": round(1000 * _percentile(single_t, 0.99), 1),
        "upload_get_target_p99_ms": 10,
        "batch_get_uploads": len(uploads),
        "batch_get_p50_ms": round(1000 * statistics.median(batch_t), 1),
        "batch_get_p99_ms": round(1000 * _percentile(batch_t, 0.99), 1),
        "batch_get_target_p99_ms": 25,
        "load_still_processing_after": busy,
    }

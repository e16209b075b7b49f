"""Target 5 in isolation: the API alone, polled as bench/throughput_phases.py `polling`
polls it, with its latency and its CPU per request.

    python -m bench.polling [--mode embedded|production] [--busy] [--seconds 10]

The API starts as bench/stack.py starts it (`docintake serve` on 127.0.0.1, a free
port) on a fresh database (SQLite in a temporary directory, or a schema of its own in
the shared Postgres), seeded with one company, a `processing` upload and a finished
batch of 100 uploads. Paced curl processes (a C client) then GET the upload at `--rate`
requests/s (five processes) and the batch at 20/s for `--seconds`. `--busy` keeps both
cores busy with CPU burners at nice 15, as the pipeline's reading processes are. One
JSON object on stdout: latencies and the API processes' CPU ms per request (utime +
stime from /proc, before and after).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from sqlalchemy import Engine

from bench.pipeline import _paced_gets, _percentile, _timings
from bench.stack import ROOT, _stop_group, _wait_http, descendants
from bench.stack_cpu import process_cpu_seconds
from storage.db import Database, make_engine
from storage.migrate import upgrade
from storage.models import Batch, Result, Upload
from storage.repositories import api_keys, companies
from storage.states import UnpackState, UploadStatus
from testkit.databases import migrated_postgres
from testkit.seaweed import free_port

BATCH_UPLOADS = 100
BATCH_RATE = 20
UPLOAD_CLIENTS = 5


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _upload(company_id: uuid.UUID, name: str, status: UploadStatus, **fields: Any) -> Upload:
    return Upload(
        id=uuid.uuid4(),
        company_id=company_id,
        file_name=name,
        document_type="auto",
        status=status,
        sha256=_hash(name),
        size_bytes=1000,
        **fields,
    )


def seed(engine: Engine) -> tuple[str, str, str]:
    """A company with an API key, a `processing` upload and a finished batch of 100
    uploads, each completed with an invoice result: (key, upload id, batch id)."""
    with Database(engine).session() as session:
        company = companies.create_company(session, "Polling GmbH")
        key = api_keys.create_api_key(session, company.id, name="bench")
        single = _upload(company.id, "single.pdf", UploadStatus.PROCESSING, object_key="u/1")
        batch = Batch(
            id=uuid.uuid4(),
            company_id=company.id,
            document_type="auto",
            file_name="batch.zip",
            sha256=_hash("batch"),
            size_bytes=100_000,
            object_key="b/1",
            unpack_state=UnpackState.DONE,
        )
        session.add_all([single, batch])
        session.flush()
        for position in range(BATCH_UPLOADS):
            name = f"invoice-{position:03d}.pdf"
            result = Result(
                id=uuid.uuid4(), company_id=company.id, type="invoice", sha256=_hash(name)
            )
            session.add(result)
            session.flush()
            upload = _upload(
                company.id,
                name,
                UploadStatus.COMPLETED,
                batch_id=batch.id,
                position=position,
                result_id=result.id,
            )
            session.add(upload)
        session.commit()
        return key.plaintext, str(single.id), str(batch.id)


@contextlib.contextmanager
def database(mode: str, work: Path) -> Iterator[Engine]:
    if mode == "production":
        with migrated_postgres() as engine:
            yield engine
        return
    engine = make_engine(f"sqlite:///{work / 'docintake.db'}")
    upgrade(engine)
    try:
        yield engine
    finally:
        engine.dispose()


@contextlib.contextmanager
def api_process(work: Path, database_url: str, workers: int | None) -> Iterator[tuple[str, int]]:
    """`docintake serve` as bench/stack.py starts it: (base URL, pid)."""
    port = free_port()
    env = {
        **os.environ,
        "DOCINTAKE_VAR_DIR": str(work / "var"),
        "DOCINTAKE_DATABASE_URL": database_url,
        "DOCINTAKE_RATE_LIMIT_PER_SECOND": "100000",
        "DOCINTAKE_RATE_LIMIT_BURST": "100000",
    }
    command = [sys.executable, "-m", "api.cli", "serve", "--port", str(port)]
    if workers is not None:
        command += ["--workers", str(workers)]
    with open(work / "api.log", "ab") as log:
        process = subprocess.Popen(
            command, env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_http(url + "/healthz", 120, process)
        yield url, process.pid
    finally:
        _stop_group(process)


@contextlib.contextmanager
def cpu_burners(busy: bool) -> Iterator[None]:
    """One endless loop per core at nice 15, as the pipeline's reading processes run."""
    burners = [
        subprocess.Popen(["nice", "-n", "15", sys.executable, "-c", "while True: pass"])
        for _ in range(os.cpu_count() or 1 if busy else 0)
    ]
    try:
        yield
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()


@contextlib.contextmanager
def profiler(pid: int, output: Path, seconds: float) -> Iterator[None]:
    """py-spy on the API processes for the polling window, the thread holding the GIL
    only: collapsed stacks in `output` (py-spy's CPU is not in the tree measured)."""
    command = [str(Path(sys.executable).parent / "py-spy"), "record", "--subprocesses", "--gil"]
    command += ["--nonblocking", "--format", "raw", "-d", str(int(seconds)), "-o", str(output)]
    process = subprocess.Popen([*command, "-p", str(pid)], stdout=subprocess.DEVNULL)
    try:
        yield
    finally:
        process.wait()


def tree_cpu_seconds(pid: int) -> dict[int, float]:
    """CPU seconds of the API's processes (the supervisor and each worker), by pid."""
    return {p: process_cpu_seconds(p) for p in [pid, *descendants(pid)]}


def poll(url: str, key: str, ids: tuple[str, str], rate: int, seconds: float, work: Path) -> Any:
    upload_id, batch_id = ids
    started = time.monotonic()
    singles = [
        _paced_gets(f"{url}/v1/uploads/{upload_id}", key, rate // UPLOAD_CLIENTS, seconds, work)
        for _ in range(UPLOAD_CLIENTS)
    ]
    batch = _paced_gets(f"{url}/v1/uploads/batches/{batch_id}", key, BATCH_RATE, seconds, work)
    single_t = [t for process in singles for t in _timings(process)]
    batch_t = _timings(batch)
    return single_t, batch_t, time.monotonic() - started


def _ms(values: list[float], q: float) -> float:
    return round(1000 * (statistics.median(values) if q == 0.5 else _percentile(values, q)), 2)


def measure(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="docintake-polling-") as tmp, ExitStack() as stack:
        work = Path(tmp)
        engine = stack.enter_context(database(args.mode, work))
        key, upload_id, batch_id = seed(engine)
        database_url = engine.url.render_as_string(hide_password=False)
        url, pid = stack.enter_context(api_process(work, database_url, args.workers))
        # Warm-up: every API process's first requests (imports, connections, caches).
        poll(url, key, (upload_id, batch_id), 200, 2, work)
        stack.enter_context(cpu_burners(args.busy))
        time.sleep(0.5 if args.busy else 0)
        load = os.getloadavg()[0]
        cpu_before = tree_cpu_seconds(pid)
        if args.profile:
            stack.enter_context(profiler(pid, args.profile, args.seconds))
        single_t, batch_t, polled_for = poll(
            url, key, (upload_id, batch_id), args.rate, args.seconds, work
        )
        cpu_after = tree_cpu_seconds(pid)
    by_process = [cpu_after[p] - cpu_before.get(p, 0.0) for p in cpu_after]
    cpu = sum(by_process)
    requests = len(single_t) + len(batch_t)
    return {
        "mode": args.mode,
        "busy": args.busy,
        "api_processes": len(by_process),
        "load_average_1m_at_start": round(load, 2),
        "seconds": round(polled_for, 2),
        "upload_get_target_rate_per_s": args.rate,
        "upload_get_achieved_rate_per_s": round(len(single_t) / polled_for, 1),
        "upload_get_p50_ms": _ms(single_t, 0.5),
        "upload_get_p99_ms": _ms(single_t, 0.99),
        "upload_get_target_p99_ms": 10,
        "batch_get_uploads": BATCH_UPLOADS,
        "batch_get_achieved_rate_per_s": round(len(batch_t) / polled_for, 1),
        "batch_get_p50_ms": _ms(batch_t, 0.5),
        "batch_get_p99_ms": _ms(batch_t, 0.99),
        "batch_get_target_p99_ms": 25,
        "api_cpu_s": round(cpu, 3),
        # Each curl process keeps one connection, so one API process may get most of them.
        "api_cpu_s_by_process": sorted((round(value, 2) for value in by_process), reverse=True),
        "api_cpu_ms_per_request": round(1000 * cpu / requests, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=["embedded", "production"], default="embedded")
    parser.add_argument("--busy", action="store_true", help="niced CPU burners on every core")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rate", type=int, default=500, help="upload GETs per second")
    parser.add_argument("--workers", type=int, default=None, help="API processes (serve's default)")
    parser.add_argument("--profile", type=Path, help="py-spy's collapsed stacks to this file")
    print(json.dumps(measure(parser.parse_args()), indent=2))


if __name__ == "__main__":
    main()

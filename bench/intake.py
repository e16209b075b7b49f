"""Intake throughput: a 200 MiB archive and a 50 MiB file through a real API process,
next to the floor (SHA-256 plus writing the same bytes to the same store, same run),
and the API process's peak memory for one and for several concurrent uploads."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx2 as httpx

from storage.objectstore import LocalDirStore, ObjectStore, S3Store
from storage.settings import MIB
from testkit.seaweed import ACCESS_KEY, SECRET_KEY, SeaweedServer, free_port, start_seaweed

CHUNK = MIB


def _random_file(path: Path, size: int, header: bytes = b"") -> Path:
    with open(path, "wb") as out:
        out.write(header)
        remaining = size - len(header)
        while remaining > 0:
            block = os.urandom(min(CHUNK, remaining))
            out.write(block)
            remaining -= len(block)
    return path


def _archive(path: Path, parts: int, part_size: int, work: Path) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        for index in range(parts):
            member = _random_file(work / f"part{index}.pdf", part_size, b"%PDF-1.7\n")
            archive.write(member, f"docs/{index}.pdf")
            member.unlink()
    return path


REPEATS = 3


def _median(values: list[float]) -> float:
    return sorted(values)[len(values) // 2]


def floor_mb_per_s(store: ObjectStore, source: Path) -> float:
    """Hash and store the same bytes with no HTTP in between (median of REPEATS)."""
    return _median([_floor_once(store, source) for _ in range(REPEATS)])


def _floor_once(store: ObjectStore, source: Path) -> float:
    started = time.perf_counter()
    digest = hashlib.sha256()
    writer = store.open_writer(f"floor/{source.name}")
    with open(source, "rb") as data:
        while block := data.read(CHUNK):
            digest.update(block)
            writer.write(block)
    writer.commit()
    elapsed = time.perf_counter() - started
    store.delete(f"floor/{source.name}")
    return source.stat().st_size / MIB / elapsed


def _rss_kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"{field} not in /proc/{pid}/status")


def _reset_peak(pid: int) -> None:
    # Writing 5 to clear_refs resets VmHWM to the current RSS (Linux >= 4.0).
    Path(f"/proc/{pid}/clear_refs").write_text("5")


class ApiProcess:
    def __init__(self, var_dir: Path, env: dict[str, str]) -> None:
        self.port = free_port()
        self.env = {**os.environ, "DOCINTAKE_VAR_DIR": str(var_dir), **env}
        subprocess.run(
            [sys.executable, "-m", "api.cli", "migrate"],
            env=self.env,
            check=True,
            capture_output=True,
        )
        created = subprocess.run(
            [sys.executable, "-m", "api.cli", "company", "create", "--name", "Bench", "--json"],
            env=self.env,
            check=True,
            capture_output=True,
            text=True,
        )
        self.key = json.loads(created.stdout.splitlines()[-1])["apiKey"]
        self.process = subprocess.Popen(
            [sys.executable, "-m", "api.cli", "serve", "--port", str(self.port), "--workers", "1"],
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.url = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.url + "/healthz").status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.2)
        raise RuntimeError("API did not start")

    def post(self, path: str, source: Path, external_id: str) -> tuple[float, dict[str, Any]]:
        """Upload with curl: a C client, so the 2 cores measure the server, not the client."""
        command = [
            "curl",
            "-sS",
            "-w",
            "\n%{http_code}",
            "-H",
            f"Authorization: Bearer {self.key}",
            "-F",
            f"file=@{source}",
            "-F",
            f"externalId={external_id}",
            self.url + path,
        ]
        started = time.perf_counter()
        answer = subprocess.run(command, capture_output=True, text=True, check=True).stdout
        elapsed = time.perf_counter() - started
        body, _, status = answer.rpartition("\n")
        assert status == "202", answer
        return elapsed, dict(json.loads(body))

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=20)


def _measure(
    api: ApiProcess, store: ObjectStore, label: str, path: str, source: Path, concurrency: int
) -> dict[str, Any]:
    size_mib = source.stat().st_size / MIB
    floor = floor_mb_per_s(store, source)
    baseline = _rss_kib(api.process.pid, "VmRSS")
    _reset_peak(api.process.pid)
    timings = []
    for attempt in range(REPEATS):
        elapsed, body = api.post(path, source, f"{label}-single-{attempt}")
        timings.append(elapsed)
    peak_single = _rss_kib(api.process.pid, "VmHWM")
    elapsed = _median(timings)
    throughput = size_mib / elapsed

    _reset_peak(api.process.pid)
    before = _rss_kib(api.process.pid, "VmRSS")
    with ThreadPoolExecutor(concurrency) as pool:
        list(pool.map(lambda i: api.post(path, source, f"{label}-c{i}"), range(concurrency)))
    peak_concurrent = _rss_kib(api.process.pid, "VmHWM")
    return {
        "size_mib": round(size_mib, 1),
        "status_after_202": body["status"],
        "seconds_median_of_3": round(elapsed, 3),
        "mib_per_s": round(throughput, 1),
        "floor_mib_per_s": round(floor, 1),
        "fraction_of_floor": round(throughput / floor, 3),
        "target_fraction_of_floor": 0.5,
        "api_rss_baseline_mib": round(baseline / 1024, 1),
        "api_peak_rss_growth_single_mib": round((peak_single - baseline) / 1024, 1),
        "concurrent_uploads": concurrency,
        "api_peak_rss_growth_per_concurrent_upload_mib": round(
            (peak_concurrent - before) / 1024 / concurrency, 1
        ),
        "target_rss_growth_per_upload_mib": 100,
    }


def _run_store(
    kind: str, work: Path, file_50: Path, archive_200: Path, seaweed: SeaweedServer | None
) -> dict[str, Any]:
    env: dict[str, str] = {}
    if kind == "s3":
        assert seaweed is not None
        env = {
            "DOCINTAKE_S3_ENDPOINT": seaweed.endpoint,
            "DOCINTAKE_S3_ACCESS_KEY": ACCESS_KEY,
            "DOCINTAKE_S3_SECRET_KEY": SECRET_KEY,
            "DOCINTAKE_S3_BUCKET": "bench",
        }
        store: ObjectStore = S3Store(seaweed.client(), "bench")
    var_dir = work / f"var-{kind}"
    api = ApiProcess(var_dir, env)
    if kind == "local":
        store = LocalDirStore(var_dir / "objects")
    try:
        return {
            "file_50mib": _measure(api, store, f"{kind}-file", "/v1/uploads", file_50, 4),
            "archive_200mib": _measure(
                api, store, f"{kind}-zip", "/v1/uploads/batches", archive_200, 2
            ),
        }
    finally:
        api.stop()


def run() -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="docintake-bench-") as tmp:
        work = Path(tmp)
        file_50 = _random_file(work / "big.pdf", 50 * MIB, b"%PDF-1.7\n")
        archive_200 = _archive(work / "batch.zip", 4, 49 * MIB, work)
        seaweed = start_seaweed(work / "seaweed")
        try:
            return {
                store: _run_store(store, work, file_50, archive_200, seaweed)
                for store in ("local", "s3")
            }
        finally:
            seaweed.stop()

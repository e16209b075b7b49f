"""`docintake serve` as a process of its own, as production runs it (the guarded
httptools protocol, one API process), with its peak memory and CPU read from /proc."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx2 as httpx

from testkit.seaweed import free_port

ROOT = Path(__file__).resolve().parents[1]
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def reset_peak(pid: int) -> None:
    """Start the peak resident set size (VmHWM) over from the current size."""
    Path(f"/proc/{pid}/clear_refs").write_text("5")


def status_kib(pid: int, field: str) -> int:
    """A size of /proc/<pid>/status (VmRSS, VmHWM) in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise LookupError(field)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


@dataclass(frozen=True)
class ApiProcess:
    url: str
    pid: int
    api_key: str


@dataclass
class Measured:
    peak_growth_mib: float = 0.0
    cpu_seconds: float = 0.0


@contextmanager
def measured(api: ApiProcess) -> Iterator[Measured]:
    """The peak RSS growth and the CPU of the API process over the block."""
    reset_peak(api.pid)
    baseline, cpu = status_kib(api.pid, "VmRSS"), cpu_seconds(api.pid)
    result = Measured()
    yield result
    time.sleep(0.2)  # the server finishes what the block left it
    result.peak_growth_mib = (status_kib(api.pid, "VmHWM") - baseline) / 1024
    result.cpu_seconds = cpu_seconds(api.pid) - cpu


def _cli(env: dict[str, str], *args: str) -> str:
    return subprocess.run(
        [sys.executable, "-m", "api.cli", *args],
        env=env,
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    ).stdout


@contextmanager
def api_process(var_dir: Path, settings: dict[str, str]) -> Iterator[ApiProcess]:
    """A migrated SQLite database with one company, and the API serving it."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "DOCINTAKE_VAR_DIR": str(var_dir),
        "DOCINTAKE_DATABASE_URL": "",
        **settings,
    }
    _cli(env, "migrate")
    created = _cli(env, "company", "create", "--name", "Hostile GmbH", "--json")
    api_key = str(json.loads(created.strip().splitlines()[-1])["apiKey"])
    port = free_port()
    log = (var_dir / "api.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "serve", "--workers", "1", "--port", str(port)],
        env=env,
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, process)
        yield ApiProcess(url, process.pid, api_key)
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def _wait_healthy(url: str, process: subprocess.Popen[bytes], timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the API exited with {process.returncode}")
        try:
            if httpx.get(url + "/healthz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise RuntimeError("the API did not answer /healthz")

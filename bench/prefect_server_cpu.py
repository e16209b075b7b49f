"""Issue 13, target 2: the Prefect server's own CPU, idle and per flow run.

    python -m bench.prefect_server_cpu [--backend sqlite|postgres ...]
        [--settings defaults|docintake ...] [--idle-seconds 25] [--flow-runs 20]

For each backend and settings, a fresh `prefect server start` on 127.0.0.1 and a free
port with a temporary PREFECT_HOME (SQLite there, or a fresh database of its own on the
shared Postgres), at the niceness of `make run`. `docintake` applies
scripts/prefect-server.env (bench/stack.py `prefect_server_settings`), `defaults` only the
phone-home settings. After the server has settled, three phases, each the server's
process tree's CPU (utime + stime + cutime + cstime from /proc, before and after):

- idle: nothing talks to the server;
- idle-with-worker: a process worker of the `docintake` pool polls it every second, as
  in the benchmarks' stack (after 2 flow runs that warm the server up: a fresh server
  builds each API route's handler on its first request);
- workload: `--flow-runs` flow runs in one client process, each as a docintake batch
  talks to the server: 4 task runs, a progress artifact updated 4 times, a table
  artifact and a few log lines; measured until the client is done and the server has
  flushed (event persister and task run recorder flush every 5 s), net of the
  idle-with-worker rate over the same time.

One JSON object per line on stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TypeVar
from uuid import UUID

from bench.stack import (
    ORCHESTRATION_NICENESS,
    ROOT,
    _stop_group,
    _wait_http,
    descendants,
    prefect_server_settings,
)
from bench.stack_cpu import process_cpu_seconds
from testkit.seaweed import free_port

POSTGRES_URL = os.environ.get(
    "DOCINTAKE_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
SETTLE_SECONDS = 15.0
FLUSH_SECONDS = 7.0
WARM_UP_FLOW_RUNS = 2
T = TypeVar("T")


def tree_cpu(pid: int) -> float:
    return sum(process_cpu_seconds(each) for each in [pid, *descendants(pid)])


def rate(pid: int, seconds: float) -> float:
    before, started = tree_cpu(pid), time.monotonic()
    time.sleep(seconds)
    return (tree_cpu(pid) - before) / (time.monotonic() - started)


def _postgres_database(name: str, drop_only: bool = False) -> str:
    from sqlalchemy import create_engine, make_url, text

    admin = create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        if not drop_only:
            connection.execute(text(f"CREATE DATABASE {name}"))
    admin.dispose()
    url = make_url(POSTGRES_URL).set(drivername="postgresql+asyncpg", database=name)
    return url.render_as_string(hide_password=False)


@dataclass
class PrefectServer:
    """A fresh Prefect server with a process worker of the `docintake` pool polling it
    every second (as in the benchmarks' stack), settled and warmed up by `warm_up`."""

    env: dict[str, str]
    pid: int
    idle_cpu_per_second: float
    idle_with_worker_cpu_per_second: float

    def net_cpu(self, drive: Callable[[], T]) -> tuple[float, float, T]:
        """The server's CPU seconds for what `drive` makes it do, net of its idle rate
        with the worker, measured until it has flushed; the seconds that took; what
        `drive` returned."""
        before, started = tree_cpu(self.pid), time.monotonic()
        driven = drive()
        time.sleep(FLUSH_SECONDS)
        spent, elapsed = tree_cpu(self.pid) - before, time.monotonic() - started
        return spent - self.idle_with_worker_cpu_per_second * elapsed, elapsed, driven


@contextmanager
def prefect_server(
    backend: str, settings: str, idle_seconds: float, warm_up: Callable[[dict[str, str]], object]
) -> Iterator[PrefectServer]:
    with tempfile.TemporaryDirectory(prefix="prefect-cpu-") as tmp, ExitStack() as stack:
        port = free_port()
        env = {
            **os.environ,
            "PREFECT_HOME": str(Path(tmp) / "prefect"),
            "PREFECT_API_URL": f"http://127.0.0.1:{port}/api",
            "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
            "PREFECT_SERVER_UI_SHOW_PROMOTIONAL_CONTENT": "false",
            "DO_NOT_TRACK": "1",
            "PREFECT_WORKER_QUERY_SECONDS": "1",
        }
        if settings == "docintake":
            env |= prefect_server_settings()
        if backend == "postgres":
            database = f"docintake_prefect_cpu_{os.getpid()}"
            env["PREFECT_API_DATABASE_CONNECTION_URL"] = _postgres_database(database)
            stack.callback(_postgres_database, database, True)
        log = stack.enter_context(open(Path(tmp) / "server.log", "wb"))
        server = subprocess.Popen(
            [*ORCHESTRATION_NICENESS, sys.executable, "-m", "prefect", "server", "start",
             "--host", "127.0.0.1", "--port", str(port)],
            env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        stack.callback(_stop_group, server)
        _wait_http(f"http://127.0.0.1:{port}/api/health", 120, server)
        time.sleep(SETTLE_SECONDS)
        idle = rate(server.pid, idle_seconds)

        prefect = [sys.executable, "-m", "prefect", "--no-prompt"]
        subprocess.run(
            [*prefect, "work-pool", "create", "docintake", "--type", "process"],
            env=env, cwd=tmp, check=True, capture_output=True,
        )  # fmt: skip
        worker = subprocess.Popen(
            [*prefect, "worker", "start", "--pool", "docintake"],
            env=env, cwd=tmp, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        stack.callback(_stop_group, worker)
        warm_up(env)
        time.sleep(SETTLE_SECONDS)
        yield PrefectServer(env, server.pid, idle, rate(server.pid, idle_seconds))


def measure(backend: str, settings: str, idle_seconds: float, flow_runs: int) -> dict[str, object]:
    def drive(env: dict[str, str], runs: int) -> None:
        subprocess.run(
            [sys.executable, "-m", "bench.prefect_server_cpu", "--drive", str(runs)],
            env=env, cwd=ROOT, check=True, capture_output=True,
        )  # fmt: skip

    warm_up = partial(drive, runs=WARM_UP_FLOW_RUNS)
    with prefect_server(backend, settings, idle_seconds, warm_up) as server:
        net, elapsed, _ = server.net_cpu(partial(drive, server.env, flow_runs))
        return {
            "backend": backend,
            "settings": settings,
            "idle_cpu_per_second": round(server.idle_cpu_per_second, 4),
            "idle_with_worker_cpu_per_second": round(server.idle_with_worker_cpu_per_second, 4),
            "workload": {
                "flow_runs": flow_runs,
                "seconds": round(elapsed, 1),
                "net_cpu_ms_per_flow_run": round(1000 * net / flow_runs, 1),
            },
        }


def drive(flow_runs: int) -> None:
    """The synthetic client: flow runs shaped like a docintake batch."""
    from prefect import flow, get_run_logger, task
    from prefect.artifacts import (
        create_progress_artifact,
        create_table_artifact,
        update_progress_artifact,
    )

    @task
    def step(index: int) -> int:
        get_run_logger().info("step %d", index)
        return index

    @flow(name="synthetic-batch")
    def batch(number: int) -> None:
        progress = create_progress_artifact(0.0, description=f"batch {number}")
        assert isinstance(progress, UUID)  # a sync flow gets the id, not a coroutine
        for index in range(4):
            step(index)
            update_progress_artifact(progress, 25.0 * (index + 1))
        rows = [{"file": f"{number}-{i}.pdf", "status": "done"} for i in range(100)]
        create_table_artifact(rows, key=f"batch-{number}", description="uploads")

    for number in range(flow_runs):
        batch(number)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--backend", action="append", choices=["sqlite", "postgres"])
    parser.add_argument("--settings", action="append", choices=["defaults", "docintake"])
    parser.add_argument("--idle-seconds", type=float, default=25.0)
    parser.add_argument("--flow-runs", type=int, default=20)
    parser.add_argument("--drive", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.drive is not None:
        drive(args.drive)
        return
    for backend in args.backend or ["sqlite", "postgres"]:
        for settings in args.settings or ["defaults", "docintake"]:
            result = measure(backend, settings, args.idle_seconds, args.flow_runs)
            print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()

"""Real processes for benchmarks: a Prefect server, the API and pipeline workers."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx2 as httpx
from sqlalchemy.engine import make_url

from tests.support.seaweed import free_port

ROOT = Path(__file__).resolve().parent.parent


def _wait_http(url: str, timeout: float, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args} exited with {process.returncode}")
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"{url} did not answer in {timeout} s")


PREFECT_DATABASE = "docintake_bench_prefect"
# As in `make run`: the Prefect server is orchestration, not the request path.
ORCHESTRATION_NICENESS = ["nice", "-n", "5"]


def fresh_prefect_database(postgres_url: str) -> str:
    """An empty Postgres database for the Prefect server (production runs Prefect on
    Postgres); its asyncpg URL."""
    from sqlalchemy import create_engine, text

    admin = create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f"DROP DATABASE IF EXISTS {PREFECT_DATABASE} WITH (FORCE)"))
        connection.execute(text(f"CREATE DATABASE {PREFECT_DATABASE}"))
    admin.dispose()
    url = make_url(postgres_url).set(drivername="postgresql+asyncpg", database=PREFECT_DATABASE)
    return url.render_as_string(hide_password=False)


class Stack:
    def __init__(
        self,
        work: Path,
        database_url: str,
        extra_env: dict[str, str] | None = None,
        prefect_database_url: str | None = None,
    ):
        self.work = work
        self.processes: list[subprocess.Popen[bytes]] = []
        prefect_port, api_port = free_port(), free_port()
        self.prefect_url = f"http://127.0.0.1:{prefect_port}/api"
        self.api_url = f"http://127.0.0.1:{api_port}"
        self.env = {
            **os.environ,
            "PREFECT_HOME": str(work / "prefect"),
            "PREFECT_API_URL": self.prefect_url,
            "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
            "PREFECT_SERVER_UI_SHOW_PROMOTIONAL_CONTENT": "false",
            "DOCINTAKE_VAR_DIR": str(work / "var"),
            "DOCINTAKE_DATABASE_URL": database_url,
            "DOCINTAKE_RATE_LIMIT_PER_SECOND": "100000",
            "DOCINTAKE_RATE_LIMIT_BURST": "100000",
            **(extra_env or {}),
        }
        if prefect_database_url:
            self.env["PREFECT_API_DATABASE_CONNECTION_URL"] = prefect_database_url
        self._run("migrate")
        prefect = self._spawn(
            [
                *ORCHESTRATION_NICENESS,
                sys.executable,
                "-m",
                "prefect",
                "server",
                "start",
                "--host",
                "127.0.0.1",
                "--port",
                str(prefect_port),
            ],
            "prefect-server.log",
        )
        self.api = self._spawn(
            [sys.executable, "-m", "api.cli", "serve", "--port", str(api_port)], "api.log"
        )
        _wait_http(self.api_url + "/healthz", 60, self.api)
        _wait_http(self.prefect_url + "/health", 120, prefect)
        self._start_pipeline()

    def _start_pipeline(self) -> None:
        """As in production and `make run`: the deployments on the `docintake` process
        pool, a Prefect worker of that pool, and the dispatcher."""
        self.env |= {"DOCINTAKE_HOME": str(ROOT), "PREFECT_WORKER_QUERY_SECONDS": "1"}
        prefect = [sys.executable, "-m", "prefect", "--no-prompt"]
        for command in (
            ["work-pool", "create", "docintake", "--type", "process", "--overwrite"],
            ["deploy", "--all"],
        ):
            subprocess.run(
                prefect + command, env=self.env, cwd=ROOT, check=True, capture_output=True
            )
        self._spawn(
            [sys.executable, "-m", "prefect", "worker", "start", "--pool", "docintake"],
            "prefect-worker.log",
        )
        self._spawn([sys.executable, "-m", "api.cli", "dispatch"], "dispatch.log")

    def _run(self, *args: str) -> str:
        return subprocess.run(
            [sys.executable, "-m", "api.cli", *args],
            env=self.env,
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout

    def _spawn(self, command: list[str], log_name: str) -> subprocess.Popen[bytes]:
        (self.work / "logs").mkdir(parents=True, exist_ok=True)
        with open(self.work / "logs" / log_name, "wb") as log:
            process = subprocess.Popen(
                command,
                env=self.env,
                cwd=ROOT,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.processes.append(process)
        return process

    def company_key(self, name: str) -> str:
        out = self._run("company", "create", "--name", name, "--json")
        return str(json.loads(out.strip().splitlines()[-1])["apiKey"])

    def stop(self) -> None:
        # Whole process groups: the Prefect worker's flow-run processes go with it.
        for process in reversed(self.processes):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        for process in reversed(self.processes):
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()

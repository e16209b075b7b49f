"""Real processes for benchmarks: a Prefect server, the API and pipeline workers."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx2 as httpx
from sqlalchemy.engine import make_url

from testkit.seaweed import free_port

ROOT = Path(__file__).resolve().parent.parent


def _wait_http(url: str, timeout: float, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args!r} exited with {process.returncode}")
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"{url} did not answer in {timeout} s")


PREFECT_DATABASE = "docintake_bench_prefect"
PREFECT_SERVER_ENV = ROOT / "scripts" / "prefect-server.env"


def prefect_server_settings() -> dict[str, str]:
    """The Prefect server's settings of `make run` (scripts/prefect-server.env)."""
    settings = {}
    for line in PREFECT_SERVER_ENV.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            settings[key.strip()] = value.strip()
    return settings


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
        prefect_port, api_port, self.mail_port = free_port(), free_port(), free_port()
        self.prefect_url = f"http://127.0.0.1:{prefect_port}/api"
        self.api_url = f"http://127.0.0.1:{api_port}"
        self.env = {
            **os.environ,
            "PREFECT_HOME": str(work / "prefect"),
            "PREFECT_API_URL": self.prefect_url,
            "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
            "PREFECT_SERVER_UI_SHOW_PROMOTIONAL_CONTENT": "false",
            "DO_NOT_TRACK": "1",
            "DOCINTAKE_VAR_DIR": str(work / "var"),
            "DOCINTAKE_DATABASE_URL": database_url,
            "DOCINTAKE_RATE_LIMIT_PER_SECOND": "100000",
            "DOCINTAKE_RATE_LIMIT_BURST": "100000",
            "DOCINTAKE_MAIL_PORT": str(self.mail_port),
            **prefect_server_settings(),
            **(extra_env or {}),
        }
        if prefect_database_url:
            self.env["PREFECT_API_DATABASE_CONNECTION_URL"] = prefect_database_url
        self._run("migrate")
        self.prefect_port = prefect_port
        try:
            self.prefect = self.start_prefect_server()
            self.api = self._spawn(
                [sys.executable, "-m", "api.cli", "serve", "--port", str(api_port)], "api.log"
            )
            # Long: on a busy machine uvicorn replaces API processes that take over 5 s to
            # start (timeout_worker_healthcheck), again and again.
            _wait_http(self.api_url + "/healthz", 300, self.api)
            _wait_http(self.prefect_url + "/health", 120, self.prefect)
            self.mail = self.start_mail_server()
            self._start_pipeline()
        except BaseException:
            self.stop()
            raise

    def start_prefect_server(self) -> subprocess.Popen[bytes]:
        """The Prefect server on its port; the caller waits for its health."""
        return self._spawn(
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
                str(self.prefect_port),
            ],
            "prefect-server.log",
        )

    def start_mail_server(self) -> subprocess.Popen[bytes]:
        """`docintake mail` (e-mail intake over SMTP) on its port, answering."""
        process = self._spawn([sys.executable, "-m", "api.cli", "mail"], "mail.log")
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"docintake mail exited with {process.returncode}")
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.mail_port), timeout=2) as sock,
            ):
                if sock.recv(4).startswith(b"220"):
                    return process
            time.sleep(0.5)
        raise RuntimeError("docintake mail did not answer in 120 s")

    def kill_mail_server(self, down_seconds: float) -> None:
        """SIGKILL `docintake mail` (a conversation may be cut after the message was
        stored), leave it down, start it again on the same port."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.mail.pid, signal.SIGKILL)
        self.mail.wait()
        self.processes.remove(self.mail)
        time.sleep(down_seconds)
        self.mail = self.start_mail_server()

    def restart_prefect_server(self, outage_seconds: float) -> None:
        """Stop the Prefect server, leave it down for `outage_seconds`, start it again on
        the same port and database (the soak's outage)."""
        _stop_group(self.prefect)
        self.processes.remove(self.prefect)
        time.sleep(outage_seconds)
        self.prefect = self.start_prefect_server()
        _wait_http(self.prefect_url + "/health", 120, self.prefect)

    def _start_pipeline(self) -> None:
        """As in production and `make run`: the deployments on the `docintake` process
        pool, a Prefect worker of that pool, the dispatcher and the webhook sender."""
        self.env |= {"DOCINTAKE_HOME": str(ROOT), "PREFECT_WORKER_QUERY_SECONDS": "3"}
        prefect = [sys.executable, "-m", "prefect", "--no-prompt"]
        for command in (
            ["work-pool", "create", "docintake", "--type", "process", "--overwrite"],
            ["deploy", "--all"],
        ):
            subprocess.run(
                prefect + command, env=self.env, cwd=ROOT, check=True, capture_output=True
            )
        self.worker = self._spawn(
            [sys.executable, "-m", "prefect", "worker", "start", "--pool", "docintake"],
            "prefect-worker.log",
        )
        self.dispatcher = self._spawn([sys.executable, "-m", "api.cli", "dispatch"], "dispatch.log")
        self.webhooks = self._spawn([sys.executable, "-m", "api.cli", "webhooks"], "webhooks.log")

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
        with open(self.work / "logs" / log_name, "ab") as log:
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
        return self.company(name)[0]

    def company(self, name: str) -> tuple[str, str]:
        """A new company's API key and intake address."""
        created = self.company_record(name)
        return created["apiKey"], created["intakeAddress"]

    def company_record(self, name: str) -> dict[str, str]:
        """A new company: `companyId`, `apiKey` and `intakeAddress`."""
        out = self._run("company", "create", "--name", name, "--json")
        created = json.loads(out.strip().splitlines()[-1])
        return {key: str(value) for key, value in created.items()}

    def stop(self) -> None:
        # Whole process groups; flow runs are in sessions of their own (the Prefect
        # worker starts them so), so every descendant found now is ended too.
        tree = [pid for process in self.processes for pid in descendants(process.pid)]
        for process in reversed(self.processes):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        for pid in tree:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        for process in reversed(self.processes):
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
        for pid in tree:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _stop_group(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def children(pid: int) -> list[int]:
    """The direct children of a process, from /proc."""
    try:
        tasks = Path(f"/proc/{pid}/task").iterdir()
        found = []
        for task in tasks:
            with contextlib.suppress(OSError):
                found += [int(child) for child in (task / "children").read_text().split()]
        return found
    except OSError:
        return []


def descendants(pid: int) -> list[int]:
    """Every process below `pid`, depth first."""
    found = []
    for child in children(pid):
        found += [child, *descendants(child)]
    return found

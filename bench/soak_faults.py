"""The soak's faults, on a schedule scaled to its duration: every fault runs in every
soak, the outages last 60 s in a 10-minute soak and a sixth of a shorter one."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bench.soak_backends import PostgresCluster, RestartableSeaweed
from bench.soak_load import Load
from bench.soak_procs import readers, serving_flow_runs
from bench.soak_requests import send_hostile_requests
from bench.stack import Stack, descendants

# (fraction of the load time, fault); an outage that runs late delays the next fault.
SCHEDULE = (
    (0.05, "hostile_files"),
    (0.10, "kill_readers"),
    (0.18, "kill_flow_runs"),
    (0.22, "hostile_requests"),
    (0.28, "restart_postgres"),
    (0.36, "stop_s3"),
    (0.45, "kill_mail_server"),
    (0.55, "kill_readers"),
    (0.62, "kill_flow_runs"),
    # Last: a Prefect outage ends the `serve-queue` run, and a new one takes a while.
    (0.70, "stop_prefect_server"),
)
FULL_OUTAGE_SECONDS = 60
FULL_SOAK_SECONDS = 600


def outage_seconds(load_seconds: float) -> float:
    if load_seconds >= FULL_SOAK_SECONDS:
        return FULL_OUTAGE_SECONDS
    return max(5.0, round(load_seconds / 6))


@dataclass
class Faults:
    stack: Stack
    load: Load
    hostile: dict[str, tuple[str, bytes]]
    load_seconds: float
    postgres: PostgresCluster | None = None
    seaweed: RestartableSeaweed | None = None
    done: list[dict[str, Any]] = field(default_factory=list)
    _thread: threading.Thread | None = None

    def start(self, started_at: float) -> None:
        self._thread = threading.Thread(
            target=self._run, args=(started_at,), name="faults", daemon=True
        )
        self._thread.start()

    def join(self) -> None:
        if self._thread:
            self._thread.join()

    def _run(self, started_at: float) -> None:
        actions: dict[str, Callable[[], dict[str, Any]]] = {
            "hostile_files": self.send_hostile_files,
            "hostile_requests": self.send_hostile_requests,
            "kill_readers": self.kill_readers,
            "kill_flow_runs": self.kill_flow_runs,
            "restart_postgres": self.restart_postgres,
            "stop_s3": self.stop_s3,
            "kill_mail_server": self.kill_mail_server,
            "stop_prefect_server": self.stop_prefect_server,
        }
        for fraction, name in SCHEDULE:
            wait = started_at + fraction * self.load_seconds - time.time()
            if wait > 0:
                time.sleep(wait)
            began = time.time()
            try:
                detail = actions[name]()
            except Exception as exc:  # the soak reports a fault that failed, and goes on
                detail = {"error": f"{type(exc).__name__}: {exc}"}
            self.done.append(
                {
                    "fault": name,
                    "at_s": round(began - started_at, 1),
                    "took_s": round(time.time() - began, 1),
                    **detail,
                }
            )

    def send_hostile_files(self) -> dict[str, Any]:
        uploader = self.load.uploader("hostile")
        key = self.load.keys[0]
        sent = {}
        for kind, (name, data) in self.hostile.items():
            path = "/v1/uploads" if name.endswith(".pdf") else "/v1/uploads/batches"
            item = uploader.post(key, path, name, data, kind="single" if name.endswith(".pdf")
                                 else "batch", tag="hostile")  # fmt: skip
            sent[kind] = item
        uploader.close()
        return {"sent": sent}

    def send_hostile_requests(self) -> dict[str, Any]:
        def api_processes() -> list[int]:
            return [self.stack.api.pid, *descendants(self.stack.api.pid)]

        return send_hostile_requests(self.stack.api_url, self.load.keys[0], api_processes)

    def kill_readers(self) -> dict[str, Any]:
        found = _wait_for(lambda: readers(self.stack.worker.pid), self._patience())
        return {"killed": _sigkill(found), "role": "reader", "waited_up_to_s": self._patience()}

    def kill_flow_runs(self) -> dict[str, Any]:
        found = _wait_for(lambda: serving_flow_runs(self.stack.worker.pid), self._patience())
        return {"killed": _sigkill(found), "role": "flow-run", "waited_up_to_s": self._patience()}

    def _patience(self) -> float:
        """How long a kill waits for its targets to exist (a new run may be starting)."""
        return min(30.0, max(5.0, round(self.load_seconds / 10)))

    def restart_postgres(self) -> dict[str, Any]:
        if self.postgres is None:
            return {"skipped": "embedded mode: SQLite, no database server to restart"}
        self.postgres.restart()
        return {"how": "pg_ctl restart -m fast (the soak's own cluster)"}

    def stop_s3(self) -> dict[str, Any]:
        seconds = outage_seconds(self.load_seconds)
        if self.seaweed is None:
            return {"skipped": "embedded mode: local object directory, no S3 server"}
        self.seaweed.outage(seconds)
        return {"outage_s": seconds, "how": "SIGKILL weed, same ports and data dir after"}

    def kill_mail_server(self) -> dict[str, Any]:
        seconds = min(10.0, outage_seconds(self.load_seconds))
        self.stack.kill_mail_server(seconds)
        return {"down_s": seconds, "how": "SIGKILL docintake mail, same port after"}

    def stop_prefect_server(self) -> dict[str, Any]:
        seconds = outage_seconds(self.load_seconds)
        self.stack.restart_prefect_server(seconds)
        return {"outage_s": seconds, "how": "SIGTERM the server, same port and database after"}


def _wait_for(find: Callable[[], list[int]], seconds: float) -> list[int]:
    """The processes `find` returns, waiting for some to exist (a run may be starting)."""
    deadline = time.monotonic() + seconds
    found = find()
    while not found and time.monotonic() < deadline:
        time.sleep(0.5)
        found = find()
    return found


def _sigkill(pids: list[int]) -> list[int]:
    killed = []
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
    return killed

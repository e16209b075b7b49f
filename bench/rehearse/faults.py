"""Faults under load with every worker host up, one at a time, each on a fresh company
and judged by the soak's accounting (bench/soak_report.py):

- host_kill: SIGKILL every process of a worker host (its cgroup's processes), then the
  host boots again: its Prefect worker service starts, nothing else is done by hand;
- partition: a worker host cut off the database host for 60 s (packets dropped both
  ways, connections hang), then let back;
- store_partition: the same against the S3 host;
- prefect_restart: the Prefect server stopped and started again on the same database.

The load stops when the fault ends; then the harness waits until every accepted upload
is terminal (seconds_to_settle) and watches the hit host take work again (rejoin)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine

from bench.rehearse.load import Feeder, hosts_holding_work
from bench.rehearse.services import Services
from bench.soak_report import ClientRecord, settle, verdict

BEFORE_SECONDS = 30.0
CUT_SECONDS = 60.0
HOST_DOWN_SECONDS = 20.0
PREFECT_DOWN_SECONDS = 10.0
BATCHES_QUEUED_PER_HOST = 2
# Nothing became terminal for this long: stuck (a lease expiring twice, a zombie run
# marked crashed after 120 s and a new run warming up on a 0.4-CPU host).
SETTLE_STALL_SECONDS = 240.0
SETTLE_LIMIT_SECONDS = 1200.0
REJOIN_PROBE_SECONDS = 300.0


@dataclass
class RejoinWatch:
    """When each watched host took or renewed a lease after `since` (the fault's end),
    polled every second: the killed host's new run claiming, the cut-off host's run
    claiming or renewing again."""

    engine: Engine
    hostnames: dict[str, str]  # hostname -> host name
    since: float
    seen: dict[str, float] = field(default_factory=dict)
    stop: threading.Event = field(default_factory=threading.Event)

    @property
    def since_at(self) -> datetime:
        return datetime.fromtimestamp(self.since, UTC)

    def start(self) -> None:
        threading.Thread(target=self._run, name="rejoin", daemon=True).start()

    def _run(self) -> None:
        while not self.stop.is_set() and len(self.seen) < len(self.hostnames):
            try:
                holding = hosts_holding_work(self.engine, self.since_at)
            except Exception:  # the harness's own query; try again
                holding = set()
            for hostname in holding & set(self.hostnames) - set(self.seen):
                self.seen[hostname] = round(time.time() - self.since, 1)
            self.stop.wait(1.0)

    def done(self) -> bool:
        return len(self.seen) == len(self.hostnames)

    def report(self) -> dict[str, float | None]:
        return {name: self.seen.get(hostname) for hostname, name in self.hostnames.items()}


@dataclass
class FaultRun:
    services: Services
    engine: Engine
    worker_hosts: list[str]
    company_key: Callable[[str], str]
    folder: Path

    def host_kill(self) -> dict[str, Any]:
        victim = self.worker_hosts[0]
        return self._under_load("host_kill", [victim], lambda: self._kill(victim))

    def partition(self) -> dict[str, Any]:
        victim = self.worker_hosts[1 % len(self.worker_hosts)]
        return self._under_load("partition", [victim], lambda: self._cut(victim, "a"))

    def store_partition(self) -> dict[str, Any]:
        victim = self.worker_hosts[2 % len(self.worker_hosts)]
        return self._under_load("store_partition", [victim], lambda: self._cut(victim, "b"))

    def prefect_restart(self) -> dict[str, Any]:
        return self._under_load("prefect_restart", self.worker_hosts, self._restart_prefect)

    def _kill(self, victim: str) -> dict[str, Any]:
        killed = self.services.hosts[victim].kill_all()
        self.services.forget_host(victim)
        time.sleep(HOST_DOWN_SECONDS)
        self.services.start_worker(victim)  # the machine booted: its services start
        return {
            "host": victim,
            "processes_killed": len(killed),
            "down_s": HOST_DOWN_SECONDS,
            "how": "SIGKILL all of the host's cgroup, then its worker starts",
        }

    def _cut(self, victim: str, other: str) -> dict[str, Any]:
        hosts = self.services.hosts
        hosts[victim].cut_from(hosts[other])
        try:
            time.sleep(CUT_SECONDS)
        finally:
            hosts[victim].heal()
        return {
            "host": victim,
            "cut_from": f"host {other} ({hosts[other].address})",
            "cut_s": CUT_SECONDS,
            "how": "tc: packets both ways dropped",
        }

    def _restart_prefect(self) -> dict[str, Any]:
        self.services.stop_prefect_server()
        time.sleep(PREFECT_DOWN_SECONDS)
        self.services.start_prefect_server()
        return {"down_s": PREFECT_DOWN_SECONDS, "how": "SIGTERM the server, same database after"}

    def _under_load(
        self, name: str, watched: list[str], fault: Callable[[], dict[str, Any]]
    ) -> dict[str, Any]:
        folder = self.folder / name
        target = 100 * BATCHES_QUEUED_PER_HOST * len(self.worker_hosts)
        feeder = Feeder(
            self.services.api_url(), self.company_key(f"Fault {name}"), folder, self.engine, target
        )
        feeder.start()
        time.sleep(BEFORE_SECONDS)
        began = time.time()
        detail = fault()
        healed = time.time()
        feeder.finish()
        hostnames = {self.services.hosts[host].hostname: host for host in watched}
        watch = RejoinWatch(self.engine, hostnames, healed)
        watch.start()
        record = ClientRecord.read(folder)
        settled = settle(self.engine, record, SETTLE_STALL_SECONDS, SETTLE_LIMIT_SECONDS)
        probed = self._probe_until_rejoined(watch, folder)
        watch.stop.set()
        result = verdict(self.engine, record, healed - began + BEFORE_SECONDS)
        return _summary(detail, healed - began, settled, result, watch, probed)

    def _probe_until_rejoined(self, watch: RejoinWatch, folder: Path) -> int:
        """The queue drained before a host was back at work: more batches until it is
        (bounded), so 'rejoins' is seen rather than assumed. Their uploads are not part
        of the fault's accounting."""
        if watch.done():
            return 0
        key = self.company_key(f"Rejoin probe {folder.name}")
        probe = Feeder(self.services.api_url(), key, folder / "probe", self.engine, 100 * 4)
        probe.start()
        deadline = time.monotonic() + REJOIN_PROBE_SECONDS
        while not watch.done() and time.monotonic() < deadline:
            time.sleep(1.0)
        probe.finish()
        return probe.posted


def _summary(
    detail: dict[str, Any],
    fault_seconds: float,
    settled: dict[str, Any],
    result: dict[str, Any],
    watch: RejoinWatch,
    probe_batches: int,
) -> dict[str, Any]:
    accepted, terminal = result["accepted"], result["terminal"]
    return {
        "accepted": accepted["uploads_in_batches"] + accepted["singles"],
        "terminal": terminal["uploads_in_batches"] + terminal["singles"],
        "lost": result["lost"],
        "booked_twice": result["booked_twice"],
        "processing_failed": result["processing_failed_caused_by_faults"],
        "seconds_to_settle": settled["seconds"],
        "accepted_batches": accepted["batches"],
        "terminal_batches": terminal["batches"],
        "fault": detail,
        "fault_seconds": round(fault_seconds, 1),
        "settle": settled,
        "seconds_from_fault_end_until_working_again": watch.report(),
        "rejoin_probe_batches": probe_batches,
        "outcomes": result["outcomes"],
        "http": {
            key: result["http"][key]
            for key in (
                "requests",
                "by_status",
                "5xx_other_than_503_with_retry_after",
                "503_with_retry_after",
                "transport_errors",
            )
        },
        "violations": result["violations"],
        "lost_examples": result["lost_examples"],
        "booked_twice_examples": result["booked_twice_examples"],
        "processing_failed_examples": result["processing_failed_caused_by_faults_examples"],
    }

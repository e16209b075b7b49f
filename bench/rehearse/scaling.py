"""Throughput with 1, 2, 3 and 4 worker hosts under a sustained load of 100-document
batches, and what each host's processes cost meanwhile (their cgroup's cpuacct), so a
step that falls short of linear says whether the shared hosts or the machine held it."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Engine

from bench.rehearse.hosts import REHEARSAL, Host
from bench.rehearse.load import (
    Feeder,
    backlog,
    connections_by_address,
    finished_between,
    hosts_holding_work,
)
from bench.rehearse.pg_cost import (
    cpu_ms_per_document,
    enable_statement_statistics,
    postgres_cpu_by_role,
    reset_statement_statistics,
    top_statements,
)
from bench.rehearse.services import Services
from storage.models import utcnow

SHARED = ("a", "b", "c")
# Batches a `serve-queue` run holds at once (flows/turns.py BATCH_LOOPS: two reading, a
# third claimed as they near their end), and one more per host, so no host waits for a
# batch to be posted.
BATCHES_QUEUED_PER_HOST = 4


def machine_cpu() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine since boot, from /proc/stat."""
    fields = [int(value) for value in Path("/proc/stat").read_text().split()[1:9]]
    ticks = os.sysconf("SC_CLK_TCK")
    idle = fields[3] + fields[4]
    return (sum(fields) - idle) / ticks, sum(fields) / ticks


@dataclass
class Window:
    """CPU of every host and of the machine over a stretch of time."""

    hosts: dict[str, Host]
    started: float = 0.0

    def __post_init__(self) -> None:
        self.started = time.monotonic()
        self.cpu = {name: host.cpu_seconds() for name, host in self.hosts.items()}
        self.throttled = {name: host.throttled_seconds() for name, host in self.hosts.items()}
        self.machine = machine_cpu()
        self.by_command = {name: self.hosts[name].cpu_seconds_by_command() for name in SHARED}
        self.load_before = os.getloadavg()

    def report(self, worker_hosts: list[str]) -> dict[str, Any]:
        seconds = time.monotonic() - self.started
        used = {
            name: round((host.cpu_seconds() - self.cpu[name]) / seconds, 3)
            for name, host in self.hosts.items()
        }
        busy, total = machine_cpu()
        cores = os.cpu_count() or 1
        machine_busy = (busy - self.machine[0]) / (total - self.machine[1]) * cores
        ours = sum(used.values())
        return {
            "window_s": round(seconds, 1),
            "cpu_per_host": {name: used[name] for name in (*SHARED, *worker_hosts)},
            "worker_hosts_throttled_share": {
                name: round(
                    (self.hosts[name].throttled_seconds() - self.throttled[name]) / seconds, 3
                )
                for name in worker_hosts
            },
            "shared_hosts_cpu": round(sum(used[name] for name in SHARED), 3),
            "shared_hosts_cpu_by_command": self._by_command(seconds),
            "machine_cpus_busy": round(machine_busy, 3),
            "machine_cpus": cores,
            "cpu_outside_the_rehearsal": round(max(0.0, machine_busy - ours), 3),
            "load_average_1m_before_after": [
                round(self.load_before[0], 2),
                round(os.getloadavg()[0], 2),
            ],
        }

    def _by_command(self, seconds: float) -> dict[str, dict[str, float]]:
        found = {}
        for name in SHARED:
            before = self.by_command[name]
            now = self.hosts[name].cpu_seconds_by_command()
            found[name] = {
                command: round((value - before.get(command, 0.0)) / seconds, 3)
                for command, value in now.items()
                if value - before.get(command, 0.0) > 0.005 * seconds
            }
        return found


def wait_for_hosts(engine: Engine, hostnames: set[str], timeout: float) -> float:
    """Until every host in `hostnames` holds work (its run is up and claiming)."""
    started = time.monotonic()
    while not hostnames <= hosts_holding_work(engine):
        if time.monotonic() - started > timeout:
            missing = hostnames - hosts_holding_work(engine)
            raise RuntimeError(f"hosts {sorted(missing)} took no work in {timeout} s")
        time.sleep(1.0)
    return time.monotonic() - started


def measure(
    services: Services, engine: Engine, worker_hosts: list[str], feeder: Feeder, seconds: float
) -> dict[str, Any]:
    """Throughput once every host in `worker_hosts` holds work."""
    hostnames = {services.hosts[name].hostname for name in worker_hosts}
    feeder.target = 100 * BATCHES_QUEUED_PER_HOST * len(worker_hosts)
    joined = wait_for_hosts(engine, hostnames, timeout=600)
    time.sleep(15)  # the newest run past its first claims
    names = {host.address: name for name, host in services.hosts.items()}
    names[REHEARSAL.bridge_address] = "harness"
    postgres = services.hosts["a"]
    reset_statement_statistics(engine)
    window = Window(services.hosts)
    postgres_before = postgres_cpu_by_role(postgres, names)
    start = utcnow()
    time.sleep(seconds)
    end = utcnow()
    postgres_after = postgres_cpu_by_role(postgres, names)
    done = finished_between(engine, start, end)
    rate = done / (end - start).total_seconds()
    connections = connections_by_address(engine)
    return {
        "worker_hosts": len(worker_hosts),
        "docs_per_second": round(rate, 3),
        "documents_finished": done,
        "seconds_until_all_hosts_held_work": round(joined, 1),
        "backlog_at_end": backlog(engine),
        "postgres_connections_by_host": {
            names.get(address, address): count for address, count in sorted(connections.items())
        },
        **window.report(worker_hosts),
        "postgres_cpu_ms_per_document_by_role": cpu_ms_per_document(
            postgres_before, postgres_after, done
        ),
        "postgres_statements": top_statements(engine, done),
    }


def scaling(
    services: Services, engine: Engine, key: str, folder: Path, seconds: float, hosts: list[str]
) -> dict[str, Any]:
    """Adds a worker host per step; the load runs through all steps."""
    feeder = Feeder(services.api_url(), key, folder, engine, target=100 * BATCHES_QUEUED_PER_HOST)
    enable_statement_statistics(engine)
    feeder.start()
    steps = []
    try:
        for count in range(1, len(hosts) + 1):
            services.start_worker(hosts[count - 1])
            steps.append(measure(services, engine, hosts[:count], feeder, seconds))
            print(
                f"rehearse: {count} worker host(s): {steps[-1]['docs_per_second']} docs/s",
                flush=True,
            )
    finally:
        feeder.finish()
    rates = [step["docs_per_second"] for step in steps]
    efficiency = [rate / ((n + 1) * rates[0]) for n, rate in enumerate(rates)] if rates[0] else []
    return {
        "worker_hosts": [step["worker_hosts"] for step in steps],
        "docs_per_second": rates,
        "efficiency_per_step": [round(value, 3) for value in efficiency],
        "scaling_efficiency": round(min(efficiency), 3) if efficiency else 0.0,
        "steps": steps,
        "batches_posted": feeder.posted,
    }


def limits(steps: list[dict[str, Any]], quota: float) -> list[dict[str, Any]]:
    """What held each step back. The CPU one document costs on every host at one worker
    host, times the documents of linear scaling, is what linear would need: more than
    the machine's cores, and the machine is the limit, not the software. Worker hosts
    that use their whole quota are held by it alone (as intended)."""
    first = steps[0]
    cost = sum(first["cpu_per_host"].values()) / first["docs_per_second"]
    found = []
    for step in steps:
        workers = [cpu for name, cpu in step["cpu_per_host"].items() if name not in SHARED]
        used = sum(workers) / len(workers) / quota
        needed = step["worker_hosts"] * first["docs_per_second"] * cost
        if used >= 0.9:
            bound = "the worker hosts' own CPU quota (capacity grows with hosts)"
        elif step["machine_cpus_busy"] >= 0.95 * step["machine_cpus"]:
            bound = "the machine's CPUs (worker hosts got less than their quota)"
        else:
            bound = "the shared hosts or waiting (CPU to spare, quota not used)"
        found.append({
            "worker_hosts": step["worker_hosts"],
            "bound_by": bound,
            "worker_hosts_used_share_of_quota": round(used, 3),
            "cpus_linear_would_need": round(needed, 2),
            "machine_cpus": step["machine_cpus"],
            "shared_hosts_cpu": {name: step["cpu_per_host"][name] for name in SHARED},
            "cpu_ms_per_document_at_one_host": {
                name: round(1000 * cpu / first["docs_per_second"], 1)
                for name, cpu in first["cpu_per_host"].items()
            },
            "outside_the_rehearsal_cpu": step["cpu_outside_the_rehearsal"],
        })  # fmt: skip
    return found

"""`make rehearse`: the scale-out rehearsal (docs/topology.md).

    python -m bench.rehearse [--step-seconds 120] [--cpu-quota 0.4] [--skip-faults]

Makes test hosts (network namespaces on a bridge, cgroups), starts Postgres and the
Prefect server on host A, SeaweedFS on B, the API and dispatcher on C, then measures
throughput with 1 to 4 worker hosts (D to G) under a sustained load of 100-document
batches, breaks hosts and links under load, and sends the same uploads to two API hosts
at once. Writes bench/results/rehearsal.json; exit status 1 when a target or a
must-hold value is missed. Needs root; tears everything down, also on failure.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import Engine

from bench.rehearse import idempotency
from bench.rehearse.faults import FaultRun
from bench.rehearse.hosts import can_make_hosts
from bench.rehearse.layout import (
    DEFAULT_CPU_QUOTA,
    DEFAULT_WORKER_MEMORY_MIB,
    SHARED_HOSTS,
    WORKER_HOSTS,
    rehearsal_stack,
)
from bench.rehearse.load import backlog, footprint
from bench.rehearse.scaling import limits, scaling
from bench.rehearse.services import Services
from storage.db import make_engine

RESULTS = Path(__file__).resolve().parents[1] / "results" / "rehearsal.json"
TARGET_EFFICIENCY = 0.85
FAULTS = ("host_kill", "partition", "store_partition", "prefect_restart")
DRAIN_LIMIT_SECONDS = 1200.0


def _drain(engine: Engine) -> float:
    """Until nothing waits (the scaling load's backlog), so each fault starts clean."""
    started = time.monotonic()
    while backlog(engine) and time.monotonic() - started < DRAIN_LIMIT_SECONDS:
        time.sleep(2.0)
    return round(time.monotonic() - started, 1)


def _violations(results: dict[str, Any]) -> list[str]:
    problems = []
    if results["scaling_efficiency"] < TARGET_EFFICIENCY:
        problems.append(f"scaling_efficiency {results['scaling_efficiency']} < {TARGET_EFFICIENCY}")
    for name in FAULTS:
        fault = results.get(name)
        if fault is None:
            continue
        problems += [f"{name}: {problem}" for problem in fault["violations"]]
        problems += [
            f"{name}: host {host} took no work again"
            for host, seconds in fault["seconds_from_fault_end_until_working_again"].items()
            if seconds is None
        ]
    if (
        "idempotency_across_api_hosts" in results
        and not results["idempotency_across_api_hosts"]["holds"]
    ):
        problems.append("idempotency across API hosts broken")
    return problems


def _layout(services: Services, quota: float, memory: int, readers: int) -> dict[str, Any]:
    roles = {
        "a": "Postgres + Prefect server",
        "b": "SeaweedFS (master, volume, filer, S3)",
        "c": "API + dispatcher",
        "h": "second API (idempotency check)",
    }
    hosts: dict[str, dict[str, Any]] = {
        name: {"address": services.hosts[name].address, "role": roles[name]}
        for name in SHARED_HOSTS
    }
    for name in WORKER_HOSTS:
        hosts[name] = {
            "address": services.hosts[name].address,
            "role": "Prefect worker (pool docintake, --limit 1)",
            "cpu_quota": quota,
            "memory_limit_mib": memory,
            "reading_processes": readers,
        }
    return hosts


def rehearse(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    results: dict[str, Any] = {}
    with rehearsal_stack(work, args.cpu_quota, args.memory_mib, args.readers) as (_, services):
        results["layout"] = _layout(services, args.cpu_quota, args.memory_mib, args.readers)
        results["start_up_seconds"] = round(time.time() - args.started, 1)
        engine = make_engine(services.database_url)
        key = services.company_key("Scaling load")
        scaled = scaling(
            services,
            engine,
            key,
            work / "clients" / "scaling",
            args.step_seconds,
            list(WORKER_HOSTS),
        )
        results |= {
            name: scaled[name] for name in ("worker_hosts", "docs_per_second", "scaling_efficiency")
        }
        results["target_scaling_efficiency"] = TARGET_EFFICIENCY
        results["efficiency_per_step"] = scaled["efficiency_per_step"]
        results["limit_at_each_step"] = limits(scaled["steps"], args.cpu_quota)
        results["scaling_steps"] = scaled["steps"]
        results["seconds_to_drain_after_scaling"] = _drain(engine)
        results["footprint_after_scaling"] = footprint(engine, work / "seaweed" / "volume")
        if not args.skip_faults:
            faults = FaultRun(
                services, engine, list(WORKER_HOSTS), services.company_key, work / "clients"
            )
            for name in FAULTS:
                results[name] = getattr(faults, name)()
                print(f"rehearse: {name}: {json.dumps(results[name])[:400]}", flush=True)
        services.start_api("h")
        results["idempotency_across_api_hosts"] = idempotency.check(
            [services.api_url("c"), services.api_url("h")],
            services.company_key("Two API hosts"),
            engine,
        )
        engine.dispose()
    results["violations"] = _violations(results)
    results["ok"] = not results["violations"]
    return results


def _write(results: dict[str, Any], started: float, load_at_start: float, path: Path) -> None:
    path.parent.mkdir(exist_ok=True)
    document = {
        "benchmark": "rehearsal",
        "started_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "load_average_1m_at_start": round(load_at_start, 2),
        },
        "results": results,
        "wall_seconds": round(time.time() - started, 1),
    }
    path.write_text(json.dumps(document, indent=2) + "\n")


def _stop_on_sigterm() -> None:
    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.rehearse")
    parser.add_argument("--step-seconds", type=float, default=120.0)
    parser.add_argument("--cpu-quota", type=float, default=DEFAULT_CPU_QUOTA)
    parser.add_argument("--memory-mib", type=int, default=DEFAULT_WORKER_MEMORY_MIB)
    parser.add_argument("--readers", type=int, default=1, help="reading processes per host")
    parser.add_argument("--skip-faults", action="store_true")
    parser.add_argument("--keep", action="store_true", help="keep the logs and data")
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    if problem := can_make_hosts():
        print(f"rehearse: {problem}", file=sys.stderr)
        return 2
    _stop_on_sigterm()
    args.started = time.time()
    load_at_start = os.getloadavg()[0]
    work = Path(tempfile.mkdtemp(prefix="docintake-rehearse-"))
    os.chmod(work, 0o755)
    try:
        results = rehearse(args, work)
    finally:
        if not args.keep:
            import shutil

            shutil.rmtree(work, ignore_errors=True)
    _write(results, args.started, load_at_start, args.output)
    summary = ("worker_hosts", "docs_per_second", "scaling_efficiency", "violations")
    print(json.dumps({key: results[key] for key in summary}, indent=2))
    for problem in results["violations"]:
        print(f"rehearse: {problem}", file=sys.stderr)
    return 0 if results["ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""`make bench`: every benchmark, results as JSON in bench/results/."""

from __future__ import annotations

import json
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import (
    api_cost,
    bombs,
    einvoice_bench,
    export,
    intake,
    mail_throughput,
    ocr_cpu,
    pdf_bench,
    pipeline,
    prefect_bound,
    result_pages,
    throughput,
    webapp,
)

RESULTS = Path(__file__).parent / "results"
BENCHMARKS: dict[str, Callable[[], dict[str, Any]]] = {
    # First: its compile time is only honest in a process that has compiled nothing yet.
    "einvoice": einvoice_bench.run,
    "pdf": pdf_bench.run,
    "ocr_cpu": ocr_cpu.run,
    "bombs": bombs.run,
    "intake": intake.run,
    "pipeline": pipeline.run,
    # Issue 13's targets 1-5, each next to its floor, on both modes.
    "throughput": throughput.run,
    # Target 2's bound part: a named flow run per batch, against the 20 % it allows.
    "prefect_bound": prefect_bound.run,
    # Issue 38, target 4: the API's CPU and instructions for one single upload's POST.
    "api_cost": api_cost.run,
    # Issue 41: the SMTP intake's messages/s next to the same documents as ZIP batches.
    "mail_throughput": mail_throughput.run,
    "webapp": webapp.run,
    "result_pages": result_pages.run,
    "export": export.run,
}


def main(names: list[str]) -> int:
    RESULTS.mkdir(exist_ok=True)
    for name, bench in BENCHMARKS.items():
        if names and name not in names:
            continue
        started = time.time()
        result = {
            "benchmark": name,
            "started_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
            "machine": {"cpus": __import__("os").cpu_count(), "python": platform.python_version()},
            "results": bench(),
            "wall_seconds": round(time.time() - started, 1),
        }
        path = RESULTS / f"{name}.json"
        path.write_text(json.dumps(result, indent=2) + "\n")
        print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

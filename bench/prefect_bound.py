"""Issue 13, target 2: what the design binds per batch, against what the target allows.

Target 2 allows the whole stack 20 % beyond the processors' own CPU per document. The
issue binds a batch to a named flow run with its artifacts (Prefect stays the
orchestrator), so every batch of 100 documents costs at least that flow run, in the
Prefect server and in the process that runs it. This benchmark measures both, without
docintake, next to the floor in the same run:

- the floor: `read_document` over the benchmark's 100 corpus documents in this process,
  each the median of three passes (bench/throughput_docs.py, as bench/throughput.py);
- for each Prefect backend, a fresh server with docintake's settings and a polling
  worker (bench/prefect_server_cpu.py), then 20 child flow runs of one parent run in a
  client process, in two shapes:
  - `named-run`: the least the issue binds, a child run `batch-<n>` and its table
    artifact of 100 rows;
  - `process-batch`: as `process-batch` talks to Prefect now, plus its progress artifact
    (made once, at 100 %) and its two log records;

  the server's CPU net of its idle rate (its database's CPU not counted: a lower bound on
  Postgres), the client process's CPU (all its threads, from /proc, as every benchmark here).

`fraction_of_budget` is the flow run's CPU per document over the 20 %: at 1 or more, the
bound parts alone use up what target 2 allows before a document is unpacked, claimed,
sent to a reading process or recorded.

The other bound part is the reading processes (the brief parses only in processes with
kernel limits): bench/reading_bound.py, their CPU beyond the floor with nothing else
running. `design_bound` adds both, per backend and shape, as a fraction of the floor:
against target 2's 0.2, and as the highest throughput target 1 could reach with every
core busy and nothing else spent (`target_1_ceiling`, against its 0.85).

    python -m bench.prefect_bound [--backend sqlite|postgres ...] [--flow-runs 20] [--rounds 10]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from functools import partial
from typing import Any

from bench import reading_bound
from bench.prefect_server_cpu import prefect_server
from bench.stack import ROOT
from bench.stack_cpu import process_cpu_seconds
from bench.throughput_docs import FLOOR_PASSES, Floor, originals

DOCUMENTS_PER_BATCH = 100
ALLOWED_BEYOND_PROCESSORS = 0.2  # target 2: at most 1.2x the processors' CPU
SHAPES = ("named-run", "process-batch")
WARM_UP_FLOW_RUNS = 2
IDLE_SECONDS = 15.0


def drive(shape: str, flow_runs: int) -> float:
    """The client: one parent run with `flow_runs` child runs of `shape`; its CPU seconds
    for them (after one child that warms its client up)."""
    from prefect import flow, get_run_logger
    from prefect.artifacts import create_progress_artifact, create_table_artifact

    rows = [
        {"file": f"{n}.pdf", "upload": str(n), "status": "completed"}
        for n in range(DOCUMENTS_PER_BATCH)
    ]

    @flow(name="bound-batch", flow_run_name="batch-{number}")
    def batch(number: int) -> None:
        if shape == "process-batch":
            get_run_logger().info("batch %d: %d files unpacked", number, DOCUMENTS_PER_BATCH)
            create_progress_artifact(100.0, description=f"batch {number}")
            get_run_logger().info("read %d files:\n%s", len(rows), "\n".join(map(str, rows)))
        create_table_artifact(rows, key=f"batch-{number}", description="uploads")

    @flow(name="bound-queue")
    def queue() -> float:
        batch(0)
        started = process_cpu_seconds(os.getpid())
        for number in range(1, flow_runs + 1):
            batch(number)
        return process_cpu_seconds(os.getpid()) - started

    return queue()


def _drive(env: dict[str, str], shape: str, flow_runs: int) -> float:
    """`drive` in a process of its own: its CPU seconds."""
    done = subprocess.run(
        [sys.executable, "-m", "bench.prefect_bound", "--drive", shape, str(flow_runs)],
        env=env, cwd=ROOT, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return float(done.stdout.strip().splitlines()[-1])


def _warm_up(env: dict[str, str]) -> None:
    for shape in SHAPES:
        _drive(env, shape, WARM_UP_FLOW_RUNS)


def measure(backend: str, flow_runs: int, budget_ms: float) -> dict[str, Any]:
    """`budget_ms`: what target 2 allows beyond the processors, per document."""
    shapes: dict[str, Any] = {}
    with prefect_server(backend, "docintake", IDLE_SECONDS, _warm_up) as server:
        for shape in SHAPES:
            net, _, client = server.net_cpu(partial(_drive, server.env, shape, flow_runs))
            server_ms, client_ms = 1000 * net / flow_runs, 1000 * client / flow_runs
            per_document = (server_ms + client_ms) / DOCUMENTS_PER_BATCH
            shapes[shape] = {
                "server_cpu_ms_per_batch": round(server_ms, 1),
                "client_cpu_ms_per_batch": round(client_ms, 1),
                "ms_per_document": round(per_document, 2),
                "fraction_of_budget": round(per_document / budget_ms, 2),
                # What target 2 leaves for everything else: the API's intake, Postgres,
                # unpacking, claims, the reading processes' requests, recording, tables.
                "left_for_the_rest_ms_per_document": round(budget_ms - per_document, 2),
            }
    return {"backend": backend, "flow_runs": flow_runs, "shapes": shapes}


def run(
    backends: tuple[str, ...] = ("sqlite", "postgres"), flow_runs: int = 20, rounds: int = 10
) -> dict[str, Any]:
    documents = originals(DOCUMENTS_PER_BATCH)
    floor = Floor.measure(documents, documents, FLOOR_PASSES)
    budget_ms = ALLOWED_BEYOND_PROCESSORS * floor.mean_ms()
    measured = [measure(backend, flow_runs, budget_ms) for backend in backends]
    reading = reading_bound.measure(documents, rounds)
    return {
        "floor_ms_per_document": floor.mean_ms(),
        "budget_ms_per_document": round(budget_ms, 2),
        "documents_per_batch": DOCUMENTS_PER_BATCH,
        "backends": measured,
        "reading_processes": reading,
        "design_bound": design_bound(measured, reading["excess"], floor.mean_ms()),
    }


def design_bound(
    measured: list[dict[str, Any]], reading_excess: float, floor_ms: float
) -> dict[str, dict[str, float]]:
    """Both bound parts together, as a fraction of the floor, by backend and shape: what
    target 2 allows is 0.2, and target 1 (0.85 of the floor's throughput) cannot be met
    once the stack's CPU per document is over 1/0.85 of the floor, even with every core
    busy all the time: `target_1_ceiling` is that throughput with nothing else spent."""
    bound = {}
    for backend in measured:
        for shape, cost in backend["shapes"].items():
            fraction = cost["ms_per_document"] / floor_ms + reading_excess
            bound[f"{backend['backend']}/{shape}"] = {
                "fraction_of_floor": round(fraction, 3),
                "fraction_of_target_2_budget": round(fraction / ALLOWED_BEYOND_PROCESSORS, 2),
                "target_1_ceiling": round(1 / (1 + fraction), 3),
            }
    return bound


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--backend", action="append", choices=["sqlite", "postgres"])
    parser.add_argument("--flow-runs", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=10, help="reading processes' rounds")
    parser.add_argument("--drive", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.drive is not None:
        print(drive(args.drive[0], int(args.drive[1])))
        return
    backends = tuple(args.backend or ["sqlite", "postgres"])
    print(json.dumps(run(backends, args.flow_runs, args.rounds), indent=2))


if __name__ == "__main__":
    main()

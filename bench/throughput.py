"""Issue 13's targets 1-5 on the real stack, each next to its floor, on both modes:

- `embedded`: `make run`'s defaults (SQLite, Prefect server on SQLite, local objects);
- `production`: a Postgres cluster of its own for docintake and the Prefect server
  (bench/soak_backends.py; never the shared cluster, whose other users would count in
  its CPU), local objects.

Each mode starts the stack (bench/stack.py), reads one upload so a `serve-queue` run is
warm, then:
3. idle stack: one 100-file batch at a time, POST to terminal, against the warm floor;
1. sustained: 8 batches of 100 different documents at once, against the floor;
2. cost: CPU of every process of the stack (API, Prefect server, worker, flow runs,
   readers, dispatcher, webhook sender, Postgres) over that run, against the
   processors' own CPU for the same documents;
4. singles: from 16 parallel senders, against 0.8 of the floor; then paced at half the
   floor's rate, queued-to-completed p50;
5. polling: GET upload at 500/s and batch GET (100 uploads) while 8 batches are read.

The floor (bench/throughput_docs.py) is measured in this process before the modes, each
document's the median of three passes; the targets use it. It is measured again after
the modes: `floor.after_modes.drift` says how far the machine's speed moved during the
run (the same documents' floor came out 13.7 and 16.5 CPU s ten minutes apart,
docs/throughput.md, eleventh round), so a verdict near its limit can be read with it.
Every phase records the machine's load average: on a shared machine throughput and
latency move with it; CPU per document much less.

    python -m bench.throughput [--fast] [--mode embedded|production ...]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bench.pipeline import bench_cold_start
from bench.soak_backends import PostgresCluster
from bench.stack import Stack
from bench.stack_cpu import CpuMeter
from bench.throughput_docs import CORES, FLOOR_PASSES, Document, Floor, originals, variants
from bench.throughput_phases import (
    idle_batches,
    idle_cpu_per_second,
    load_average,
    polling,
    prefect_events,
    singles,
    sustained,
)

MODES = ("embedded", "production")


@dataclass(frozen=True)
class Sizes:
    batches: int = 8
    files_per_batch: int = 100
    idle_batches: int = 3
    singles: int = 400
    paced_singles: int = 300
    poll_rate: int = 500
    poll_seconds: float = 10.0
    idle_seconds: float = 5.0


FAST = Sizes(
    batches=2,
    files_per_batch=10,
    idle_batches=1,
    singles=10,
    paced_singles=10,
    poll_rate=50,
    poll_seconds=1.0,
    idle_seconds=1.0,
)


@dataclass(frozen=True)
class Documents:
    """Every document a mode sends; variant numbers keep each one's bytes unique."""

    originals: list[Document]
    batches: list[list[Document]]
    singles: list[Document]
    paced: list[Document]
    polling_load: list[list[Document]]

    @classmethod
    def of(cls, sizes: Sizes) -> Documents:
        files = originals(sizes.files_per_batch)
        batches = [variants(files, n + 1) for n in range(sizes.batches)]
        rounds = [variants(files, 100 + n) for n in range(sizes.singles // len(files) + 1)]
        spread = [document for round_ in rounds for document in round_]
        paced_rounds = [
            variants(files, 200 + n) for n in range(sizes.paced_singles // len(files) + 1)
        ]
        paced = [document for round_ in paced_rounds for document in round_]
        polling_load = [variants(files, 300 + n) for n in range(sizes.batches)]
        return cls(
            files, batches, spread[: sizes.singles], paced[: sizes.paced_singles], polling_load
        )

    def measured(self) -> list[Document]:
        """The documents whose floor the targets compare with (the polling load's is
        not needed)."""
        return [*self.originals, *(d for b in self.batches for d in b), *self.singles, *self.paced]


def _backends(mode: str, work: Path, exits: ExitStack) -> tuple[str, str | None, Any]:
    if mode == "embedded":
        (work / "var").mkdir()
        return f"sqlite:///{work / 'var' / 'docintake.db'}", None, None
    postgres = PostgresCluster(work / "postgres")
    exits.callback(postgres.stop)
    for database in ("docintake", "prefect"):
        postgres.create_database(database)
    return postgres.url("docintake"), postgres.url("prefect", driver="asyncpg"), postgres


def _roots(stack: Stack, postgres: PostgresCluster | None) -> dict[str, list[int]]:
    roots = {
        "api": [stack.api.pid],
        "prefect-server": [stack.prefect.pid],
        "prefect-worker": [stack.worker.pid],
        "dispatcher": [stack.dispatcher.pid],
        "webhooks": [stack.webhooks.pid],
    }
    if postgres is not None and (postmaster := postgres.postmaster_pid()):
        roots["postgres"] = [postmaster]
    return roots


def run_mode(
    mode: str, sizes: Sizes, documents: Documents, floor: Floor, sustained_only: bool = False
) -> dict[str, Any]:
    with ExitStack() as exits:
        work = Path(
            exits.enter_context(tempfile.TemporaryDirectory(prefix=f"docintake-tp-{mode}-"))
        )
        url, prefect_url, postgres = _backends(mode, work, exits)
        archive_limit = {"DOCINTAKE_MAX_ARCHIVE_BYTES": str(300 * 1024 * 1024)}
        stack = Stack(work, url, archive_limit, prefect_url)
        exits.callback(stack.stop)
        meter = CpuMeter(lambda: _roots(stack, postgres))
        started = time.time()
        cold = bench_cold_start(stack)
        idle_cpu = idle_cpu_per_second(meter, sizes.idle_seconds)
        result: dict[str, Any] = {
            "mode": mode,
            "database": "sqlite" if postgres is None else "postgres (own cluster)",
            "prefect_server_database": "sqlite" if postgres is None else "postgres",
            "object_store": "local directory",
            "reading_processes": CORES,
            "cold_start": cold,
            "idle_stack_cpu_s_per_s": idle_cpu,
        }
        phases: dict[str, Callable[[], Any]] = {
            "target_3_idle_batch": lambda: idle_batches(
                stack, url, documents.originals, floor, sizes.idle_batches
            ),
            "targets_1_2_sustained": lambda: sustained(stack, url, documents.batches, floor, meter),
            "target_4_singles": lambda: singles(
                stack, url, documents.singles, documents.paced, floor, meter
            ),
            "target_5_polling": lambda: polling(
                stack, finished, documents.polling_load, sizes.poll_rate, sizes.poll_seconds
            ),
        }
        finished: tuple[str, str] = ("", "")
        for name, phase in phases.items():
            if sustained_only and name != "targets_1_2_sustained":
                continue
            try:
                result[name] = phase()
            except Exception as error:  # the other phases still run and report
                result[name] = {"error": f"{type(error).__name__}: {error}"[:2000]}
            if name == "target_3_idle_batch" and "error" not in result[name]:
                result[name], finished = result[name]
        try:
            result["prefect_events"] = prefect_events(work, prefect_url)
        except Exception as error:  # a Prefect schema of another version
            result["prefect_events"] = {"error": str(error)[:500]}
        result["seconds"] = round(time.time() - started, 1)
        return result


def summary(mode: dict[str, Any]) -> dict[str, Any]:
    """Each target's measured value, its floor or limit, and whether it is met."""
    tp, idle = mode["targets_1_2_sustained"], mode["target_3_idle_batch"]
    single, poll = mode["target_4_singles"], mode["target_5_polling"]
    if any("error" in phase for phase in (tp, idle, single, poll)):
        return {"error": "a phase failed; see its entry"}
    rows = {
        "1_sustained_fraction_of_floor": (tp["fraction_of_floor"], 0.85, ">="),
        "2_stack_cpu_per_processors_cpu": (tp["cpu"]["stack_per_processors_cpu"], 1.2, "<="),
        "3_idle_batch_seconds_over_floor": (idle["over_floor_seconds"], 0.4, "<="),
        "4_singles_fraction_of_floor": (single["fraction_of_floor"], 0.8, ">="),
        "4_paced_singles_p50_s": (single["paced"]["queued_to_completed_p50_s"], 0.3, "<"),
        "5_upload_get_p99_ms": (poll["upload_get_p99_ms"], 10, "<"),
        "5_batch_get_p99_ms": (poll["batch_get_p99_ms"], 25, "<"),
    }
    met = {
        ">=": lambda value, limit: value >= limit,
        "<=": lambda value, limit: value <= limit,
        "<": lambda value, limit: value < limit,
    }
    return {
        name: {"value": value, "target": f"{op} {limit}", "met": met[op](value, limit)}
        for name, (value, limit, op) in rows.items()
    }


def run(
    fast: bool = False, modes: tuple[str, ...] = MODES, sustained_batches: int = 0
) -> dict[str, Any]:
    """All targets on every mode; `sustained_batches`: only targets 1 and 2, with that
    many batches (to compare the CPU per document before and after a change)."""
    sizes = FAST if fast else Sizes()
    if sustained_batches:
        sizes = replace(sizes, batches=sustained_batches, singles=0, paced_singles=0)
    documents = Documents.of(sizes)
    load = load_average()
    started = time.process_time()
    passes = 1 if fast else FLOOR_PASSES
    floor = Floor.measure(documents.originals, documents.measured(), passes)
    floor_info = {
        "how": "read_document in this process, warm, CPU time over the cores",
        "per_document": f"median of {passes} passes",
        "load_average_1m_at_start": load,
        "documents": len(floor.cpu_seconds),
        "mean_cpu_ms_per_document": floor.mean_ms(),
        "sustained_documents_per_second": round(
            floor.per_second([d for b in documents.batches for d in b]), 1
        ),
        "measured_in_s": round(time.process_time() - started, 1),
    }
    results: dict[str, Any] = {"fast": fast, "sizes": sizes.__dict__, "floor": floor_info}
    for mode in modes:
        measured = run_mode(mode, sizes, documents, floor, bool(sustained_batches))
        targets = {} if sustained_batches else summary(measured)
        results[mode] = {"targets": targets, **measured}
    again = Floor.measure(documents.originals, documents.measured(), passes)
    floor_info["after_modes"] = {
        "mean_cpu_ms_per_document": again.mean_ms(),
        "drift": round(again.mean_ms() / floor.mean_ms() - 1, 3),
        "load_average_1m": load_average(),
    }
    return results


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.throughput")
    parser.add_argument("--fast", action="store_true", help="small numbers, a smoke test")
    parser.add_argument("--mode", choices=MODES, action="append")
    parser.add_argument(
        "--sustained-only", type=int, default=0, metavar="BATCHES", help="targets 1 and 2 only"
    )
    args = parser.parse_args(argv)
    result = run(args.fast, tuple(args.mode or MODES), args.sustained_only)
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

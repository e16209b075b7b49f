"""Wake-ups per document (issue 38, target 2): voluntary and nonvoluntary context
switches of the `serve-queue` flow-run process (every thread) and of the reading
processes, over a fixed set of documents on the real embedded stack (bench/stack.py:
SQLite, local object directory, Prefect server, a Prefect worker running `serve-queue`).

The documents: `batches` batches of `per_batch` distinct documents (variants of corpus
files, bench/throughput_docs.py), one company each, POSTed at once, then `singles`
single uploads; counted from just before the first POST until every one is terminal.
The serve-queue process's thread count is reported too: the most seen in one process
while it served, and its count when idle before the load.

    python -m bench.wakeups [--tiny]

Results in bench/results/wakeups.json (`make bench` runs it as `wakeups`).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2 as httpx

from bench.pipeline import bench_cold_start, zip_files
from bench.stack import Stack, descendants
from bench.throughput_docs import Document, originals, variants
from bench.throughput_phases import company_keys, load_average, post_batches
from bench.wakeup_counts import WakeupSampler, thread_counts

RESULTS = Path(__file__).parent / "results"
WAIT_SECONDS = 900.0


@dataclass(frozen=True)
class Sizes:
    batches: int = 4
    per_batch: int = 100
    singles: int = 100


TINY = Sizes(batches=2, per_batch=10, singles=5)


def _documents(sizes: Sizes) -> tuple[list[list[Document]], list[Document]]:
    files = originals(sizes.per_batch)
    batches = [variants(files, 700 + n) for n in range(sizes.batches)]
    singles = variants(files, 800)[: sizes.singles]
    return batches, singles


def _post_single(stack: Stack, key: str, document: Document) -> str:
    with httpx.Client(
        base_url=stack.api_url, headers={"Authorization": f"Bearer {key}"}, timeout=120
    ) as client:
        answer = client.post("/v1/uploads", files={"file": document})
        answer.raise_for_status()
        return str(answer.json()["id"])


def _wait_terminal(stack: Stack, key: str, paths: list[str]) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    with httpx.Client(
        base_url=stack.api_url, headers={"Authorization": f"Bearer {key}"}, timeout=120
    ) as client:
        for path in paths:
            while client.get(path).json()["status"] in ("queued", "processing"):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{path} did not finish")
                time.sleep(0.25)


def _serve_queue_threads(stack: Stack) -> list[int]:
    from bench.wakeup_counts import role_of

    return [
        len(thread_counts(pid))
        for pid in descendants(stack.worker.pid)
        if role_of(pid) == "serve_queue"
    ]


def _per_document(totals: dict[str, Any], documents: int) -> dict[str, Any]:
    for role in totals.values():
        switches = role["voluntary"] + role["nonvoluntary"]
        role["per_document"] = round(switches / documents, 2)
    return totals


def measure(sizes: Sizes) -> dict[str, Any]:
    batches, singles = _documents(sizes)
    with tempfile.TemporaryDirectory(prefix="docintake-wakeups-") as tmp:
        work = Path(tmp)
        (work / "var").mkdir()
        stack = Stack(work, f"sqlite:///{work / 'var' / 'docintake.db'}")
        try:
            cold = bench_cold_start(stack)
            keys = company_keys(stack, "wakeups", len(batches) + 1)
            idle_threads = _serve_queue_threads(stack)
            sampler = WakeupSampler(lambda: descendants(stack.worker.pid))
            load = load_average()
            sampler.start()
            started = time.monotonic()
            ids = post_batches(stack, keys[:-1], [zip_files(batch) for batch in batches])
            with ThreadPoolExecutor(4) as pool:
                single_ids = list(pool.map(lambda d: _post_single(stack, keys[-1], d), singles))
            for key, batch_id in zip(keys, ids, strict=False):
                _wait_terminal(stack, key, [f"/v1/uploads/batches/{batch_id}"])
            _wait_terminal(stack, keys[-1], [f"/v1/uploads/{i}" for i in single_ids])
            seconds = time.monotonic() - started
            totals = sampler.stop()
        finally:
            stack.stop()
    documents = sizes.batches * sizes.per_batch + len(singles)
    return {
        "sizes": sizes.__dict__,
        "documents": documents,
        "load_average_1m_at_start": load,
        "load_average_1m_at_end": load_average(),
        "seconds": round(seconds, 2),
        "cold_start": cold,
        "serve_queue_threads_idle": idle_threads,
        "wakeups": _per_document(totals, documents),
    }


def run(tiny: bool = False) -> dict[str, Any]:
    return measure(TINY if tiny else Sizes())


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.wakeups")
    parser.add_argument("--tiny", action="store_true", help="a few documents, a smoke test")
    args = parser.parse_args(argv)
    result = run(args.tiny)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "wakeups.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

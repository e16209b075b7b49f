"""Issue 13, targets 1 and 2: what the reading processes cost beyond the floor.

The brief binds parsing to processes with kernel limits on memory and CPU, so every
document the stack reads goes through `DocumentExecutor`'s reading processes
(flows/executor.py), never through `read_document` in the process that asks. This
measures that cost alone, with nothing else of the stack running:

- the stack's request path: the document's key over the pipe, the bytes fetched by the
  reading process from a local directory store (`read_stored_in_child`), one reading
  process per core, every document in flight at once;
- each round, one floor pass (`read_document` over the same documents in this process)
  and one pass through the reading processes, interleaved so the machine's drift
  touches both alike (one pass moves by a tenth or more here);
- the reading processes' CPU from /proc, the asking process's (its slot threads and
  futures) from its own clock.

`excess` is (readers + asking process) over the floor, minus 1, over all rounds.

    python -m bench.reading_bound [--rounds 10]
"""

from __future__ import annotations

import argparse
import json
import pickle
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.stack_cpu import process_cpu_seconds
from bench.throughput_docs import CONTEXT, CORES, Document, one_pass, originals
from flows.executor import DocumentExecutor
from flows.reader_process import read_stored_in_child
from storage.objectstore.local import LocalDirStore


def _through_readers(executor: DocumentExecutor, store: bytes, count: int) -> tuple[float, float]:
    """CPU seconds of the reading processes and of this process for one pass."""
    pids = executor.reader_pids()
    readers, asking = sum(map(process_cpu_seconds, pids)), time.process_time()
    futures = [
        executor.submit("", read_stored_in_child, store, str(n), CONTEXT, executor.limits)
        for n in range(count)
    ]
    for future in futures:
        future.result()
    if executor.reader_pids() != pids:
        raise RuntimeError("a reading process was replaced during the pass")
    return sum(map(process_cpu_seconds, pids)) - readers, time.process_time() - asking


def measure(documents: list[Document], rounds: int, compile_rules: bool = True) -> dict[str, Any]:
    """`compile_rules=False` only for a quick check: the processes then compile each
    validation artefact on first use, which the warm-up pass takes on."""
    floor = readers = asking = 0.0
    with tempfile.TemporaryDirectory(prefix="docintake-reading-") as root:
        for n, (_, data) in enumerate(documents):
            (Path(root) / str(n)).write_bytes(data)
        store = pickle.dumps(LocalDirStore(Path(root)))
        executor = DocumentExecutor(processes=CORES, compile_rules=compile_rules)
        try:
            executor.warm_up()
            one_pass(documents, CONTEXT)  # both warm before the first round
            _through_readers(executor, store, len(documents))
            for _ in range(rounds):
                floor += sum(one_pass(documents, CONTEXT).values())
                spent = _through_readers(executor, store, len(documents))
                readers, asking = readers + spent[0], asking + spent[1]
        finally:
            executor.shutdown()
    read = rounds * len(documents)
    return {
        "documents": len(documents),
        "rounds": rounds,
        "reading_processes": CORES,
        "floor_ms_per_document": round(1000 * floor / read, 2),
        "readers_ms_per_document": round(1000 * readers / read, 2),
        "asking_process_ms_per_document": round(1000 * asking / read, 2),
        "excess": round((readers + asking) / floor - 1, 3),
    }


def run(rounds: int = 10) -> dict[str, Any]:
    return measure(originals(100), rounds)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.reading_bound")
    parser.add_argument("--rounds", type=int, default=10)
    print(json.dumps(run(parser.parse_args().rounds), indent=2))


if __name__ == "__main__":
    main()

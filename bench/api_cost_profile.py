"""Where a POST's CPU went, from bench/api_cost.py's cProfile of the API (every thread,
CPU time per thread): the parts of the request path, each with its inclusive CPU per
request and its share of the profiled CPU.

    python -m bench.api_cost_profile OUT.pstats REQUESTS

cProfile adds a fixed cost to every Python call, so the milliseconds are several times
the real ones (compare bench/api_cost.py's CPU without it) and the shares lean towards
code with many small calls; they say where to look, not what a cut will save.
"""

from __future__ import annotations

import pstats
import sys
from typing import Any

# (label, the end of the file's path, function): inclusive CPU, threads apart. A
# coroutine's "calls" are its resumptions; its inclusive time is that of its steps.
PARTS = [
    ("the upload path in front of FastAPI (loop)", "api/v1/upload_path.py", "answer_upload"),
    ("API key check (thread)", "api/deps.py", "current_key"),
    ("claim: transaction (thread, before)", "api/v1/uploads.py", "_claim_and_present_upload"),
    ("store + claim (thread, after)", "api/v1/uploads.py", "_store_and_claim_upload"),
    ("  of it: storing the file", "api/intake.py", "stored_file"),
    ("  of it: claim_upload", "storage/idempotency.py", "claim_upload"),
    ("storing the file (thread, before)", "api/intake.py", "_store_whole"),
    ("body read and multipart parsing (loop)", "api/intake.py", "_pump"),
    ("dependency solving (loop)", "fastapi/dependencies/utils.py", "solve_dependencies"),
    ("thread trips (loop side)", "anyio/_backends/_asyncio.py", "run_sync_in_worker_thread"),
    ("response rendering", "api/v1/polling.py", "resource_response"),
    ("sending the answer, with the access log", "uvicorn/protocols/http/httptools_impl.py", "send"),
]


def inclusive(stats: dict[Any, Any], path_end: str, function: str) -> tuple[float, int]:
    seconds, calls = 0.0, 0
    for (path, _line, name), (_cc, count, _tt, cumulative, _callers) in stats.items():
        if name == function and path.endswith(path_end):
            seconds, calls = seconds + cumulative, calls + count
    return seconds, calls


def summary(path: str, requests: int) -> list[dict[str, Any]]:
    stats: dict[Any, Any] = pstats.Stats(path).stats  # type: ignore[attr-defined]
    total = sum(entry[2] for entry in stats.values())
    rows = [{"part": "everything profiled", "ms_per_request": 1000 * total / requests}]
    for label, path_end, function in PARTS:
        seconds, _ = inclusive(stats, path_end, function)
        if seconds > 0:
            rows.append({"part": label, "ms_per_request": 1000 * seconds / requests})
    for row in rows:
        row["share"] = round(row["ms_per_request"] / rows[0]["ms_per_request"], 3)
        row["ms_per_request"] = round(row["ms_per_request"], 3)
    return rows


def main() -> None:
    for row in summary(sys.argv[1], int(sys.argv[2])):
        print(f"{row['part']:42s} {row['ms_per_request']:7.3f} ms  {100 * row['share']:5.1f} %")


if __name__ == "__main__":
    main()

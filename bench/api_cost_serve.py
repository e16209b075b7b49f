"""The API process of bench/api_cost.py: `docintake serve` itself (api.cli.cmd_serve, one
process, GuardedHttpProtocol), optionally under cProfile in every thread.

    python -m bench.api_cost_serve --port P [--profile OUT]

With `--profile`, every thread is profiled from its start (the event loop's and the
thread pool's, where the database and the object store are used). SIGUSR1 takes a
snapshot of every thread's counts; SIGUSR2 writes the counts since that snapshot to OUT
(pstats format), so the warm-up and the start-up are left out.
"""

from __future__ import annotations

import argparse
import cProfile
import marshal
import signal
import sys
import threading
import time
from types import FrameType
from typing import Any

from api.cli import cmd_serve

Stats = dict[Any, Any]


class ThreadProfiles:
    """One cProfile.Profile per thread (cProfile sees only the thread that enabled it)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._profiles: list[cProfile.Profile] = []
        self._baseline: list[Stats] = []

    def start(self) -> None:
        threading.setprofile(self._begin_in_thread)
        self._enable_here()

    def _enable_here(self) -> None:
        # CPU time of the thread, not the wall clock: a thread waiting for a lock or
        # for the machine's other processes is not charged.
        profile = cProfile.Profile(time.thread_time)
        with self._lock:
            self._profiles.append(profile)
            self._baseline.append({})
        profile.enable()

    def _begin_in_thread(self, _frame: FrameType, _event: str, _arg: object) -> None:
        sys.setprofile(None)
        self._enable_here()

    def _snapshots(self) -> list[Stats]:
        with self._lock:
            profiles = list(self._profiles)
        snapshots = []
        for profile in profiles:
            profile.snapshot_stats()  # reads the counts, leaves the profile running
            snapshots.append(dict(profile.stats))
        return snapshots

    def mark(self) -> None:
        snapshots = self._snapshots()
        with self._lock:
            self._baseline = snapshots + [{}] * (len(self._profiles) - len(snapshots))

    def since_mark(self) -> Stats:
        total: Stats = {}
        for index, stats in enumerate(self._snapshots()):
            baseline = self._baseline[index] if index < len(self._baseline) else {}
            for function, entry in stats.items():
                _add(total, function, _minus(entry, baseline.get(function)))
        return {f: e for f, e in total.items() if e[1] > 0 or e[2] > 0}


def _minus(entry: tuple[Any, ...], before: tuple[Any, ...] | None) -> tuple[Any, ...]:
    if before is None:
        return entry
    cc, nc, tt, ct, callers = entry
    callers = {
        caller: tuple(
            a - b for a, b in zip(value, before[4].get(caller, (0, 0, 0.0, 0.0)), strict=True)
        )
        for caller, value in callers.items()
    }
    return cc - before[0], nc - before[1], tt - before[2], ct - before[3], callers


def _add(total: Stats, function: Any, entry: tuple[Any, ...]) -> None:
    if function not in total:
        total[function] = entry
        return
    cc, nc, tt, ct, callers = total[function]
    merged = dict(callers)
    for caller, value in entry[4].items():
        old = merged.get(caller, (0, 0, 0.0, 0.0))
        merged[caller] = tuple(a + b for a, b in zip(old, value, strict=True))
    total[function] = (cc + entry[0], nc + entry[1], tt + entry[2], ct + entry[3], merged)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--profile", default=None)
    args = parser.parse_args()
    if args.profile:
        profiles = ThreadProfiles()

        def _write(_signum: int, _frame: object) -> None:
            with open(args.profile, "wb") as out:
                marshal.dump(profiles.since_mark(), out)

        signal.signal(signal.SIGUSR1, lambda _s, _f: profiles.mark())
        signal.signal(signal.SIGUSR2, _write)
        profiles.start()
    return cmd_serve(argparse.Namespace(host="127.0.0.1", port=args.port, workers=1))


if __name__ == "__main__":
    raise SystemExit(main())

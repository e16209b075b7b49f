"""Context switches (wake-ups) of the pipeline's processes, from /proc, by thread.

`/proc/<pid>/status` counts a process's main thread only; each thread has its own
counts in `/proc/<pid>/task/<tid>/status`. Threads come and go during a run (a thread
pool per batch), and a thread that ended takes its counts with it, so a sampler reads
every thread of every process of interest a few times a second and keeps the last
counts seen of each: a thread that ended between two samples loses at most its last
interval. A process is a reader (bench/soak_procs.py, `is_reader`) or the flow run
that serves the queue (`is_flow_run`); the forkserver and resource tracker are neither.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.soak_procs import is_flow_run, is_reader

SAMPLE_SECONDS = 0.2
# (pid, tid) -> (voluntary, nonvoluntary)
Counts = dict[tuple[int, int], tuple[int, int]]


def thread_counts(pid: int) -> Counts:
    """Voluntary and nonvoluntary context switches of every thread of `pid` now."""
    counts: Counts = {}
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return counts
    for task in tasks:
        try:
            lines = (task / "status").read_text().splitlines()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in lines if ":" in line)
        try:
            voluntary = int(fields["voluntary_ctxt_switches"])
            nonvoluntary = int(fields["nonvoluntary_ctxt_switches"])
        except (KeyError, ValueError):
            continue
        counts[(pid, int(task.name))] = (voluntary, nonvoluntary)
    return counts


def role_of(pid: int) -> str | None:
    if is_reader(pid):
        return "readers"
    if is_flow_run(pid):
        return "serve_queue"
    return None


@dataclass
class WakeupSampler:
    """Samples every thread of the processes `pids()` names, by role, until stopped."""

    pids: Callable[[], list[int]]
    first: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)
    last: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)
    roles: dict[int, str] = field(default_factory=dict)
    most_threads: dict[str, int] = field(default_factory=dict)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def sample(self) -> None:
        for pid in self.pids():
            role = self.roles.get(pid) or role_of(pid)
            if role is None:
                continue
            self.roles[pid] = role
            counts = thread_counts(pid)
            if role == "serve_queue" and counts:
                self.most_threads[role] = max(self.most_threads.get(role, 0), len(counts))
            for key, value in counts.items():
                # A thread seen for the first time after the start began at zero.
                self.first.setdefault(key, (0, 0) if self._thread else value)
                self.last[key] = value

    def start(self) -> None:
        self.sample()  # the counts at the start
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(SAMPLE_SECONDS):
            self.sample()

    def stop(self) -> dict[str, Any]:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self.sample()
        return self.totals()

    def totals(self) -> dict[str, Any]:
        """Per role: voluntary and nonvoluntary switches, threads and processes seen."""
        out: dict[str, Any] = {}
        for (pid, tid), (voluntary, nonvoluntary) in self.last.items():
            start = self.first.get((pid, tid), (0, 0))
            role = out.setdefault(
                self.roles[pid],
                {"voluntary": 0, "nonvoluntary": 0, "threads_seen": 0, "processes": set()},
            )
            role["voluntary"] += voluntary - start[0]
            role["nonvoluntary"] += nonvoluntary - start[1]
            role["threads_seen"] += 1
            role["processes"].add(pid)
        for name, role in out.items():
            role["processes"] = len(role["processes"])
            role["most_threads_in_a_process"] = self.most_threads.get(name)
        return out

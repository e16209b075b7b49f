"""The stack's processes by role, from /proc: which to kill, and their peak memory
sampled every second."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.stack import children, descendants

# role -> the root pids of that role now (they change when a server is restarted)
RootsNow = Callable[[], dict[str, list[int]]]


def cmdline(pid: int) -> str:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return ""
    return raw.replace(b"\0", b" ").decode(errors="replace").strip()


def _parent(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[1])


def is_flow_run(pid: int) -> bool:
    """A process of the Prefect worker's flow runs (`prefect.engine`, or Prefect's
    runner processes around it), not one of their multiprocessing children."""
    command = cmdline(pid)
    return "prefect" in command and "multiprocessing" not in command


def is_reader(pid: int) -> bool:
    """A multiprocessing child doing the work: a spawned child, or a child forked by a
    forkserver (it keeps the forkserver's command line, so its parent tells). The
    forkserver and the resource tracker themselves are helpers, not readers."""
    command = cmdline(pid)
    if "multiprocessing" not in command or "resource_tracker" in command:
        return False
    if "spawn" in command or "--multiprocessing-fork" in command:
        return True
    parent = _parent(pid)
    return parent is not None and "forkserver" in cmdline(parent)


def flow_runs(worker_pid: int) -> list[int]:
    return [pid for pid in descendants(worker_pid) if is_flow_run(pid)]


def readers(worker_pid: int) -> list[int]:
    return [pid for pid in descendants(worker_pid) if is_reader(pid)]


def serving_flow_runs(worker_pid: int) -> list[int]:
    """The flow-run processes that run the flow's code: those with a multiprocessing
    child (the `serve-queue` runs' reading pools; the scheduled export runs have none),
    else every flow-run process."""
    runs = flow_runs(worker_pid)
    serving = [run for run in runs if any("multiprocessing" in cmdline(c) for c in children(run))]
    return serving or runs


def _role_of(root_role: str, root: int, pid: int) -> str:
    if root_role != "prefect-worker":
        return root_role
    if is_reader(pid):
        return "reader"
    if pid == root:
        return "prefect-worker"
    return "flow-run"  # the runs and their helpers (forkserver, resource tracker)


def _memory_kib(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) in KiB; zeros for a process that is gone."""
    values = {"VmRSS:": 0, "VmHWM:": 0}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            name, _, rest = line.partition(":")
            if name + ":" in values:
                values[name + ":"] = int(rest.split()[0])
    except (OSError, ValueError):
        pass
    return values["VmRSS:"], values["VmHWM:"]


def _start_time(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return "?"


@dataclass
class _Seen:
    role: str
    command: str
    peak_kib: int = 0


@dataclass
class MemorySampler:
    """Every second: each process of the stack, its role, and the larger of VmHWM and
    VmRSS; per role also the largest total at one moment."""

    roots_now: RootsNow
    interval: float = 1.0
    seen: dict[tuple[int, str], _Seen] = field(default_factory=dict)
    role_total_peak_kib: dict[str, int] = field(default_factory=dict)
    samples: int = 0
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._loop, name="memory-sampler", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=10)

    def _loop(self) -> None:
        while not self._stop.wait(self.interval):
            self.sample()

    def sample(self) -> None:
        totals: dict[str, int] = {}
        for root_role, roots in self.roots_now().items():
            for root in roots:
                for pid in [root, *descendants(root)]:
                    role = _role_of(root_role, root, pid)
                    rss, hwm = _memory_kib(pid)
                    if not rss and not hwm:
                        continue
                    key = (pid, _start_time(pid))
                    entry = self.seen.setdefault(key, _Seen(role, cmdline(pid)[:120]))
                    entry.peak_kib = max(entry.peak_kib, rss, hwm)
                    totals[role] = totals.get(role, 0) + rss
        for role, total in totals.items():
            self.role_total_peak_kib[role] = max(self.role_total_peak_kib.get(role, 0), total)
        self.samples += 1

    def report(self) -> dict[str, Any]:
        by_role: dict[str, list[tuple[int, _Seen]]] = {}
        for (pid, _), entry in self.seen.items():
            by_role.setdefault(entry.role, []).append((pid, entry))
        roles = {}
        for role, entries in sorted(by_role.items()):
            entries.sort(key=lambda item: -item[1].peak_kib)
            roles[role] = {
                "processes_seen": len(entries),
                "peak_mib": _mib(entries[0][1].peak_kib),
                "peak_total_at_once_mib": _mib(self.role_total_peak_kib.get(role, 0)),
                "largest": [
                    {"pid": pid, "peak_mib": _mib(entry.peak_kib), "command": entry.command}
                    for pid, entry in entries[:3]
                ],
            }
        return {"samples": self.samples, "interval_s": self.interval, "by_role": roles}


def _mib(kib: int) -> float:
    return round(kib / 1024, 1)

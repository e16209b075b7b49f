"""CPU time of every process of a running stack, by role, from /proc.

A process's `utime + stime` is its own CPU; `cutime + cstime` is what its children that
it has waited for spent (theirs and their own waited-for children's). So the CPU of a
process tree is the sum of all four over its living processes: a process that ended
during a measurement is counted in its parent's children times once reaped. Taken
before and after, the difference is what the tree spent in between, processes born
and ended in between included.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from bench.soak_procs import is_reader
from bench.stack import descendants

TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")

# role -> the root pids of that role now
Roots = Callable[[], dict[str, list[int]]]


def process_cpu_seconds(pid: int) -> float:
    """utime + stime + cutime + cstime of one process; 0 for one that is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    # After the command: state is field 3 of stat(5), utime 14 ... cstime 17.
    return sum(int(value) for value in fields[11:15]) / TICKS_PER_SECOND


def _role(root_role: str, root: int, pid: int) -> str:
    """The Prefect worker's tree splits into the worker, its flow runs (and their
    helpers: forkserver, resource tracker) and the reading processes."""
    if root_role != "prefect-worker" or pid == root:
        return root_role
    return "reader" if is_reader(pid) else "flow-run"


def cpu_by_role(roots: dict[str, list[int]]) -> dict[str, float]:
    """CPU seconds so far of every process tree, summed by role."""
    totals: dict[str, float] = {}
    for root_role, pids in roots.items():
        for root in pids:
            for pid in [root, *descendants(root)]:
                role = _role(root_role, root, pid)
                totals[role] = totals.get(role, 0.0) + process_cpu_seconds(pid)
    return totals


class CpuMeter:
    """CPU spent by the stack's processes between `start` and `stop`, by role."""

    def __init__(self, roots: Roots) -> None:
        self.roots = roots
        self.before: dict[str, float] = {}
        self.spent: dict[str, float] = {}

    def start(self) -> None:
        self.before = cpu_by_role(self.roots())

    def stop(self) -> dict[str, float]:
        after = cpu_by_role(self.roots())
        roles = sorted(set(after) | set(self.before))
        self.spent = {role: after.get(role, 0.0) - self.before.get(role, 0.0) for role in roles}
        return self.spent

    @property
    def total(self) -> float:
        return sum(self.spent.values())

"""The rehearsal's machines: which test host is which, and their budgets."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bench.rehearse.hosts import REHEARSAL, Host, Network
from bench.rehearse.services import Services

SHARED_HOSTS = {"a": 10, "b": 11, "c": 12, "h": 13}  # host name -> last address byte
WORKER_HOSTS = ("d", "e", "f", "g")
DEFAULT_CPU_QUOTA = 0.4
DEFAULT_WORKER_MEMORY_MIB = 3072


def make_hosts(cpu_quota: float, memory_mib: int) -> list[Host]:
    hosts = [Host(name, REHEARSAL.address(last)) for name, last in SHARED_HOSTS.items()]
    hosts += [
        Host(name, REHEARSAL.address(20 + index), cpu_quota, memory_mib)
        for index, name in enumerate(WORKER_HOSTS)
    ]
    return hosts


@contextmanager
def rehearsal_stack(
    work: Path,
    cpu_quota: float = DEFAULT_CPU_QUOTA,
    memory_mib: int = DEFAULT_WORKER_MEMORY_MIB,
    reader_processes: int = 1,
) -> Iterator[tuple[Network, Services]]:
    """The hosts and the shared services on them (no worker host started yet); all of
    it removed afterwards, whatever happened."""
    network = Network(make_hosts(cpu_quota, memory_mib))
    services = Services(work, network.hosts, reader_processes, runs=len(WORKER_HOSTS))
    try:
        services.start()
        yield network, services
    finally:
        try:
            services.stop()
        finally:
            network.destroy()

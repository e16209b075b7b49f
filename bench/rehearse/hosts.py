"""Test hosts: network namespaces joined by veth pairs to one bridge, each with cgroups
of its own (v1 `cpu`, `cpuacct`, `memory`). A worker host's CPU quota is what makes
capacity grow with hosts on a 2-core machine; `cpuacct` tells what each host burned.

Everything is named with one prefix (`Names`), so a run that died half-way is cleaned up by the next
one (`remove_stale`), besides the `try/finally` and `atexit` of the run itself.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENTER = ROOT / "scripts" / "rehearse-enter.sh"
CGROUP_ROOT = Path("/sys/fs/cgroup")
CONTROLLERS = ("cpu", "cpuacct", "memory")
CFS_PERIOD_US = 100_000
CPU_SHARES_PER_HOST = 1024
INNER_LINK = "eth0"
CUT_BAND = "1:20"


def run(*command: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, capture_output=True, text=True)
    if check and done.returncode:
        raise RuntimeError(f"{' '.join(command)} failed: {done.stderr.strip()}")
    return done


def can_make_hosts() -> str | None:
    """Why test hosts cannot be made here, or None."""
    if os.geteuid() != 0:
        return "needs root (network namespaces, cgroups)"
    if not (CGROUP_ROOT / "cpu" / "cpu.cfs_quota_us").exists():
        return "needs the cgroup v1 cpu controller at /sys/fs/cgroup/cpu"
    return None


@dataclass(frozen=True)
class Names:
    """Where a set of test hosts lives: its name prefix (namespaces, links), its /24
    network and its cgroup folder. The CI smoke test uses a set of its own, so it never
    removes a rehearsal's hosts as stale."""

    prefix: str = "dirh"
    network: str = "10.77.0"

    @property
    def bridge(self) -> str:
        return f"{self.prefix}-br"

    @property
    def bridge_address(self) -> str:
        return f"{self.network}.1"

    @property
    def cgroup_group(self) -> str:
        return f"docintake-rehearse-{self.prefix}"

    def address(self, last: int) -> str:
        return f"{self.network}.{last}"


REHEARSAL = Names()


@dataclass
class Host:
    """One test host. `cpu_quota` in CPUs (0.4: 40 ms of every 100 ms), `memory_mib` a
    hard limit; None leaves the host unlimited (the shared hosts)."""

    name: str
    address: str
    cpu_quota: float | None = None
    memory_mib: int | None = None
    names: Names = REHEARSAL

    @property
    def namespace(self) -> str:
        return f"{self.names.prefix}-{self.name}"

    @property
    def hostname(self) -> str:
        return f"host-{self.name}"

    @property
    def outer_link(self) -> str:
        return f"{self.names.prefix}-{self.name}"

    def cgroup(self, controller: str) -> Path:
        return CGROUP_ROOT / controller / self.names.cgroup_group / self.name

    def create(self) -> None:
        run("ip", "netns", "add", self.namespace)
        peer = f"{self.names.prefix}-{self.name}-in"
        run("ip", "link", "add", self.outer_link, "type", "veth", "peer", "name", peer)
        run("ip", "link", "set", peer, "netns", self.namespace)
        inside = ("ip", "-n", self.namespace)
        run(*inside, "link", "set", peer, "name", INNER_LINK)
        run(*inside, "addr", "add", f"{self.address}/24", "dev", INNER_LINK)
        run(*inside, "link", "set", INNER_LINK, "up")
        run(*inside, "link", "set", "lo", "up")
        run("ip", "link", "set", self.outer_link, "master", self.names.bridge, "up")
        self._make_cgroups()

    def _make_cgroups(self) -> None:
        for controller in CONTROLLERS:
            self.cgroup(controller).mkdir(parents=True, exist_ok=True)
        if self.cpu_quota is not None:
            cpu = self.cgroup("cpu")
            (cpu / "cpu.cfs_period_us").write_text(str(CFS_PERIOD_US))
            (cpu / "cpu.cfs_quota_us").write_text(str(int(self.cpu_quota * CFS_PERIOD_US)))
        if self.memory_mib is not None:
            limit = self.cgroup("memory") / "memory.limit_in_bytes"
            limit.write_text(str(self.memory_mib * 1024 * 1024))

    def command(self, argv: list[str]) -> list[str]:
        """`argv` run on this host: in its cgroups, namespace and hostname."""
        groups = [str(self.cgroup(controller)) for controller in CONTROLLERS]
        return [str(ENTER), self.namespace, self.hostname, *groups, "--", *argv]

    def pids(self) -> list[int]:
        return _cgroup_pids(self.cgroup("cpuacct"))

    def kill_all(self) -> list[int]:
        """SIGKILL every process of the host (the host dies), until none is left."""
        return _kill_cgroup(self.cgroup("cpuacct"))

    def cpu_seconds(self) -> float:
        """CPU time used by every process that ran on this host, children included."""
        try:
            return int((self.cgroup("cpuacct") / "cpuacct.usage").read_text()) / 1e9
        except OSError:
            return 0.0

    def cpu_seconds_by_command(self) -> dict[str, float]:
        """CPU time of the host's live processes by command name, their reaped children
        included (a Postgres backend that ended counts for the postmaster)."""
        found: dict[str, float] = {}
        for pid in self.pids():
            if (spent := process_cpu(pid)) is not None:
                command, seconds = spent
                found[command] = found.get(command, 0.0) + seconds
        return found

    def throttled_seconds(self) -> float:
        """How long the CPU quota held the host back."""
        try:
            stat = (self.cgroup("cpu") / "cpu.stat").read_text().split()
        except OSError:
            return 0.0
        values = dict(zip(stat[::2], stat[1::2], strict=True))
        return int(values.get("throttled_time", 0)) / 1e9

    def memory_peak_mib(self) -> float:
        try:
            usage = (self.cgroup("memory") / "memory.max_usage_in_bytes").read_text()
        except OSError:
            return 0.0
        return round(int(usage) / 1024 / 1024, 1)

    def cut_from(self, other: Host) -> None:
        """Drop every packet between this host and `other`, both ways, while the rest of
        the network stays up: a cable pulled between them. Connections hang, as they
        do on a real partition, instead of failing at once."""
        for link, namespace, direction in (
            (INNER_LINK, self.namespace, "dst"),
            (self.outer_link, None, "src"),
        ):
            tc = ("ip", "netns", "exec", namespace, "tc") if namespace else ("tc",)
            _drop_between(tc, link, direction, other.address)

    def heal(self) -> None:
        run(
            "ip",
            "netns",
            "exec",
            self.namespace,
            "tc",
            "qdisc",
            "del",
            "dev",
            INNER_LINK,
            "root",
            check=False,
        )
        run("tc", "qdisc", "del", "dev", self.outer_link, "root", check=False)

    def destroy(self) -> None:
        self.kill_all()
        run("ip", "netns", "del", self.namespace, check=False)
        run("ip", "link", "del", self.outer_link, check=False)
        for controller in CONTROLLERS:
            _remove_cgroup(self.cgroup(controller))


def _drop_between(tc: tuple[str, ...], link: str, direction: str, address: str) -> None:
    """On `link`'s way out, packets whose `direction` (src/dst) is `address` go to a
    blackhole qdisc, which drops them and tells nobody (this kernel has no netem or prio;
    htb, blackhole and u32 it has). Everything else passes as before."""
    run(*tc, "qdisc", "add", "dev", link, "root", "handle", "1:", "htb", "default", "10")
    for band in ("1:10", CUT_BAND):
        run(
            *tc,
            "class",
            "add",
            "dev",
            link,
            "parent",
            "1:",
            "classid",
            band,
            "htb",
            "rate",
            "10gbit",
            "quantum",
            "60000",
        )
    run(*tc, "qdisc", "add", "dev", link, "parent", CUT_BAND, "handle", "20:", "blackhole")
    run(
        *tc,
        "filter",
        "add",
        "dev",
        link,
        "parent",
        "1:",
        "protocol",
        "ip",
        "prio",
        "1",
        "u32",
        "match",
        "ip",
        direction,
        f"{address}/32",
        "flowid",
        CUT_BAND,
    )


def process_cpu(pid: int) -> tuple[str, float] | None:
    """A live process's command name and CPU seconds, its reaped children included;
    None once it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    command = stat[stat.index("(") + 1 : stat.rindex(")")]
    times = stat[stat.rindex(")") + 2 :].split()[11:15]  # utime stime cutime cstime
    return command, sum(int(t) for t in times) / os.sysconf("SC_CLK_TCK")


def _cgroup_pids(group: Path) -> list[int]:
    try:
        return [int(pid) for pid in (group / "cgroup.procs").read_text().split()]
    except OSError:
        return []


def _kill_cgroup(group: Path, rounds: int = 50) -> list[int]:
    killed: list[int] = []
    for _ in range(rounds):
        pids = _cgroup_pids(group)
        if not pids:
            break
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
        time.sleep(0.1)
    return killed


def _remove_cgroup(group: Path) -> None:
    for _ in range(50):
        try:
            group.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:  # busy: killed processes not reaped yet
            time.sleep(0.1)


class Network:
    """The bridge and the hosts on it; `destroy` (also at exit) removes all of it."""

    def __init__(self, hosts: list[Host], names: Names = REHEARSAL):
        self.hosts = {host.name: host for host in hosts}
        self.names = names
        self._destroyed = False
        remove_stale(names)
        atexit.register(self.destroy)
        try:
            run("ip", "link", "add", names.bridge, "type", "bridge")
            run("ip", "addr", "add", f"{names.bridge_address}/24", "dev", names.bridge)
            run("ip", "link", "set", names.bridge, "up")
            for host in hosts:
                host.create()
            self._weigh_hosts_as_processes()
        except BaseException:
            self.destroy()
            raise

    def _weigh_hosts_as_processes(self) -> None:
        """Each host's cgroup weighs as much as one busy process outside (1024 shares);
        their parent, which competes with the rest of the shared machine, weighs as much
        as all hosts together, not as one process."""
        parent = CGROUP_ROOT / "cpu" / self.names.cgroup_group
        (parent / "cpu.shares").write_text(str(CPU_SHARES_PER_HOST * len(self.hosts)))

    def __getitem__(self, name: str) -> Host:
        return self.hosts[name]

    def destroy(self) -> None:
        if self._destroyed:
            return
        self._destroyed = True
        for host in self.hosts.values():
            host.destroy()
        run("ip", "link", "del", self.names.bridge, check=False)
        remove_stale(self.names)


def _our_namespaces(names: Names) -> list[str]:
    lines = run("ip", "netns", "list").stdout.splitlines()
    return [line.split()[0] for line in lines if line.startswith(f"{names.prefix}-")]


def _our_links(names: Names) -> list[str]:
    found = []
    for line in run("ip", "-o", "link", "show").stdout.splitlines():
        name = line.split(":")[1].strip().split("@")[0]
        if name.startswith(f"{names.prefix}-"):
            found.append(name)
    return found


def remove_stale(names: Names = REHEARSAL) -> None:
    """Whatever an earlier run left: processes in our cgroups, namespaces, links."""
    for controller in CONTROLLERS:
        group = CGROUP_ROOT / controller / names.cgroup_group
        if group.is_dir():
            for child in group.iterdir():
                if child.is_dir():
                    _kill_cgroup(child)
                    _remove_cgroup(child)
            _remove_cgroup(group)
    for namespace in _our_namespaces(names):
        run("ip", "netns", "del", namespace, check=False)
    for link in _our_links(names):
        run("ip", "link", "del", link, check=False)


def leftovers(names: Names = REHEARSAL) -> list[str]:
    """What of ours still exists (namespaces, links, cgroups): empty after a clean run."""
    groups = [CGROUP_ROOT / controller / names.cgroup_group for controller in CONTROLLERS]
    return [
        *_our_namespaces(names),
        *_our_links(names),
        *(str(group) for group in groups if group.exists()),
    ]

"""The rehearsal's test hosts (bench/rehearse/hosts.py), as a short smoke test: two
network namespaces on a bridge reach each other over TCP, a CPU quota is set, and
nothing is left after the tear-down. Needs root; skipped otherwise."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bench.rehearse.hosts import Host, Names, Network, can_make_hosts, leftovers

SMOKE = Names(prefix="dirt", network="10.77.250")
PORT = 7411
LISTEN = (
    "import socket; s = socket.socket(); s.bind(({address!r}, {port})); s.listen(1);"
    "print('listening', flush=True); c, _ = s.accept(); c.sendall(b'pong'); c.close()"
)
CONNECT = (
    "import socket; c = socket.create_connection(({address!r}, {port}), timeout=5);"
    "print(c.recv(4).decode())"
)

pytestmark = pytest.mark.skipif(can_make_hosts() is not None, reason=str(can_make_hosts()))


def test_two_hosts_on_a_bridge_reach_each_other_and_leave_nothing_behind() -> None:
    server = Host("x", SMOKE.address(2), cpu_quota=0.4, memory_mib=256, names=SMOKE)
    client = Host("y", SMOKE.address(3), names=SMOKE)
    network = Network([server, client], SMOKE)
    try:
        listen = LISTEN.format(address=server.address, port=PORT)
        with subprocess.Popen(
            server.command([sys.executable, "-c", listen]), stdout=subprocess.PIPE, text=True
        ) as listener:
            assert listener.stdout is not None
            assert listener.stdout.readline().strip() == "listening"
            assert listener.pid in server.pids()  # the command runs in the host's cgroups
            connect = CONNECT.format(address=server.address, port=PORT)
            answer = subprocess.run(
                client.command([sys.executable, "-c", connect]),
                capture_output=True, text=True, timeout=30,
            )  # fmt: skip
            assert answer.stdout.strip() == "pong", answer.stderr
            listener.wait(timeout=10)
        quota = (server.cgroup("cpu") / "cpu.cfs_quota_us").read_text().strip()
        assert quota == "40000"
        assert client.cpu_seconds() > 0
    finally:
        network.destroy()
    assert leftovers(SMOKE) == []


def test_a_cut_host_is_unreachable_until_healed() -> None:
    server = Host("x", SMOKE.address(2), names=SMOKE)
    client = Host("y", SMOKE.address(3), names=SMOKE)
    network = Network([server, client], SMOKE)
    connect = CONNECT.format(address=server.address, port=PORT).replace("timeout=5", "timeout=2")
    try:
        client.cut_from(server)
        cut = subprocess.run(
            client.command([sys.executable, "-c", connect]), capture_output=True, text=True
        )
        assert "timed out" in cut.stderr
        client.heal()
        healed = subprocess.run(
            client.command([sys.executable, "-c", connect]), capture_output=True, text=True
        )
        assert "refused" in healed.stderr  # reached the host; nothing listens there
    finally:
        network.destroy()
    assert leftovers(SMOKE) == []

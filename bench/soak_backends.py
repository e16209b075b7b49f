"""The soak's own servers for production mode: a Postgres cluster of its own (initdb and
pg_ctl, a free loopback port, a temp dir; never the shared cluster at 5432) and
SeaweedFS, both restartable on the same ports and data for the fault schedule."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path

from sqlalchemy import create_engine, text

from testkit.seaweed import (
    ACCESS_KEY,
    SECRET_KEY,
    SeaweedServer,
    _wait_until_ready,
    free_port,
    start_seaweed,
)

POSTGRES_BIN = Path("/usr/lib/postgresql/15/bin")
POSTGRES_USER = "postgres"


def _as_cluster_owner(command: list[str]) -> list[str]:
    """Postgres refuses to run as root: as root, run its tools as the postgres user."""
    if os.geteuid() == 0:
        return ["runuser", "-u", POSTGRES_USER, "--", *command]
    return command


class PostgresCluster:
    """A throwaway cluster in `directory` (trust auth on 127.0.0.1 only)."""

    def __init__(self, directory: Path):
        self.directory = directory
        self.data = directory / "data"
        self.port = free_port()
        directory.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            # The postgres user must reach its directory through the soak's temp dir.
            directory.parent.chmod(directory.parent.stat().st_mode | 0o011)
            directory.chmod(0o700)
            os.chown(directory, *_owner_ids())
        self._pg("initdb", "-D", str(self.data), "-A", "trust", "-U", POSTGRES_USER, "--no-sync")
        self.start()

    def _pg(self, tool: str, *args: str) -> None:
        done = subprocess.run(
            _as_cluster_owner([str(POSTGRES_BIN / tool), *args]),
            capture_output=True,
            text=True,
            cwd=self.directory,
        )
        if done.returncode:
            raise RuntimeError(f"{tool} {args[:1]} failed: {done.stderr.strip()[-1000:]}")

    def _ctl(self, action: str, *args: str) -> None:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.directory} "
            "-c max_connections=300 -c fsync=off"
        )
        self._pg(
            "pg_ctl", action, "-D", str(self.data), "-w", "-t", "120",
            "-l", str(self.directory / "postgres.log"), "-o", options, *args,
        )  # fmt: skip

    def start(self) -> None:
        self._ctl("start")

    def restart(self) -> None:
        """The fault: a fast restart, which ends every connection."""
        self._ctl("restart", "-m", "fast")

    def stop(self) -> None:
        with contextlib.suppress(RuntimeError):
            self._ctl("stop", "-m", "fast")

    def postmaster_pid(self) -> int | None:
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def url(self, database: str, driver: str = "psycopg") -> str:
        return f"postgresql+{driver}://{POSTGRES_USER}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> None:
        admin = create_engine(self.url("postgres"), isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.execute(text(f"CREATE DATABASE {name}"))
        admin.dispose()


def _owner_ids() -> tuple[int, int]:
    import pwd

    entry = pwd.getpwnam(POSTGRES_USER)
    return entry.pw_uid, entry.pw_gid


class RestartableSeaweed:
    """`weed mini` as the tests start it; `outage` kills it and starts the same command
    again (same ports, same data dir) afterwards."""

    def __init__(self, directory: Path):
        self.server: SeaweedServer = start_seaweed(directory)
        self.endpoint = self.server.endpoint

    @property
    def pid(self) -> int:
        return self.server.process.pid

    def outage(self, seconds: float) -> None:
        command = [str(arg) for arg in self.server.process.args]  # type: ignore[union-attr]
        self.server.process.send_signal(signal.SIGKILL)
        self.server.process.wait()
        time.sleep(seconds)
        env = {**os.environ, "AWS_ACCESS_KEY_ID": ACCESS_KEY, "AWS_SECRET_ACCESS_KEY": SECRET_KEY}
        with open(self.server.log_path, "ab") as log:
            process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        self.server = SeaweedServer(process, self.endpoint, self.server.log_path)
        _wait_until_ready(self.server, 120)

    def stop(self) -> None:
        self.server.stop()

    def settings(self) -> dict[str, str]:
        return {
            "DOCINTAKE_S3_ENDPOINT": self.endpoint,
            "DOCINTAKE_S3_ACCESS_KEY": ACCESS_KEY,
            "DOCINTAKE_S3_SECRET_KEY": SECRET_KEY,
            "DOCINTAKE_S3_BUCKET": "docintake-soak",
        }

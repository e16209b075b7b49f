"""The services on the test hosts, each started as production starts it:

- host A: a Postgres cluster of its own (initdb, pg_ctl) and the Prefect server on it;
- host B: SeaweedFS as separate master, volume, filer and S3 gateway processes;
- host C: the API and the dispatcher (and the operator's commands: migrate, the work
  pool, `prefect deploy --all` from prefect.yaml, companies);
- host H: a second API, for uploads of one company to two API hosts at once;
- hosts D to G: a Prefect worker of the `docintake` pool each (`--limit 1`: one
  `serve-queue` run per machine), whose flow runs start their reading processes there.
"""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
import time
from pathlib import Path

import httpx2 as httpx

from bench.rehearse.hosts import Host
from bench.rehearse.pg_cost import STATEMENT_STATISTICS
from bench.soak_backends import POSTGRES_BIN, PostgresCluster, _as_cluster_owner
from bench.stack import ORCHESTRATION_NICENESS, _stop_group, _wait_http, prefect_server_settings
from testkit.seaweed import ACCESS_KEY, SECRET_KEY, weed_binary

ROOT = Path(__file__).resolve().parents[2]
POSTGRES_PORT = 5432
PREFECT_PORT = 4200
API_PORT = 8000
S3_PORT = 8333
WEED_PORTS = {"master": 9333, "volume": 8080, "filer": 8888}
BUCKET = "docintake-rehearsal"
ZOMBIE_RUNS = Path(__file__).parent / "zombie-runs.yaml"
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
PHONE_HOME_OFF = {
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    "PREFECT_SERVER_UI_SHOW_PROMOTIONAL_CONTENT": "false",
    "DO_NOT_TRACK": "1",
}


class HostPostgres(PostgresCluster):
    """The soak's throwaway cluster, run on host A and listening on its address."""

    def __init__(self, directory: Path, host: Host):
        self.host = host
        super().__init__(directory)
        self.port = POSTGRES_PORT

    def start(self) -> None:
        """initdb trusts loopback only: the test network is trusted too."""
        hba = self.data / "pg_hba.conf"
        line = f"host all all {self.host.address.rsplit('.', 1)[0]}.0/24 trust\n"
        if line not in hba.read_text():
            with hba.open("a") as conf:
                conf.write(line)
        super().start()

    def _ctl(self, action: str, *args: str) -> None:
        options = (
            f"-p {POSTGRES_PORT} -c listen_addresses={self.host.address} -k {self.directory} "
            f"-c max_connections=400 -c fsync=off {STATEMENT_STATISTICS}"
        )
        pg_ctl = [
            str(POSTGRES_BIN / "pg_ctl"),
            action,
            "-D",
            str(self.data),
            "-w",
            "-t",
            "120",
            "-l",
            str(self.directory / "postgres.log"),
            "-o",
            options,
            *args,
        ]
        done = subprocess.run(
            self.host.command(_as_cluster_owner(pg_ctl)),
            capture_output=True,
            text=True,
            cwd=self.directory,
        )
        if done.returncode:
            raise RuntimeError(f"pg_ctl {action} failed: {done.stderr.strip()[-1000:]}")

    def url(self, database: str, driver: str = "psycopg") -> str:
        return f"postgresql+{driver}://postgres@{self.host.address}:{POSTGRES_PORT}/{database}"


def _s3_config(path: Path) -> Path:
    identity = {
        "name": "docintake",
        "credentials": [{"accessKey": ACCESS_KEY, "secretKey": SECRET_KEY}],
        "actions": ["Admin", "Read", "Write", "List", "Tagging"],
    }
    path.write_text(json.dumps({"identities": [identity]}))
    return path


def seaweed_commands(host: Host, directory: Path) -> dict[str, list[str]]:
    """master, volume, filer and S3 gateway of one SeaweedFS cluster, telemetry off."""
    weed, ip = weed_binary(), host.address
    master = f"{ip}:{WEED_PORTS['master']}"
    for part in ("master", "volume", "filer"):
        (directory / part).mkdir(parents=True, exist_ok=True)
    bind = [f"-ip={ip}", f"-ip.bind={ip}"]
    return {
        "weed-master": [
            weed,
            "master",
            *bind,
            f"-port={WEED_PORTS['master']}",
            f"-mdir={directory / 'master'}",
            "-telemetry=false",
            "-volumeSizeLimitMB=256",
            "-defaultReplication=000",
        ],
        "weed-volume": [
            weed,
            "volume",
            *bind,
            f"-port={WEED_PORTS['volume']}",
            f"-dir={directory / 'volume'}",
            f"-master={master}",
            "-max=200",
        ],
        "weed-filer": [
            weed,
            "filer",
            *bind,
            f"-port={WEED_PORTS['filer']}",
            f"-master={master}",
            f"-defaultStoreDir={directory / 'filer'}",
        ],
        "weed-s3": [
            weed,
            "s3",
            f"-ip.bind={ip}",
            f"-port={S3_PORT}",
            f"-filer={ip}:{WEED_PORTS['filer']}",
            f"-config={_s3_config(directory / 's3.json')}",
        ],
    }


class Services:
    """Every process of the rehearsal, by host; `stop` ends them all."""

    def __init__(self, work: Path, hosts: dict[str, Host], reader_processes: int, runs: int):
        self.work = work
        self.hosts = hosts
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        a, b = hosts["a"], hosts["b"]
        self.postgres: HostPostgres | None = None
        self.prefect_url = f"http://{a.address}:{PREFECT_PORT}/api"
        self.env = {
            "PATH": f"{Path(sys.executable).parent}:{SYSTEM_PATH}",
            "HOME": str(work),
            **PHONE_HOME_OFF,
            **prefect_server_settings(),
            "PREFECT_API_URL": self.prefect_url,
            # As scripts/run-workers.sh: each poll costs the Prefect server 30-40 ms of
            # CPU, so at 1 s four worker hosts kept a sixth of a CPU of host A busy.
            "PREFECT_WORKER_QUERY_SECONDS": "3",
            # Flow runs say they are alive, so a dead machine's run is marked crashed
            # (zombie-runs.yaml) and the machine gets a run again when it comes back.
            "PREFECT_FLOWS_HEARTBEAT_FREQUENCY": "30",
            "DOCINTAKE_HOME": str(ROOT),
            "DOCINTAKE_ENVIRONMENT": "production",
            "DOCINTAKE_SECRET_KEY": secrets.token_urlsafe(48),
            "DOCINTAKE_PUBLIC_BASE_URL": "https://docintake.rehearsal.invalid",
            "DOCINTAKE_DATABASE_URL": f"postgresql+psycopg://postgres@{a.address}:"
            f"{POSTGRES_PORT}/docintake",
            "DOCINTAKE_S3_ENDPOINT": f"{b.address}:{S3_PORT}",
            "DOCINTAKE_S3_ACCESS_KEY": ACCESS_KEY,
            "DOCINTAKE_S3_SECRET_KEY": SECRET_KEY,
            "DOCINTAKE_S3_BUCKET": BUCKET,
            "DOCINTAKE_RATE_LIMIT_PER_SECOND": "100000",
            "DOCINTAKE_RATE_LIMIT_BURST": "100000",
            "DOCINTAKE_WORKER_PROCESSES": str(reader_processes),
            "DOCINTAKE_PIPELINE_RUNS": str(runs),
        }

    @property
    def database_url(self) -> str:
        return self.env["DOCINTAKE_DATABASE_URL"]

    def api_url(self, host: str = "c") -> str:
        return f"http://{self.hosts[host].address}:{API_PORT}"

    def _env_for(self, host: str) -> dict[str, str]:
        return {
            **self.env,
            "PREFECT_HOME": str(self.work / f"prefect-{host}"),
            "DOCINTAKE_VAR_DIR": str(self.work / f"var-{host}"),
        }

    def spawn(self, host: str, name: str, argv: list[str]) -> subprocess.Popen[bytes]:
        (self.work / "logs").mkdir(exist_ok=True)
        with open(self.work / "logs" / f"{host}-{name}.log", "ab") as log:
            process = subprocess.Popen(
                self.hosts[host].command(argv),
                env=self._env_for(host),
                cwd=ROOT,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.processes[f"{host}/{name}"] = process
        return process

    def on_host(self, host: str, argv: list[str]) -> str:
        """An operator's command on `host`, to its end; its output."""
        done = subprocess.run(
            self.hosts[host].command(argv),
            env=self._env_for(host),
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=600,
        )
        if done.returncode:
            raise RuntimeError(f"{argv[:4]} on host {host}: {done.stderr.strip()[-2000:]}")
        return done.stdout

    def start(self) -> None:
        """Backends, then the Prefect server, the deployments, the API and dispatcher."""
        self.postgres = HostPostgres(self.work / "postgres", self.hosts["a"])
        for database in ("docintake", "prefect"):
            self.postgres.create_database(database)
        self.env["PREFECT_API_DATABASE_CONNECTION_URL"] = self.postgres.url(
            "prefect", driver="asyncpg"
        )
        for name, argv in seaweed_commands(self.hosts["b"], self.work / "seaweed").items():
            self.spawn("b", name, argv)
        self.s3_ready()
        self.start_prefect_server()
        self.on_host("c", [sys.executable, "-m", "api.cli", "migrate"])
        self._deploy()
        self.start_api("c")
        self.spawn("c", "dispatcher", [sys.executable, "-m", "api.cli", "dispatch"])

    def start_prefect_server(self) -> None:
        argv = [
            *ORCHESTRATION_NICENESS,
            sys.executable,
            "-m",
            "prefect",
            "server",
            "start",
            "--host",
            self.hosts["a"].address,
            "--port",
            str(PREFECT_PORT),
        ]
        process = self.spawn("a", "prefect-server", argv)
        _wait_http(f"{self.prefect_url}/health", 180, process)

    def stop_prefect_server(self) -> None:
        _stop_group(self.processes.pop("a/prefect-server"))

    def _deploy(self) -> None:
        """As `make run` does: the work pool and every deployment of prefect.yaml; and
        the automation that marks a dead machine's flow runs crashed."""
        prefect = [sys.executable, "-m", "prefect", "--no-prompt"]
        self.on_host(
            "c", [*prefect, "work-pool", "create", "docintake", "--type", "process", "--overwrite"]
        )
        self.on_host("c", [*prefect, "deploy", "--all"])
        self.on_host("c", [*prefect, "automation", "create", "--from-file", str(ZOMBIE_RUNS)])

    def start_api(self, host: str) -> None:
        argv = [
            sys.executable,
            "-m",
            "api.cli",
            "serve",
            "--host",
            self.hosts[host].address,
            "--port",
            str(API_PORT),
        ]
        process = self.spawn(host, "api", argv)
        _wait_http(f"{self.api_url(host)}/healthz", 300, process)

    def start_worker(self, host: str) -> None:
        """A worker machine's service: the Prefect worker of the `docintake` pool."""
        argv = [
            sys.executable,
            "-m",
            "prefect",
            "worker",
            "start",
            "--pool",
            "docintake",
            "--type",
            "process",
            "--limit",
            "1",
            "--name",
            f"worker-{host}",
        ]
        self.spawn(host, "prefect-worker", argv)

    def forget_host(self, host: str) -> None:
        """The host's processes are gone (killed with it): drop their handles."""
        for key in [key for key in self.processes if key.startswith(f"{host}/")]:
            process = self.processes.pop(key)
            process.wait()

    def company_key(self, name: str) -> str:
        out = self.on_host(
            "c", [sys.executable, "-m", "api.cli", "company", "create", "--name", name, "--json"]
        )
        return str(json.loads(out.strip().splitlines()[-1])["apiKey"])

    def s3_ready(self, timeout: float = 120) -> None:
        """The gateway answers (403 without credentials is an answer)."""
        deadline = time.monotonic() + timeout
        url = f"http://{self.env['DOCINTAKE_S3_ENDPOINT']}/"
        while time.monotonic() < deadline:
            try:
                httpx.get(url, timeout=2)
                return
            except httpx.HTTPError:
                time.sleep(0.5)
        raise RuntimeError(f"the S3 gateway did not answer in {timeout} s")

    def stop(self) -> None:
        """Workers first, then the API and dispatcher, the Prefect server, SeaweedFS and
        Postgres; whatever is left on a host is killed with it."""
        for prefix in ("d/", "e/", "f/", "g/", "c/", "h/", "a/", "b/"):
            # In reverse start order: SeaweedFS's gateway and filer before its master.
            for key in reversed([key for key in self.processes if key.startswith(prefix)]):
                _stop_group(self.processes.pop(key))
        if self.postgres:
            self.postgres.stop()
        for host in self.hosts.values():
            host.kill_all()

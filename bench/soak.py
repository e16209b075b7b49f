"""`make soak`: the real stack under mixed load with faults on a schedule.

    python -m bench.soak --mode embedded|production --seconds N

Starts the stack as production does (the API, the dispatcher, a Prefect worker of pool
`docintake` running `serve-queue` flow runs of prefect.yaml), in `embedded` mode on
`make run`'s defaults (SQLite, local objects, Prefect on SQLite) or in `production`
mode on a Postgres cluster of its own, SeaweedFS and Prefect on that Postgres. Then
batches, single uploads and polling at 200 requests/s for N seconds while the faults of
bench/soak_faults.py happen; then waits (bounded) for every accepted upload to be
terminal and writes the verdict to bench/results/soak.json. Exit status 1 when a
must-hold value is violated. See docs/soak.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import secrets
import signal
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx2 as httpx

from bench.soak_backends import PostgresCluster, RestartableSeaweed
from bench.soak_bombs import hostile_files
from bench.soak_faults import SCHEDULE, Faults, outage_seconds
from bench.soak_load import Load
from bench.soak_mail import MailLoad, mail_batches, mail_verdict
from bench.soak_procs import MemorySampler
from bench.soak_report import ClientRecord, settle, verdict
from bench.soak_requests import SETTINGS as REQUEST_SETTINGS
from bench.stack import Stack
from storage.db import make_engine
from testkit.samples import blank_pdf

RESULTS = Path(__file__).parent / "results" / "soak.json"
COMPANIES = 4


# Nothing became terminal for this long: stuck. Longer than a lease (30 s) expiring
# twice plus a new `serve-queue` run starting and warming up on a busy machine.
SETTLE_STALL_SECONDS = 150.0


def _settle_limit(load_seconds: float) -> float:
    """A backlog that keeps falling is waited for, up to twice the load time."""
    return max(300.0, 2 * load_seconds)


def _production_backends(work: Path, stack: ExitStack) -> tuple[str, str, dict[str, str], Any]:
    postgres = PostgresCluster(work / "postgres")
    stack.callback(postgres.stop)
    for database in ("docintake", "prefect"):
        postgres.create_database(database)
    seaweed = RestartableSeaweed(work / "seaweed")
    stack.callback(seaweed.stop)
    settings = {
        **seaweed.settings(),
        "DOCINTAKE_ENVIRONMENT": "production",
        "DOCINTAKE_SECRET_KEY": secrets.token_urlsafe(48),
        "DOCINTAKE_PUBLIC_BASE_URL": "https://docintake.soak.invalid",
    }
    return (
        postgres.url("docintake"),
        postgres.url("prefect", driver="asyncpg"),
        settings,
        (postgres, seaweed),
    )


def _warm_pipeline(stack: Stack, key: str, timeout: float = 300) -> float:
    """One upload before the clock starts, so the load meets a `serve-queue` run with
    its reading processes up (as a busy service has) and the first kills find them."""
    started = time.monotonic()
    headers = {"Authorization": f"Bearer {key}"}
    with httpx.Client(base_url=stack.api_url, headers=headers, timeout=60) as client:
        upload = client.post("/v1/uploads", files={"file": ("warm.pdf", blank_pdf("warm"))})
        url = f"/v1/uploads/{upload.json()['id']}"
        while client.get(url).json()["status"] in ("queued", "processing"):
            if time.monotonic() - started > timeout:
                raise RuntimeError(f"the pipeline read nothing in {timeout} s")
            time.sleep(0.5)
    return time.monotonic() - started


def _roots(stack: Stack, postgres: PostgresCluster | None, seaweed: Any) -> dict[str, list[int]]:
    roots = {
        "api": [stack.api.pid],
        "prefect-server": [stack.prefect.pid],
        "prefect-worker": [stack.worker.pid],
        "dispatcher": [stack.dispatcher.pid],
        "mail": [stack.mail.pid],
    }
    if postgres and (postmaster := postgres.postmaster_pid()):
        roots["postgres"] = [postmaster]
    if seaweed:
        roots["weed"] = [seaweed.pid]
    return roots


def _work_dir(mode: str, keep: bool, exits: ExitStack) -> Path:
    """A temp dir for everything the soak starts; kept for a post-mortem with --keep."""
    if keep:
        return Path(tempfile.mkdtemp(prefix=f"docintake-soak-{mode}-"))
    return Path(exits.enter_context(tempfile.TemporaryDirectory(prefix=f"docintake-soak-{mode}-")))


def soak(mode: str, load_seconds: float, keep: bool = False) -> dict[str, Any]:
    with ExitStack() as exits:
        work = _work_dir(mode, keep, exits)
        (work / "var").mkdir()
        postgres = seaweed = None
        started = time.time()
        if mode == "production":
            database_url, prefect_url, settings, (postgres, seaweed) = _production_backends(
                work, exits
            )
        else:
            database_url, prefect_url, settings = f"sqlite:///{work / 'var/docintake.db'}", None, {}
        stack = Stack(work, database_url, {**settings, **REQUEST_SETTINGS}, prefect_url)
        exits.callback(stack.stop)
        companies = [stack.company(f"Soak company {n}") for n in range(COMPANIES)]
        keys = [key for key, _ in companies]
        hostile = hostile_files()
        warm_up = _warm_pipeline(stack, keys[0])
        start_up = time.time() - started
        sampler = MemorySampler(lambda: _roots(stack, postgres, seaweed))
        sampler.start()
        exits.callback(sampler.stop)
        (work / "clients").mkdir()
        load = Load(stack.api_url, keys, work / "clients")
        exits.callback(load.finish)
        mail = MailLoad(stack.mail_port, [address for _, address in companies])
        faults = Faults(stack, load, hostile, load_seconds, postgres, seaweed)
        load_started = time.time()
        load.start()
        mail.start()
        faults.start(load_started)
        time.sleep(load_seconds)
        faults.join()  # an outage in progress ends before the load stops
        load.finish()
        mail.finish()
        load_took = time.time() - load_started
        engine = make_engine(database_url)
        record = ClientRecord.read(work / "clients")
        # The mail's batches are waited for and checked like the API's batches.
        mailed = mail_batches(engine, mail)
        record.batches |= {batch for batches in mailed.values() for batch in batches}
        settled = settle(engine, record, SETTLE_STALL_SECONDS, _settle_limit(load_seconds))
        result = verdict(engine, record, load_took)
        result["violations"] += [v for fault in faults.done for v in fault.get("violations", [])]
        result["mail"] = mail_verdict(mail, mailed)
        result["violations"] += result["mail"]["violations"]
        engine.dispose()
        sampler.stop()
        return {
            "mode": mode,
            "database": "postgres (own cluster)" if postgres else "sqlite",
            "object_store": "s3 (SeaweedFS)" if seaweed else "local directory",
            "prefect_server_database": "postgres" if postgres else "sqlite",
            "load_seconds": round(load_took, 1),
            "start_up_seconds": round(start_up, 1),
            "of_which_first_upload_read_s": round(warm_up, 1),
            "outage_seconds": outage_seconds(load_seconds),
            "schedule": [{"at_fraction": f, "fault": name} for f, name in SCHEDULE],
            "faults": faults.done,
            "settle": settled,
            **result,
            "peak_memory": sampler.report(),
            "ok": not result["violations"],
            "kept_work_dir": str(work) if keep else None,
        }


def _write(mode: str, result: dict[str, Any], started: float) -> None:
    """bench/results/soak.json, one entry per mode, in the format of `make bench`."""
    RESULTS.parent.mkdir(exist_ok=True)
    existing = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    modes = existing.get("results", {}) if existing.get("benchmark") == "soak" else {}
    result["wall_seconds"] = round(time.time() - started, 1)
    modes[mode] = result
    document = {
        "benchmark": "soak",
        "started_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
        "results": modes,
        "wall_seconds": round(time.time() - started, 1),
    }
    RESULTS.write_text(json.dumps(document, indent=2) + "\n")


def _stop_on_sigterm() -> None:
    """SIGTERM (make, CI) unwinds like Ctrl-C, so everything started is stopped."""

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.soak")
    parser.add_argument("--mode", choices=("embedded", "production"), default="embedded")
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--keep", action="store_true", help="keep the logs and databases")
    args = parser.parse_args(argv)
    _stop_on_sigterm()
    started = time.time()
    result = soak(args.mode, args.seconds, args.keep)
    _write(args.mode, result, started)
    print(json.dumps(result, indent=2))
    for problem in result["violations"]:
        print(f"soak {args.mode}: {problem}", file=sys.stderr)
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""Pipeline processes started by tests: the environment that points them at the test's
database, object store and Prefect server."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path

from sqlalchemy import Engine

from flows.work import WorkerEnv
from storage.objectstore import LocalDirStore, S3Store
from testkit.seaweed import ACCESS_KEY, SECRET_KEY

ROOT = Path(__file__).resolve().parents[2]


def worker_environment(env: WorkerEnv, engine: Engine, prefect_url: str) -> dict[str, str]:
    variables = {
        **os.environ,
        "PREFECT_API_URL": prefect_url,
        "DOCINTAKE_DATABASE_URL": engine.url.render_as_string(hide_password=False),
        "DOCINTAKE_LEASE_SECONDS": "3",
        "DOCINTAKE_MAX_ARCHIVE_FILES": str(env.settings.max_archive_files),
        "DOCINTAKE_MAX_FILE_BYTES": str(env.settings.max_file_bytes),
        "DOCINTAKE_MAX_ARCHIVE_BYTES": str(env.settings.max_archive_bytes),
        "DOCINTAKE_TABLES_EXPORT_INTERVAL_SECONDS": str(
            env.settings.tables_export_interval_seconds
        ),
    }
    if isinstance(env.store, LocalDirStore):
        variables["DOCINTAKE_VAR_DIR"] = str(env.store.root.parent)
        assert env.store.root.name == "objects"
    else:
        assert isinstance(env.store, S3Store)
        endpoint = env.store._client._base_url.host
        variables |= {
            "DOCINTAKE_S3_ENDPOINT": endpoint,
            "DOCINTAKE_S3_BUCKET": env.store.bucket,
            "DOCINTAKE_S3_ACCESS_KEY": ACCESS_KEY,
            "DOCINTAKE_S3_SECRET_KEY": SECRET_KEY,
        }
    return variables


def python_output(code: str, own_session: bool = False) -> str:
    """What `code` prints when run by a fresh interpreter (a fresh forkserver, say)."""
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        start_new_session=own_session,
    ).stdout


def descendants(pid: int) -> list[int]:
    """Children, grandchildren, ... of `pid` (a Prefect worker starts each flow run in a
    session of its own, so killing the worker's process group does not reach them)."""
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    children = [int(line) for line in found.split()]
    return children + [grandchild for child in children for grandchild in descendants(child)]


def kill_tree(pid: int) -> None:
    for process in [*descendants(pid), pid]:
        with contextlib.suppress(ProcessLookupError):
            os.kill(process, signal.SIGKILL)

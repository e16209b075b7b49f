"""Pipeline processes started by tests: the environment that points them at the test's
database, object store and Prefect server."""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy import Engine

from flows.work import WorkerEnv
from storage.objectstore import LocalDirStore, S3Store
from tests.support.seaweed import ACCESS_KEY, SECRET_KEY

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

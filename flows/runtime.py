"""The worker environment a process's flows share, built once per process."""

from __future__ import annotations

import os
import socket
import threading
import uuid
from datetime import timedelta

from flows.executor import DocumentExecutor
from flows.reader_process import ReaderLimits
from flows.work import WorkerEnv
from storage.db import Database, make_engine
from storage.objectstore import build_object_store
from storage.settings import Settings, get_settings

_env: WorkerEnv | None = None
_lock = threading.Lock()


def build_env(settings: Settings, processes: int | None = None) -> WorkerEnv:
    settings.var_dir.mkdir(parents=True, exist_ok=True)
    limits = ReaderLimits(
        time_limit=settings.document_time_limit_seconds,
        cpu_seconds=settings.reader_cpu_seconds,
        memory_bytes=settings.reader_memory_mib * 1024 * 1024,
    )
    executor = DocumentExecutor(
        processes or settings.worker_processes or None,
        limits=limits,
        compile_rules=settings.reader_warm_up,
    )
    return WorkerEnv(
        settings=settings,
        db=Database(make_engine(settings.effective_database_url)),
        store=build_object_store(settings, create_bucket=False),
        executor=executor,
        owner=f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}",
        lease=timedelta(seconds=settings.lease_seconds),
    )


def install(env: WorkerEnv) -> None:
    global _env
    with _lock:
        _env = env


def current() -> WorkerEnv:
    """The installed environment, or one built from the settings (a flow run started
    by a Prefect worker from a deployment runs in a fresh process)."""
    global _env
    with _lock:
        if _env is None:
            _env = build_env(get_settings())
        return _env

"""The client against the real server: uvicorn on a free port and a worker thread, over
the pipeline fixtures (tests/support/pipeline.py)."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from api.app import create_app
from api.deps import Services
from flows.work import WorkerEnv
from flows.worker import Worker
from tests.client.support import Stack
from tests.conftest import Tenant
from tests.support.live import serve


@pytest.fixture
def stack(env: WorkerEnv, company: Tenant) -> Iterator[Stack]:
    services = Services(settings=env.settings, db=env.db, store=env.store)
    worker = Worker(env)
    thread = threading.Thread(target=worker.run, daemon=True)
    thread.start()
    try:
        with serve(create_app(services)) as base_url:
            yield Stack(base_url, services, company, env)
    finally:
        worker.stop.set()
        thread.join(timeout=30)

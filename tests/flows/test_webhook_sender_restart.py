"""`docintake webhooks` killed with SIGKILL while its deliveries are on the wire: after a
restart every event is delivered, with the same `webhook-id`, and none is lost; each
signed with the secret sealed in the database, opened by each new process with the key
from its environment."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine
from standardwebhooks import Webhook

from storage.db import Database
from storage.settings import Settings
from testkit.webhook_receiver import new_receiver, receiving
from tests.conftest import make_tenant
from tests.flows.test_webhook_sender import (
    delivered,
    deliveries,
    endpoint,
    failed_upload,
    wait_for,
)

ROOT = Path(__file__).resolve().parents[2]
EVENTS = 5
SECRET_KEY = "restart-test-key-" + "k" * 32


@contextmanager
def sender_process(engine: Engine, var_dir: Path) -> Iterator[subprocess.Popen[bytes]]:
    env = {
        **os.environ,
        "DOCINTAKE_ENVIRONMENT": "test",
        "DOCINTAKE_VAR_DIR": str(var_dir),
        "DOCINTAKE_DATABASE_URL": engine.url.render_as_string(hide_password=False),
        "DOCINTAKE_SECRET_KEY": SECRET_KEY,
        "DOCINTAKE_WEBHOOK_TIMEOUT_SECONDS": "2",
        "DOCINTAKE_WEBHOOK_ENDPOINT_CONCURRENCY": str(EVENTS),  # all of them on the wire
        "DOCINTAKE_WEBHOOK_RETRY_BASE_SECONDS": "0.2",
        "DOCINTAKE_WEBHOOK_RETRY_MAX_SECONDS": "1",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "webhooks"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=30)


def test_a_sender_killed_mid_delivery_delivers_everything_after_a_restart(
    fresh_engine: Engine, tmp_path: Path
) -> None:
    db = Database(fresh_engine)
    tenant = make_tenant(db)
    receiver = new_receiver(204)
    receiver.gate.clear()  # every request waits: the deliveries stay on the wire
    secret = endpoint(db, tenant, receiver.url, Settings(secret_key=SECRET_KEY))
    for _ in range(EVENTS):
        failed_upload(db, tenant)
    with receiving(receiver):
        with sender_process(fresh_engine, tmp_path / "var") as first:
            wait_for(lambda: len(receiver.requests()) == EVENTS, 300)
            first.kill()
            first.wait(timeout=30)
        assert not any(row.delivered_at for row in deliveries(db))
        receiver.gate.set()
        with sender_process(fresh_engine, tmp_path / "var"):
            # Claims of the killed sender come back when their lease ends (2 s + 20 s).
            wait_for(delivered(db, EVENTS), 300)

    rows = deliveries(db)
    assert len(rows) == EVENTS and all(row.attempts == 2 for row in rows)
    received = [request.message_id for request in receiver.requests()]
    assert sorted(received) == sorted(2 * [row.message_id for row in rows])
    for request in receiver.requests():
        Webhook(secret).verify(request.body, request.headers)

"""The dispatcher hears of new uploads and batches (storage/work_news.py): it steps at
once on such news and otherwise polls only every `ANNOUNCED_POLL_SECONDS`; news for the
webhook sender does not wake it; a stop ends its sleep within a second."""

from __future__ import annotations

import threading
import time

import pytest
from sqlalchemy import Engine

from flows import dispatch
from flows.dispatch import Dispatcher, DispatchPolicy
from flows.wakeup import NewsWatch
from storage.db import Database
from storage.work_news import BATCH, SINGLE, WEBHOOK
from tests.flows.test_webhook_sender import wait_for
from tests.storage.test_work_news import _announce


def test_news_of_new_work_starts_a_step_at_once(
    listening_engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    steps: list[float] = []
    monkeypatch.setattr(Dispatcher, "step", lambda _self, _client: steps.append(0.0) or False)
    monkeypatch.setattr(dispatch, "ANNOUNCED_POLL_SECONDS", 60.0)
    dispatcher = Dispatcher(Database(listening_engine), DispatchPolicy(runs=1))
    with NewsWatch(listening_engine, (SINGLE, BATCH)) as news:
        assert news.listener is not None and news.listener.listening.wait(10)
        loop = threading.Thread(target=dispatcher._loop, args=(None, news), daemon=True)
        loop.start()
        wait_for(lambda: len(steps) == 1, 10.0)
        time.sleep(1.0)  # twice POLL_SECONDS: no poll while news is heard
        assert len(steps) == 1
        _announce(listening_engine, commit=True, kind=WEBHOOK)
        time.sleep(0.5)
        assert len(steps) == 1, "news for the webhook sender does not wake the dispatcher"
        _announce(listening_engine, commit=True, kind=BATCH)
        wait_for(lambda: len(steps) == 2, 5.0)
        stopped = time.monotonic()
        dispatcher.stop.set()
        loop.join(timeout=10)
        assert not loop.is_alive() and time.monotonic() - stopped < 3.0

"""Fixtures of the web application's tests.

Route tests: `account` (a company of the `tenant` kind plus a web user) and `web_client`
(a TestClient signed in through the login form), on both backends, rolled back.

Browser tests: `live` (a real uvicorn serving the real app on a SQLite database that
commits, one per test module), `browser` (Debian's Chromium via Playwright, one per
session), `page` (a fresh browser context on the live server), `live_account` and
`signed_in_page` (logged in through the form). tests.web.support.screenshot(page, name)
keeps test-artifacts/screenshots/<name>.png."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, Page, sync_playwright

from api.app import create_app
from api.deps import Services
from storage.db import Database
from storage.objectstore import LocalDirStore
from storage.settings import Environment, Settings
from testkit.databases import migrated_sqlite
from testkit.seaweed import free_port
from tests.web.support import Account, log_in, make_account

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(autouse=True)
def _english_client(request: pytest.FixtureRequest) -> None:
    """Route tests read the pages shown before signing in in English, as a browser set
    to English asks for them (test_languages.py asks otherwise)."""
    if "client" in request.fixturenames:
        request.getfixturevalue("client").headers["Accept-Language"] = "en"


@pytest.fixture
def account(database: Database) -> Account:
    return make_account(database)


@pytest.fixture
def other_account(database: Database) -> Account:
    return make_account(database, "Other AG")


@pytest.fixture
def web_client(client: TestClient, account: Account) -> TestClient:
    response = log_in(client, account.email)
    assert response.status_code == 303, response.text
    return client


@dataclass(frozen=True)
class LiveServer:
    url: str
    services: Services

    @property
    def database(self) -> Database:
        return self.services.db


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("live")) as server:
        yield server


@contextmanager
def live_server(directory: Path) -> Iterator[LiveServer]:
    """The real app in uvicorn on a SQLite database in `directory` (also what
    tests/web/webapp_screenshots.py serves its pictures from)."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    settings = Settings(
        environment=Environment.TEST,
        var_dir=directory / "var",
        public_base_url=url,
        rate_limit_per_second=1000,
        rate_limit_burst=1000,
    )
    with migrated_sqlite(directory) as engine:
        services = Services(
            settings=settings, db=Database(engine), store=LocalDirStore(directory / "objects")
        )
        with _uvicorn(create_app(services), port):
            yield LiveServer(url, services)


class _uvicorn:
    """uvicorn in a thread on a port chosen beforehand (result URLs must name it)."""

    def __init__(self, app: Any, port: int) -> None:
        config = uvicorn.Config(
            app, host="127.0.0.1", port=port, log_level="warning", lifespan="off"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)

    def __exit__(self, *_: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


# Module scope, not session: Playwright's sync API keeps an event loop running in the
# main thread while it is open, and Prefect's sync calls (`state.result()`, flows called
# from a test) then hand back coroutines in whatever test runs next in this process.
@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.skip("Chromium is not installed (make test installs it)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Browser, live: LiveServer) -> Iterator[Page]:
    context = browser.new_context(base_url=live.url, locale="en-GB")
    context.set_default_timeout(15_000)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def live_account(live: LiveServer) -> Account:
    return make_account(live.database)


@pytest.fixture
def signed_in_page(page: Page, live_account: Account) -> Page:
    page.goto("/app/login")
    page.get_by_label("E-mail").fill(live_account.email)
    page.get_by_label("Password").fill(live_account.password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/app/uploads**")
    return page

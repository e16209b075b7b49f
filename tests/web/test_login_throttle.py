"""Login throttling: a guesser stops only itself, an e-mail under attack from many
addresses is paced for unknown devices only, and parallel guesses cannot get past the
limits (real concurrent requests through a real uvicorn, on both backends)."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from threading import Barrier

import httpx2 as httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, func, select

from api.app import create_app
from api.deps import Services
from api.web import login_throttle
from api.web.login_throttle import DEVICE_COOKIE, UNDER_ATTACK_CLIENTS
from storage.db import Database
from storage.models import LoginAttempt, utcnow
from storage.objectstore import ObjectStore
from storage.settings import Settings
from tests.support.live import serve
from tests.web.support import Account, csrf_in, log_in, make_account

ATTACKER = "203.0.113.66"
VICTIM = "198.51.100.10"
# The pace, stretched from 5 s so that a slow machine cannot outrun it between the
# recorded attack and the login that must be paced.
PACE_SECONDS = 120.0


@pytest.fixture(autouse=True)
def _long_pace(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(login_throttle, "PACE_SECONDS", PACE_SECONDS)


def client_at(services: Services, address: str) -> TestClient:
    return TestClient(
        create_app(services), client=(address, 50000), headers={"Accept-Language": "en"}
    )


@pytest.fixture
def attacker(services: Services) -> Iterator[TestClient]:
    with client_at(services, ATTACKER) as client:
        yield client


@pytest.fixture
def victim(services: Services) -> Iterator[TestClient]:
    with client_at(services, VICTIM) as client:
        yield client


def test_a_guesser_locks_only_itself_out(
    attacker: TestClient, victim: TestClient, account: Account
) -> None:
    for _ in range(5):
        assert log_in(attacker, account.email, password="wrong").status_code == 401
    refused = log_in(attacker, account.email)  # even with the right password
    assert refused.status_code == 429
    assert 0 < int(refused.headers["retry-after"]) <= 15 * 60

    assert log_in(victim, account.email).status_code == 303


def test_a_client_locked_for_one_email_may_still_try_another(
    attacker: TestClient, database: Database, account: Account
) -> None:
    other = make_account(database, "Other AG")
    for _ in range(5):
        log_in(attacker, account.email, password="wrong")
    assert log_in(attacker, account.email).status_code == 429
    assert log_in(attacker, other.email).status_code == 303


def _failures_from_many_clients(database: Database, email: str, clients: int) -> None:
    """What an attack from `clients` addresses, five guesses each, leaves behind."""
    at = utcnow() - timedelta(seconds=PACE_SECONDS / 2)
    with database.session() as session:
        for index in range(clients):
            for _ in range(5):
                session.add(
                    LoginAttempt(email=email, client=f"192.0.2.{index}", succeeded=False, at=at)
                )
        session.commit()


def test_an_email_under_attack_is_paced_for_unknown_devices_not_locked(
    victim: TestClient, database: Database, account: Account
) -> None:
    _failures_from_many_clients(database, account.email, UNDER_ATTACK_CLIENTS)

    paced = log_in(victim, account.email)
    assert paced.status_code == 429
    assert 1 <= int(paced.headers["retry-after"]) <= PACE_SECONDS
    assert "seconds" in paced.text


def test_a_known_device_is_not_paced(
    services: Services, database: Database, account: Account
) -> None:
    with client_at(services, VICTIM) as laptop:
        assert log_in(laptop, account.email).status_code == 303
        device = laptop.cookies[DEVICE_COOKIE]
    _failures_from_many_clients(database, account.email, UNDER_ATTACK_CLIENTS + 2)

    with client_at(services, VICTIM) as same_laptop:
        same_laptop.cookies.set(DEVICE_COOKIE, device, path="/app/login")
        assert log_in(same_laptop, account.email).status_code == 303


def test_below_the_attack_threshold_nobody_is_paced(
    victim: TestClient, database: Database, account: Account
) -> None:
    _failures_from_many_clients(database, account.email, UNDER_ATTACK_CLIENTS - 1)
    assert log_in(victim, account.email).status_code == 303


def test_a_device_cookie_counts_only_for_its_own_email(
    services: Services, database: Database, account: Account
) -> None:
    other = make_account(database, "Other AG")
    with client_at(services, VICTIM) as laptop:
        assert log_in(laptop, other.email).status_code == 303
        device = laptop.cookies[DEVICE_COOKIE]
    _failures_from_many_clients(database, account.email, UNDER_ATTACK_CLIENTS)

    for cookie in (device, "x" * 22 + "." + "0" * 64):
        with client_at(services, VICTIM) as browser:
            browser.cookies.set(DEVICE_COOKIE, cookie, path="/app/login")
            assert log_in(browser, account.email).status_code == 429


def test_the_device_cookie_is_http_only_strict_and_scoped_to_the_login(
    victim: TestClient, account: Account
) -> None:
    response = log_in(victim, account.email)
    cookies = response.headers.get_list("set-cookie")
    device = next(cookie for cookie in cookies if cookie.startswith(DEVICE_COOKIE))
    assert "HttpOnly" in device and "SameSite=strict" in device
    assert "Path=/app/login" in device


# --- races through a real server -------------------------------------------------------

GUESSERS = 12


@pytest.fixture
def committing(fresh_engine: Engine, settings: Settings, store: ObjectStore) -> Services:
    return Services(settings=settings, db=Database(fresh_engine), store=store)


def _guess_at_once(services: Services, emails: list[str]) -> list[int]:
    """Each e-mail with a wrong password, all sent at the same instant from one client."""
    barrier = Barrier(len(emails))

    def guess(email: str) -> int:
        with httpx.Client(base_url=url, timeout=60) as http:
            form = http.get("/app/login")
            barrier.wait()
            data = {"email": email, "password": "wrong", "csrf_token": csrf_in(form.text)}
            return http.post("/app/login", data=data).status_code

    with serve(create_app(services)) as url, ThreadPoolExecutor(len(emails)) as pool:
        return list(pool.map(guess, emails))


def _failed_attempts(database: Database) -> int:
    with database.read_session() as session:
        count = session.scalar(
            select(func.count()).select_from(LoginAttempt).where(LoginAttempt.succeeded.is_(False))
        )
    return int(count or 0)


def test_parallel_guesses_at_one_email_get_no_more_than_the_limit(committing: Services) -> None:
    account = make_account(committing.db)
    limit = committing.settings.login_failures_per_email

    codes = _guess_at_once(committing, [account.email] * GUESSERS)

    assert sorted(codes) == [401] * limit + [429] * (GUESSERS - limit)
    assert _failed_attempts(committing.db) == limit


def test_parallel_guesses_at_many_emails_get_no_more_than_the_client_limit(
    committing: Services,
) -> None:
    committing.settings.login_failures_per_client = 6
    emails = [f"guess-{index}@example.com" for index in range(GUESSERS)]

    codes = _guess_at_once(committing, emails)

    assert sorted(codes) == [401] * 6 + [429] * (GUESSERS - 6)
    assert _failed_attempts(committing.db) == 6

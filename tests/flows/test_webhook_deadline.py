"""One deadline covers a whole webhook attempt: the lookup, the connection to every
address, the TLS handshake, sending and the answer; and the claim's lease outlasts it, so
no second sender starts an attempt that is still on the wire.

The slow resolver stands in at the one place the sender resolves
(`flows.webhook_http.getaddrinfo`); the addresses it returns are real sockets that never
accept (a full listen queue drops the SYN, as a firewall does)."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
from typing import Any

import pytest

from flows import webhook_http, webhook_sender
from flows.webhook_http import DeliveryFailed, TargetPolicy, send
from flows.webhook_sender import WebhookSender, lease_for
from storage.db import Database
from storage.settings import Settings
from testkit.webhook_receiver import black_hole, silent_server

TIMEOUT = 1.0
# Thread start-up and scheduling on a shared, loaded machine: the attempt ends this close
# after its deadline (before: the lookup, then up to TIMEOUT per address, then TIMEOUT).
SLACK = 0.5
LOOPBACK = TargetPolicy(allow_loopback=True, allow_private=False)


def slow_resolver(addresses: list[str], delay: float) -> Callable[..., list[Any]]:
    def getaddrinfo(host: str, port: int, *args: object, **kwargs: object) -> list[Any]:
        time.sleep(delay)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port)) for a in addresses]

    return getaddrinfo


def timed_attempt(url: str) -> tuple[float, str]:
    started = time.monotonic()
    with pytest.raises(DeliveryFailed) as failed:
        send(url, LOOPBACK, {}, b"{}", TIMEOUT)
    return time.monotonic() - started, str(failed.value)


def test_a_slow_lookup_and_addresses_that_never_accept_share_one_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with black_hole("127.0.0.2") as port, black_hole("127.0.0.3", port):
        resolver = slow_resolver(["127.0.0.2", "127.0.0.3"], 0.6 * TIMEOUT)
        monkeypatch.setattr(webhook_http, "getaddrinfo", resolver)
        took, error = timed_attempt(f"http://hooks.example:{port}/hook")
    assert error == f"no answer within {TIMEOUT:g} s"
    assert TIMEOUT <= took < TIMEOUT + SLACK


def test_a_lookup_that_never_ends_is_given_up_at_the_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(webhook_http, "getaddrinfo", slow_resolver(["127.0.0.1"], 5 * TIMEOUT))
    took, error = timed_attempt("http://hooks.example:9/hook")
    assert error == f"cannot resolve hooks.example: no answer within {TIMEOUT:g} s"
    assert took < TIMEOUT + SLACK


def test_a_tls_handshake_that_never_ends_is_cut_at_the_deadline() -> None:
    with silent_server() as port:
        took, error = timed_attempt(f"https://127.0.0.1:{port}/hook")
    assert error == f"no answer within {TIMEOUT:g} s"
    assert took < TIMEOUT + SLACK


def test_the_lease_outlasts_an_attempt(
    database: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    sender = WebhookSender(database, settings)
    assert sender.lease.total_seconds() > settings.webhook_timeout_seconds
    assert lease_for(10.0).total_seconds() == 30.0  # production: 10 s attempts
    monkeypatch.setattr(webhook_sender, "BOOKING_SECONDS", 0.0)
    with pytest.raises(ValueError, match="does not outlast"):
        lease_for(10.0)

"""Prefect's API clients share one verifying TLS context per CA file (flows/prefect_tls.py)."""

from __future__ import annotations

import ssl
from collections.abc import Iterator

import prefect.client.orchestration as orchestration
import pytest
from prefect.client.orchestration import PrefectClient, SyncPrefectClient
from prefect.settings import PREFECT_API_TLS_INSECURE_SKIP_VERIFY, temporary_settings

from flows.prefect_tls import share_tls_contexts

API = "http://127.0.0.1:9/api"


@pytest.fixture
def shared() -> Iterator[None]:
    original = getattr(orchestration, "ssl")  # noqa: B009
    share_tls_contexts()
    try:
        yield
    finally:
        setattr(orchestration, "ssl", original)  # noqa: B010


def _context(client: PrefectClient | SyncPrefectClient) -> ssl.SSLContext:
    context: ssl.SSLContext = client._client._transport._pool._ssl_context  # type: ignore[union-attr]
    return context


def test_without_sharing_every_client_parses_the_ca_bundle_again() -> None:
    # Prefect's own behaviour; if this fails, Prefect changed and the module may go.
    assert _context(PrefectClient(API)) is not _context(PrefectClient(API))


def test_clients_share_one_verifying_context(shared: None) -> None:
    contexts = {
        id(_context(client))
        for client in (PrefectClient(API), PrefectClient(API), SyncPrefectClient(API))
    }
    assert len(contexts) == 1
    context = _context(PrefectClient(API))
    assert context.verify_mode is ssl.CERT_REQUIRED and context.check_hostname


def test_the_insecure_setting_gets_a_context_of_its_own(shared: None) -> None:
    verifying = _context(PrefectClient(API))
    with temporary_settings({PREFECT_API_TLS_INSECURE_SKIP_VERIFY: True}):
        insecure = _context(PrefectClient(API))
    assert insecure is not verifying and insecure.verify_mode is ssl.CERT_NONE
    assert verifying.verify_mode is ssl.CERT_REQUIRED and verifying.check_hostname

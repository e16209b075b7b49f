"""One verifying TLS context per CA file for all of Prefect's API clients in a process.

Prefect 3.8 builds a new `ssl.SSLContext` for every `PrefectClient` and
`SyncPrefectClient` (prefect/client/orchestration/__init__.py), parsing the whole CA
bundle each time: 22 ms of CPU here, paid for every task run a batch submits, for the
flow run's own clients and for its concurrency service, whether the API is reached over
TLS or not. An `SSLContext` is made to be shared between connections and threads, so
the client module gets one per CA file.

Only the verifying contexts are shared. Prefect's `PREFECT_API_TLS_INSECURE_SKIP_VERIFY`
branch changes the context it gets, so that one is still made per client.
"""

from __future__ import annotations

import functools
import ssl
from typing import Any

import prefect.client.orchestration as orchestration


@functools.cache
def _verifying(cafile: str, capath: str | None) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=cafile, capath=capath)


class _SharedContexts:
    """Stands in for the `ssl` module inside Prefect's client module only."""

    def __getattr__(self, name: str) -> Any:
        return getattr(ssl, name)

    @staticmethod
    def create_default_context(
        purpose: ssl.Purpose = ssl.Purpose.SERVER_AUTH,
        *,
        cafile: str | None = None,
        capath: str | None = None,
        cadata: str | bytes | None = None,
    ) -> ssl.SSLContext:
        if purpose is ssl.Purpose.SERVER_AUTH and cafile is not None and cadata is None:
            return _verifying(cafile, capath)
        return ssl.create_default_context(purpose, cafile=cafile, capath=capath, cadata=cadata)


def share_tls_contexts() -> None:
    """From now on Prefect's API clients in this process share their TLS context."""
    setattr(orchestration, "ssl", _SharedContexts())  # noqa: B010 (not re-exported by Prefect)

"""Server time of web pages through the real ASGI app, on SQLite and on Postgres when it
is reachable: what bench.webapp and bench.result_pages share. Target: p95 < 100 ms."""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import Engine

from api.app import create_app
from api.deps import Services
from api.web.auth import SESSION_COOKIE
from testkit.databases import migrated_postgres, migrated_sqlite, postgres_reachable

WARMUP = 5
REQUESTS = 60
TARGET_P95_MS = 100.0


def _percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50_ms": round(statistics.median(ordered), 1),
        "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))], 1),
        "max_ms": round(ordered[-1], 1),
    }


def _measure(client: TestClient, path: str) -> dict[str, Any]:
    for _ in range(WARMUP):
        assert client.get(path).status_code == 200, path
    samples = []
    for _ in range(REQUESTS):
        began = time.perf_counter()
        response = client.get(path)
        samples.append((time.perf_counter() - began) * 1000)
        assert response.status_code == 200, path
    return {"path": path, **_percentiles(samples)}


def measure_pages(services: Services, session_token: str, pages: dict[str, str]) -> dict[str, Any]:
    """Each page's p50/p95/max for a signed-in web session, the worst p95 and the target."""
    with TestClient(create_app(services)) as client:
        client.cookies.set(SESSION_COOKIE, session_token)
        measured = {name: _measure(client, path) for name, path in pages.items()}
    worst = max(page["p95_ms"] for page in measured.values())
    return {
        "requests_per_page": REQUESTS,
        "pages": measured,
        "worst_p95_ms": worst,
        "target_p95_ms": TARGET_P95_MS,
        "meets_target": worst < TARGET_P95_MS,
    }


def _engines(work: Path) -> Iterator[tuple[str, Engine]]:
    with migrated_sqlite(work) as engine:
        yield "sqlite", engine
    if postgres_reachable():
        with migrated_postgres() as engine:
            yield "postgres", engine


def run_on_engines(
    prefix: str, bench_database: Callable[[Engine, Path], dict[str, Any]]
) -> dict[str, Any]:
    """`bench_database(engine, work directory)` on a migrated SQLite database, then on a
    Postgres schema of its own (or a note that Postgres was not reachable)."""
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        work = Path(tmp)
        results: dict[str, Any] = {"measured": "server time per GET through the ASGI app"}
        for name, engine in _engines(work):
            results[name] = bench_database(engine, work)
        if "postgres" not in results:
            results["postgres"] = "skipped: Postgres not reachable"
        return results

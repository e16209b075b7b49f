"""Webhook delivery lag under the sustained load of the single-upload benchmark.

The same 1,000 single uploads from 16 parallel curl transfers as `bench_singles`, sent
by a company with a webhook endpoint (all events) on a receiver on loopback; the
`docintake webhooks` sender of the stack delivers. Lag: from the state change (the
event's `timestamp`, taken in the transaction that changes the upload) to the request
arriving at the receiver, p50 and p99 over every event."""

from __future__ import annotations

import statistics
import time
from datetime import datetime
from typing import Any

import httpx2 as httpx

from bench.stack import Stack
from docintake_client import verify_webhook
from testkit.webhook_receiver import new_receiver, receiving

EVENTS = ["upload.completed", "upload.failed"]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _changed_at(timestamp: str) -> float:
    return datetime.fromisoformat(timestamp.replace("Z", "+00:00")).timestamp()


def bench_webhook_lag(
    stack: Stack, database_url: str, count: int = 1000, clients: int = 16
) -> dict[str, Any]:
    from bench.pipeline import bench_singles

    key = stack.company_key("webhooks-bench")
    receiver = new_receiver(204)
    with receiving(receiver), httpx.Client(base_url=stack.api_url) as client:
        created = client.post(
            "/v1/webhook-endpoints",
            headers={"Authorization": f"Bearer {key}"},
            json={"url": receiver.url, "events": EVENTS},
        ).json()
        load = bench_singles(stack, database_url, count, clients, key=key)
        deadline = time.monotonic() + 300
        while len(receiver.requests()) < count and time.monotonic() < deadline:
            time.sleep(0.25)
    requests = receiver.requests()
    lags = []
    for request in requests:
        event = verify_webhook(created["secret"], request.headers, request.body)
        lags.append(request.wall - _changed_at(event["timestamp"]))
    distinct = len({request.message_id for request in requests})
    return {
        "events_expected": count,
        "events_received": len(requests),
        "distinct_webhook_ids": distinct,
        "lag_p50_s": round(statistics.median(lags), 3),
        "lag_p99_s": round(_percentile(lags, 0.99), 3),
        "lag_max_s": round(max(lags), 3),
        "load": load,
    }

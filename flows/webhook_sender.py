"""`docintake webhooks`: the process that works through the webhook outbox.

It claims due deliveries from the database (atomically, so several senders share the
outbox; in turns per company, within caps in flight per endpoint and per company),
makes one signed attempt each on a pool of threads, all of an attempt within one
deadline shorter than the claim's lease, and books the answer: a
2xx delivers, anything else schedules the next try with the same `webhook-id`, until
the retries span the configured window. It holds nothing but the claims in hand: a
sender that dies mid-delivery leaves its claims to expire, and the next sender (this one
restarted, or another) tries them again. Nothing is lost, some may arrive twice: the
receiver deduplicates on `webhook-id`.

Not a Prefect flow: an attempt is a millisecond of work, and a flow run costs a second
or more (README, "Pipeline"). The database is the queue of record, as for the pipeline.
"""

from __future__ import annotations

import json
import logging
import ssl
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from datetime import datetime, timedelta

from flows.wakeup import NewsWatch
from flows.webhook_http import DeliveryFailed, TargetPolicy, TargetRefused, send, signed_headers
from storage.db import Database
from storage.models import utcnow
from storage.repositories import webhooks as webhook_repo
from storage.repositories.webhook_claims import ClaimedDelivery, InFlightCaps, claim_due, has_due
from storage.resources import with_base_url
from storage.secret_box import SecretBox, SecretUnreadable
from storage.settings import Settings
from storage.work_news import WEBHOOK

log = logging.getLogger(__name__)

POLL_SECONDS = 0.2
# While the outbox's news is heard (storage/work_news.py), a poll only finds retries
# that came due, and no retry comes sooner than the schedule's base after a failure.
# Polling five times a second was an idle production stack's costliest loop after
# Prefect's.
ANNOUNCED_POLL_SECONDS = 2.0
MAX_BACKOFF_SECONDS = 10.0
# A claim outlives its attempt (one deadline for all of it, flows/webhook_http.py) by this
# much, the time to book the outcome: a busy database commits in well under a second.
BOOKING_SECONDS = 20.0


def lease_for(timeout: float) -> timedelta:
    """How long a claim holds a delivery: longer than the attempt may take, so no other
    sender starts it again while it is on the wire."""
    lease = timedelta(seconds=timeout + BOOKING_SECONDS)
    if lease.total_seconds() <= timeout:
        raise ValueError(f"a lease of {lease} does not outlast an attempt of {timeout} s")
    return lease


@dataclass(frozen=True)
class RetrySchedule:
    """After the n-th failed attempt the next one comes base x 2^(n-1) seconds later, at
    most `cap` seconds, until the delays add up to the window: then it is given up."""

    base: float
    cap: float
    window: float

    def delay(self, attempts: int) -> float:
        return float(min(self.cap, self.base * 2 ** min(attempts - 1, 62)))

    @property
    def max_attempts(self) -> int:
        attempts, waited = 1, 0.0
        while waited < self.window:
            waited += self.delay(attempts)
            attempts += 1
        return attempts

    def next_attempt(self, attempts: int, now: datetime) -> datetime | None:
        if attempts >= self.max_attempts:
            return None
        return now + timedelta(seconds=self.delay(attempts))

    @classmethod
    def from_settings(cls, settings: Settings) -> RetrySchedule:
        return cls(
            settings.webhook_retry_base_seconds,
            settings.webhook_retry_max_seconds,
            settings.webhook_retry_window_seconds,
        )


def event_body(claimed: ClaimedDelivery, public_base_url: str) -> bytes:
    """The event as sent: the frozen payload with absolute result URLs, compact JSON."""
    payload = dict(claimed.payload)
    payload["data"] = with_base_url(payload["data"], public_base_url)
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()


class WebhookSender:
    def __init__(self, db: Database, settings: Settings, tls: ssl.SSLContext | None = None) -> None:
        self.db = db
        self.settings = settings
        self.policy = TargetPolicy.from_settings(settings)
        self.schedule = RetrySchedule.from_settings(settings)
        self.timeout = settings.webhook_timeout_seconds
        self.lease = lease_for(self.timeout)
        self.caps = InFlightCaps(
            settings.webhook_endpoint_concurrency, settings.webhook_company_concurrency
        )
        self.box = SecretBox.for_webhooks(settings)
        self.tls = tls
        self.stop = threading.Event()

    def run(self) -> None:
        """Claim and send until `stop` is set; waits for the attempts on the wire.

        A claim that finds nothing (nothing due, or only deliveries behind a full cap) is
        made again once an attempt ends, news comes, or the poll period has passed: not
        every 0.2 s while attempts wait on an endpoint that does not answer (a claim over
        a backlog of 10,000 costs 14-85 ms, docs/webhooks.md)."""
        slots = self.settings.webhook_concurrency
        in_flight: set[Future[None]] = set()
        backoff = POLL_SECONDS
        idle_poll = min(ANNOUNCED_POLL_SECONDS, self.schedule.base)
        next_claim = 0.0  # monotonic
        with (
            NewsWatch(self.db.engine, (WEBHOOK,)) as news,
            ThreadPoolExecutor(slots, thread_name_prefix="webhook") as pool,
        ):
            while not self.stop.is_set():
                seen = news.wakeup.seen()
                claimed = []
                if len(in_flight) < slots and time.monotonic() >= next_claim:
                    try:
                        claimed = self.claim(slots - len(in_flight))
                        backoff = POLL_SECONDS
                    except Exception as exc:
                        log.warning("webhooks: cannot claim (%s); again in %.1f s", exc, backoff)
                        self.stop.wait(backoff)
                        backoff = min(2 * backoff, MAX_BACKOFF_SECONDS)
                        continue
                    poll = 0.0 if claimed else news.poll_seconds(POLL_SECONDS, idle_poll)
                    next_claim = time.monotonic() + poll
                in_flight.update(pool.submit(self.attempt, item) for item in claimed)
                if in_flight:
                    done, in_flight = wait(in_flight, POLL_SECONDS, FIRST_COMPLETED)
                    if done or news.wakeup.seen() != seen:
                        next_claim = 0.0
                    for future in done:
                        future.result()
                elif not claimed:
                    news.sleep(max(0.0, next_claim - time.monotonic()), seen, self.stop)
                    next_claim = 0.0
            wait(in_flight)

    def claim(self, limit: int) -> list[ClaimedDelivery]:
        now = utcnow()
        # A read first: on SQLite a claim takes the database's write lock.
        with self.db.standalone_reads() as session:
            if not has_due(session, now, self.caps):
                return []
        with self.db.session() as session:
            claimed = claim_due(session, now, limit, self.lease, self.caps)
            session.commit()
        return claimed

    def attempt(self, claimed: ClaimedDelivery) -> None:
        """One try; its outcome booked. An error booking it leaves the claim to expire."""
        status, error = self._send(claimed)
        now = utcnow()
        with self.db.session() as session:
            if status is not None and 200 <= status < 300:
                webhook_repo.record_delivered(session, claimed.id, status, now)
            else:
                retry_at = self.schedule.next_attempt(claimed.attempts, now)
                reason = error or f"answered {status}"
                webhook_repo.record_failed(session, claimed.id, status, reason, now, retry_at)
                log.info(
                    "webhook %s attempt %d failed: %s; %s",
                    claimed.message_id,
                    claimed.attempts,
                    reason,
                    f"next at {retry_at:%H:%M:%S}" if retry_at else "given up",
                )
            session.commit()

    def _send(self, claimed: ClaimedDelivery) -> tuple[int | None, str | None]:
        body = event_body(claimed, self.settings.public_base_url)
        try:
            secrets = [self.box.open(sealed) for sealed in claimed.sealed_secrets]
            headers = signed_headers(secrets, claimed.message_id, int(time.time()), body)
            return send(claimed.url, self.policy, headers, body, self.timeout, self.tls), None
        except TargetRefused as refused:
            return None, f"refused: {refused}"
        except (DeliveryFailed, SecretUnreadable) as failed:
            return None, str(failed)
        except Exception as exc:  # a bug must not stop the sender nor lose the delivery
            log.exception("webhook %s: unexpected error", claimed.message_id)
            return None, f"{type(exc).__name__}: {exc}"

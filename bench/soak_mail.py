"""The soak's SMTP phase (docs/soak.md): mail sent to the companies' intake addresses at
a steady rate through `docintake mail`, during the same faults as the batches.

The sender behaves as a sending MTA: a message answered 4xx, or whose connection
failed (the mail server killed, the database away), is sent again with the same bytes
until it is answered 250, also after the load (for at most RETRY_AFTER_LOAD_SECONDS).
Each message is found in the database by its delivery digest (the batch's `sha256`,
processors/email_message.py): an accepted message without a batch is lost, one with
two batches was taken twice.
"""

from __future__ import annotations

import smtplib
import threading
import time
import uuid
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.policy import SMTP
from typing import Any

from sqlalchemy import Engine, select

from processors.email_message import delivery_digest
from storage.models import Batch
from testkit.samples import blank_pdf

INTERVAL_SECONDS = 2.0
RETRY_SECONDS = 2.0
RETRY_AFTER_LOAD_SECONDS = 90.0
EXAMPLES = 5


@dataclass
class Sent:
    raw: bytes
    to: str
    digest: str
    attempts: int = 0
    accepted: bool = False
    refused: str | None = None  # a 5xx answer: given up
    next_try: float = 0.0
    answers: list[str] = field(default_factory=list)


class MailLoad:
    def __init__(self, port: int, addresses: list[str]) -> None:
        self.port, self.addresses = port, addresses
        self.sent: list[Sent] = []
        self._stop_new = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="mail-load", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def finish(self) -> None:
        """No new messages; those not yet accepted are retried for a while."""
        self._stop_new.set()
        deadline = time.monotonic() + RETRY_AFTER_LOAD_SECONDS
        while self._pending() and time.monotonic() < deadline:
            time.sleep(0.5)
        self._stop.set()
        self._thread.join()

    def _pending(self) -> list[Sent]:
        return [s for s in self.sent if not s.accepted and s.refused is None]

    def _message(self, number: int) -> Sent:
        to = self.addresses[number % len(self.addresses)]
        message = EmailMessage()
        message["From"], message["To"] = "soak@lieferant.example", to
        message["Subject"] = f"Soak invoice {number}"
        message["Message-ID"] = f"<{uuid.uuid4().hex}@soak.example>"
        message.set_content("Anbei.")
        pdf = blank_pdf(f"soak mail {number} {uuid.uuid4().hex}")
        message.add_attachment(pdf, maintype="application", subtype="pdf", filename="r.pdf")
        raw = message.as_bytes(policy=SMTP)
        return Sent(raw, to, delivery_digest(raw))

    def _try(self, sent: Sent) -> None:
        sent.attempts += 1
        try:
            with smtplib.SMTP("127.0.0.1", self.port, timeout=30) as client:
                client.sendmail("soak@lieferant.example", [sent.to], sent.raw)
            sent.accepted = True
            sent.answers.append("250")
        except smtplib.SMTPResponseException as exc:
            sent.answers.append(str(exc.smtp_code))
            if exc.smtp_code >= 500:
                sent.refused = f"{exc.smtp_code} {exc.smtp_error!r}"
        except smtplib.SMTPRecipientsRefused as exc:
            sent.refused = f"recipient refused: {exc.recipients!r}"
        except (OSError, smtplib.SMTPException) as exc:
            sent.answers.append(type(exc).__name__)
        if not sent.accepted:
            sent.next_try = time.monotonic() + RETRY_SECONDS

    def _run(self) -> None:
        next_new, number = time.monotonic(), 0
        while not self._stop.is_set():
            now = time.monotonic()
            if not self._stop_new.is_set() and now >= next_new:
                self.sent.append(self._message(number))
                number, next_new = number + 1, next_new + INTERVAL_SECONDS
            for sent in self._pending():
                if sent.next_try <= time.monotonic():
                    self._try(sent)
            time.sleep(0.1)


def mail_batches(engine: Engine, load: MailLoad) -> dict[str, list[str]]:
    """Each sent message's batches (by delivery digest)."""
    digests = [sent.digest for sent in load.sent]
    found: dict[str, list[str]] = {digest: [] for digest in digests}
    with engine.connect() as connection:
        for start in range(0, len(digests), 500):
            rows = connection.execute(
                select(Batch.sha256, Batch.id).where(
                    Batch.source_type == "email", Batch.sha256.in_(digests[start : start + 500])
                )
            )
            for digest, batch_id in rows:
                found[digest].append(str(batch_id))
    return found


def mail_verdict(load: MailLoad, batches: dict[str, list[str]]) -> dict[str, Any]:
    accepted = [s for s in load.sent if s.accepted]
    lost = [s.digest for s in accepted if not batches[s.digest]]
    twice = [s.digest for s in load.sent if len(batches[s.digest]) > 1]
    never = [s for s in load.sent if not s.accepted]
    retried = [s for s in accepted if s.attempts > 1]
    violations = []
    if lost:
        violations.append(f"{len(lost)} accepted messages have no batch (lost)")
    if twice:
        violations.append(f"{len(twice)} messages became more than one batch (taken twice)")
    if never:
        violations.append(f"{len(never)} messages were never accepted (refused or 4xx to the end)")
    with_batch = sum(1 for s in load.sent if not s.accepted and batches[s.digest])
    return {
        "sent": len(load.sent),
        "accepted": len(accepted),
        "accepted_after_retries": len(retried),
        "attempts": sum(s.attempts for s in load.sent),
        "answers": _answer_counts(load),
        "lost": len(lost),
        "taken_twice": len(twice),
        "taken_twice_examples": twice[:EXAMPLES],
        "never_accepted": len(never),
        "never_accepted_examples": [
            {"answers": s.answers[-3:], "refused": s.refused} for s in never[:EXAMPLES]
        ],
        "never_accepted_but_a_batch": with_batch,
        "violations": violations,
    }


def _answer_counts(load: MailLoad) -> dict[str, int]:
    counts: dict[str, int] = {}
    for sent in load.sent:
        for answer in sent.answers:
            counts[answer] = counts.get(answer, 0) + 1
    return dict(sorted(counts.items()))

"""Polling companies' own mailboxes over IMAP (docs/email.md, "IMAP polling").

`poll-mailboxes` (a deployment in prefect.yaml, every minute, one run at a time) polls
each enabled mailbox a poller does not hold already. Per message, exactly once:

1. skip a UID already noted for the folder's UIDVALIDITY (only settle it again: a
   poller that died after step 3 left it unread or unmoved; one left on the server
   because it is too large is not touched);
2. fetch its raw bytes (BODY.PEEK[]: still unread) and store them;
3. in one transaction: the batch (storage/mail_intake.py) and the note of
   (mailbox, UIDVALIDITY, UID), a unique key: a second poller racing for the same UID
   loses there and deletes what it stored;
4. settle it on the server: mark it read or move it.

A crash before 3 leaves nothing noted: the next poll takes the message. A crash after 3
leaves it noted: the next poll only settles it. Nothing is lost, nothing taken twice.
The poller parses no MIME: the batch is unpacked in a reading process like any other.
"""

from __future__ import annotations

import logging
import os
import socket
import uuid
from dataclasses import dataclass, field
from datetime import timedelta

from prefect import flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE

from flows import runtime
from flows.imap_client import ImapConnector, ImapSession, ImapTrouble, default_connector
from storage.db import Database
from storage.mail_intake import Arrival, NotTaken, accept_message
from storage.models import utcnow
from storage.objectstore import ObjectStore
from storage.repositories import imap_mailboxes
from storage.repositories.imap_mailboxes import MailboxSettings
from storage.secret_box import SecretUnreadable
from storage.settings import Settings

log = logging.getLogger(__name__)

# One poll takes at most this many messages from a mailbox; the rest wait for the next
# (a minute later), so a full mailbox cannot hold a poller's lease past LEASE.
MAX_MESSAGES_PER_POLL = 200
LEASE = timedelta(minutes=15)


@dataclass(frozen=True)
class Poller:
    settings: Settings
    db: Database
    store: ObjectStore
    connector: ImapConnector
    lease: timedelta = LEASE
    owner: str = field(
        default_factory=lambda: f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
    )


@dataclass
class PollReport:
    taken: int = 0
    settled_again: int = 0
    lost_races: int = 0
    left: int = 0
    error: str | None = None


def _take(
    poller: Poller,
    company_id: uuid.UUID,
    wanted: MailboxSettings,
    session: ImapSession,
    uid: int,
    report: PollReport,
) -> bool:
    """Take one message; False if it was left on the server untaken."""
    size = session.size(uid)
    if size is None:
        return False  # expunged meanwhile
    if size > poller.settings.max_message_bytes:
        why = f"over the {poller.settings.max_message_bytes} bytes message limit"
        with poller.db.session() as db_session:
            imap_mailboxes.record_taken(db_session, company_id, session.uidvalidity, uid, None, why)
            db_session.commit()
        log.warning("mailbox of %s: message %d left: %s", company_id, uid, why)
        report.left += 1
        return False
    raw = session.fetch(uid)
    if raw is None:
        return False
    arrival = Arrival(company_id, wanted.document_type, "", utcnow())
    accepted = accept_message(
        poller.db,
        poller.store,
        arrival,
        raw,
        record=lambda db_session, batch_id: imap_mailboxes.record_taken(
            db_session, company_id, session.uidvalidity, uid, batch_id
        ),
    )
    log.info("mailbox of %s: message %d is batch %s", company_id, uid, accepted.batch_id)
    report.taken += 1
    return True


def _poll_session(
    poller: Poller, company_id: uuid.UUID, wanted: MailboxSettings, session: ImapSession
) -> PollReport:
    report = PollReport()
    with poller.db.read_session() as db_session:
        noted = imap_mailboxes.noted_uids(db_session, company_id, session.uidvalidity)
    tried = 0
    for uid in session.candidates(wanted.after_import):
        if uid in noted:
            if noted[uid]:  # taken, but its poller died before settling it
                session.settle(uid, wanted.after_import, wanted.move_to)
                report.settled_again += 1
            continue  # a message left on the server stays as it is
        if tried == MAX_MESSAGES_PER_POLL:
            break
        tried += 1
        try:
            if not _take(poller, company_id, wanted, session, uid, report):
                continue
        except NotTaken:
            report.lost_races += 1
        session.settle(uid, wanted.after_import, wanted.move_to)
    return report


def poll_mailbox(poller: Poller, company_id: uuid.UUID) -> PollReport | None:
    """Poll one company's mailbox; None if another poller holds it (or it is off)."""
    wanted, error = None, None
    with poller.db.session() as db_session:
        claimed = imap_mailboxes.claim_mailbox(db_session, company_id, poller.owner, poller.lease)
        mailbox = imap_mailboxes.mailbox_of(db_session, company_id) if claimed else None
        if mailbox is not None:
            try:
                wanted = imap_mailboxes.settings_of(
                    mailbox, imap_mailboxes.password_box(poller.settings)
                )
            except SecretUnreadable as exc:
                error = str(exc)
        db_session.commit()
    if not claimed:
        return None
    report = PollReport()
    try:
        if wanted is None:
            report.error = error
        else:
            with poller.connector.session(wanted) as session:
                report = _poll_session(poller, company_id, wanted, session)
    except ImapTrouble as exc:
        log.warning("mailbox of %s: %s", company_id, exc)
        report.error = str(exc)[:2000]
    except Exception:  # the database or the store: this mailbox waits, the others go on
        log.exception("mailbox of %s: a message could not be taken", company_id)
        report.error = "the service could not store a message; the next poll tries again"
    finally:
        with poller.db.session() as db_session:
            imap_mailboxes.release_mailbox(
                db_session, company_id, poller.owner, report.error, utcnow()
            )
            db_session.commit()
    return report


def poll_all(poller: Poller) -> dict[str, int]:
    with poller.db.read_session() as db_session:
        companies = imap_mailboxes.enabled_mailboxes(db_session)
    counts = {"mailboxes": 0, "taken": 0, "left": 0, "failed": 0}
    for company_id in companies:
        report = poll_mailbox(poller, company_id)
        if report is None:
            continue
        counts["mailboxes"] += 1
        counts["taken"] += report.taken
        counts["left"] += report.left
        counts["failed"] += report.error is not None
    return counts


def _poller() -> Poller:
    """Over the process's worker environment (flows/runtime.py)."""
    env = runtime.current()
    connector = default_connector(env.settings)
    return Poller(settings=env.settings, db=env.db, store=env.store, connector=connector)


@task(name="poll-mailboxes", cache_policy=NO_CACHE)
def poll_mailboxes_task() -> dict[str, int]:
    counts = poll_all(_poller())
    get_run_logger().info("IMAP polling: %s", counts)
    return counts


@flow(name="poll-mailboxes")
def poll_mailboxes() -> dict[str, int]:
    return poll_mailboxes_task()

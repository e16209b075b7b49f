"""IMAP polling against a real Dovecot (tests/support/dovecot.py), on both backends, with
a database that really commits: each message becomes exactly one batch, with two
pollers at once and across a poller that dies half-way (docs/email.md)."""

from __future__ import annotations

import dataclasses
import imaplib
import ssl
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from email.message import EmailMessage

import pytest
from sqlalchemy import Engine, func, select

from flows import imap_client
from flows.imap_client import ImapConnector, ImapSession, ImapTrouble
from flows.imap_poll import Poller, poll_all, poll_mailbox, poll_mailboxes
from flows.webhook_http import TargetPolicy
from flows.work import WorkerEnv
from storage.db import Database
from storage.imap_models import AfterImport, ImapMailbox, ImapMessage, ImapSecurity
from storage.models import Batch
from storage.objectstore import ObjectStore
from storage.repositories import imap_mailboxes
from storage.repositories.imap_mailboxes import MailboxSettings
from storage.settings import Settings
from testkit.samples import blank_pdf
from tests.conftest import make_tenant
from tests.support.dovecot import Dovecot, start_dovecot
from tests.support.pipeline import run_claimed_batch

LOOPBACK = TargetPolicy(allow_loopback=True, allow_private=False)


@pytest.fixture(scope="module")
def dovecot() -> Iterator[Dovecot]:
    server = start_dovecot()
    yield server
    server.stop()


@dataclass
class Mailbox:
    server: Dovecot
    user: str
    password: str

    def client(self) -> imaplib.IMAP4_SSL:
        context = ssl.create_default_context(cafile=str(self.server.ca_file))
        client = imaplib.IMAP4_SSL("127.0.0.1", self.server.tls_port, ssl_context=context)
        client.login(self.user, self.password)
        return client

    def deliver(self, count: int, folder: str = "INBOX") -> list[str]:
        """`count` invoice mails appended unread; their Message-IDs."""
        ids, client = [], self.client()
        try:
            for number in range(count):
                message_id = f"<{uuid.uuid4().hex}@lieferant.example>"
                client.append(folder, None, None, _invoice(message_id, number).as_bytes())
                ids.append(message_id)
        finally:
            client.logout()
        return ids

    def unseen_and_all(self, folder: str = "INBOX") -> tuple[int, int]:
        client = self.client()
        try:
            client.select(folder)
            unseen = client.uid("SEARCH", "UNSEEN")[1][0]
            every = client.uid("SEARCH", "ALL")[1][0]
        finally:
            client.logout()
        assert isinstance(unseen, bytes) and isinstance(every, bytes)
        return len(unseen.split()), len(every.split())


def _invoice(message_id: str, number: int) -> EmailMessage:
    message = EmailMessage()
    message["From"] = "Lieferant GmbH <rechnung@lieferant.example>"
    message["To"] = "rechnungen@acme.example"
    message["Subject"] = f"Rechnung {number}"
    message["Message-ID"] = message_id
    message.set_content("Anbei unsere Rechnung.")
    message.add_attachment(
        blank_pdf(f"invoice {number}"),
        maintype="application",
        subtype="pdf",
        filename=f"rechnung-{number}.pdf",
    )
    return message


@pytest.fixture
def mailbox(dovecot: Dovecot) -> Mailbox:
    return Mailbox(dovecot, *dovecot.new_user())


@pytest.fixture
def db(fresh_engine: Engine) -> Database:
    return Database(fresh_engine)


def _connector(server: Dovecot) -> ImapConnector:
    context = ssl.create_default_context(cafile=str(server.ca_file))
    return ImapConnector(tls=context, policy=LOOPBACK, timeout=10)


def _settings_for(
    mailbox: Mailbox, security: str = ImapSecurity.STARTTLS, **changes: object
) -> MailboxSettings:
    port = mailbox.server.tls_port if security == ImapSecurity.TLS else mailbox.server.port
    values: dict[str, object] = {
        "host": "127.0.0.1",
        "port": port,
        "security": security,
        "username": mailbox.user,
        "password": mailbox.password,
        "folder": "INBOX",
        "after_import": AfterImport.MARK_READ,
        "move_to": None,
        **changes,
    }
    return MailboxSettings(**values)  # type: ignore[arg-type]


def _company_with_mailbox(db: Database, settings: Settings, wanted: MailboxSettings) -> uuid.UUID:
    company_id = make_tenant(db).company_id
    with db.session() as session:
        imap_mailboxes.save_mailbox(
            session, company_id, wanted, imap_mailboxes.password_box(settings)
        )
        session.commit()
    return company_id


def _poller(db: Database, store: ObjectStore, settings: Settings, server: Dovecot) -> Poller:
    return Poller(settings=settings, db=db, store=store, connector=_connector(server))


def _batches(db: Database, company_id: uuid.UUID) -> int:
    with db.read_session() as session:
        return int(session.scalar(select(func.count()).where(Batch.company_id == company_id)) or 0)


def _noted(db: Database, company_id: uuid.UUID) -> int:
    with db.read_session() as session:
        statement = select(func.count()).where(ImapMessage.company_id == company_id)
        return int(session.scalar(statement) or 0)


def test_a_poll_takes_each_unread_message_once_and_marks_it_read(
    db: Database, store: ObjectStore, settings: Settings, mailbox: Mailbox
) -> None:
    mailbox.deliver(3)
    company_id = _company_with_mailbox(db, settings, _settings_for(mailbox))
    poller = _poller(db, store, settings, mailbox.server)

    first = poll_mailbox(poller, company_id)
    again = poll_mailbox(poller, company_id)

    assert first is not None and first.taken == 3 and first.error is None
    assert again is not None and again.taken == 0
    assert mailbox.unseen_and_all() == (0, 3)
    assert _batches(db, company_id) == 3
    with db.read_session() as session:
        batch = session.scalars(select(Batch).where(Batch.company_id == company_id)).first()
        stored = session.get(ImapMailbox, company_id)
    assert batch is not None and batch.source_type == "email"
    assert store.read_bytes(batch.object_key).startswith(b"From: Lieferant")
    assert stored is not None and stored.last_polled_at is not None and stored.last_error is None
    assert mailbox.password not in stored.sealed_password


def test_moving_after_import_over_imaps(
    db: Database, store: ObjectStore, settings: Settings, mailbox: Mailbox
) -> None:
    mailbox.deliver(2)
    wanted = _settings_for(
        mailbox, ImapSecurity.TLS, after_import=AfterImport.MOVE, move_to="Imported/Done"
    )
    company_id = _company_with_mailbox(db, settings, wanted)

    report = poll_mailbox(_poller(db, store, settings, mailbox.server), company_id)

    assert report is not None and report.taken == 2, report
    assert mailbox.unseen_and_all() == (0, 0)
    assert mailbox.unseen_and_all("Imported/Done") == (2, 2)


def test_two_pollers_at_once_take_each_message_once(
    db: Database, store: ObjectStore, settings: Settings, mailbox: Mailbox
) -> None:
    """Leases that ran out before they began: both pollers really poll the mailbox at
    the same time (a claim only skips the row while another claim is in flight), and
    the unique (mailbox, UIDVALIDITY, UID) decides each message."""
    mailbox.deliver(12)
    company_id = _company_with_mailbox(db, settings, _settings_for(mailbox))
    pollers = [
        Poller(
            settings=settings,
            db=db,
            store=store,
            connector=_connector(mailbox.server),
            lease=timedelta(seconds=-60),
        )
        for _ in range(2)
    ]
    start = threading.Barrier(2)
    reports = []

    def run(poller: Poller) -> None:
        start.wait()
        for _ in range(200):  # on Postgres the other's claim, in flight, is skipped
            report = poll_mailbox(poller, company_id)
            if report is not None:
                break
            time.sleep(0.01)
        reports.append(report)

    threads = [threading.Thread(target=run, args=(poller,)) for poller in pollers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert all(report is not None and report.error is None for report in reports), reports
    assert sum(report.taken for report in reports if report) == 12
    assert _batches(db, company_id) == 12
    assert _noted(db, company_id) == 12
    assert mailbox.unseen_and_all() == (0, 12)


class _DiesAfter:
    """A connector whose session's connection drops after `settles` messages were
    settled: the poller dies between noting a message and flagging it read."""

    def __init__(self, real: ImapConnector, settles: int) -> None:
        self._real, self._left = real, settles

    def session(self, wanted: MailboxSettings) -> object:
        real, parent = self._real, self

        class _Session:
            def __enter__(self) -> ImapSession:
                self._context = real.session(wanted)
                session = self._context.__enter__()
                original = session.settle

                def settle(uid: int, after_import: str, move_to: str | None) -> None:
                    if parent._left == 0:
                        raise ImapTrouble("connection lost")
                    parent._left -= 1
                    original(uid, after_import, move_to)

                session.settle = settle  # type: ignore[method-assign]
                return session

            def __exit__(self, *exc: object) -> None:
                self._context.__exit__(None, None, None)

        return _Session()


def test_a_poller_that_died_half_way_loses_nothing_and_takes_nothing_twice(
    db: Database, store: ObjectStore, settings: Settings, mailbox: Mailbox
) -> None:
    mailbox.deliver(5)
    company_id = _company_with_mailbox(db, settings, _settings_for(mailbox))
    dying = Poller(
        settings=settings,
        db=db,
        store=store,
        connector=_DiesAfter(_connector(mailbox.server), settles=2),  # type: ignore[arg-type]
    )

    crashed = poll_mailbox(dying, company_id)
    assert crashed is not None and crashed.error is not None
    # The third message was noted with its batch, then the connection dropped: it is
    # still unread on the server.
    assert (_batches(db, company_id), _noted(db, company_id)) == (3, 3)
    assert mailbox.unseen_and_all() == (3, 5)
    mailbox.deliver(1)

    restarted = _poller(db, store, settings, mailbox.server)
    report = poll_mailbox(restarted, company_id)

    assert report is not None and report.error is None
    assert (report.taken, report.settled_again) == (3, 1)
    assert _batches(db, company_id) == 6
    assert mailbox.unseen_and_all() == (0, 6)


def test_a_message_over_the_limit_is_left_on_the_server(
    db: Database, store: ObjectStore, settings: Settings, mailbox: Mailbox
) -> None:
    mailbox.deliver(1)
    small = settings.model_copy(update={"max_message_bytes": 1000})
    company_id = _company_with_mailbox(db, small, _settings_for(mailbox))

    report = poll_mailbox(_poller(db, store, small, mailbox.server), company_id)
    again = poll_mailbox(_poller(db, store, small, mailbox.server), company_id)

    assert report is not None and (report.taken, report.left) == (0, 1)
    assert again is not None and (again.taken, again.left, again.settled_again) == (0, 0, 0)
    assert _batches(db, company_id) == 0
    assert mailbox.unseen_and_all() == (1, 1)
    with db.read_session() as session:
        noted = session.scalars(select(ImapMessage)).one()
    assert noted.batch_id is None and noted.left_because is not None


@pytest.mark.parametrize(
    ("changes", "found"),
    [
        ({"password": "wrong"}, "refused the login"),
        ({"folder": "Nowhere"}, "Nowhere"),
        ({"security": ImapSecurity.TLS}, "cannot connect"),  # IMAPS on the plain port
    ],
)
def test_trouble_is_recorded_on_the_mailbox(
    db: Database,
    store: ObjectStore,
    settings: Settings,
    mailbox: Mailbox,
    changes: dict[str, object],
    found: str,
) -> None:
    wanted = _settings_for(mailbox, **changes)  # type: ignore[arg-type]
    if changes.get("security") == ImapSecurity.TLS:
        wanted = dataclasses.replace(wanted, port=mailbox.server.port)
    company_id = _company_with_mailbox(db, settings, wanted)

    counts = poll_all(_poller(db, store, settings, mailbox.server))

    assert counts["failed"] == 1
    with db.read_session() as session:
        stored = session.get(ImapMailbox, company_id)
    assert stored is not None and stored.last_error is not None and found in stored.last_error
    assert stored.lease_owner is None


def test_the_flow_polls_and_the_pipeline_reads_the_message(
    env: WorkerEnv, mailbox: Mailbox
) -> None:
    """On Prefect, over the worker environment; plain IMAP to the loopback (the default
    TLS context knows no test CA). The batch is read like an SMTP one."""
    mailbox.deliver(1)
    company_id = _company_with_mailbox(
        env.db, env.settings, _settings_for(mailbox, ImapSecurity.NONE)
    )

    state = poll_mailboxes(return_state=True)

    assert state.is_completed()
    assert state.result() == {"mailboxes": 1, "taken": 1, "left": 0, "failed": 0}
    batch_id, counts = run_claimed_batch(env)
    assert sum(counts.values()) == 1, counts
    with env.db.read_session() as session:
        batch = session.get(Batch, uuid.UUID(batch_id))
    assert batch is not None and batch.company_id == company_id
    assert batch.mail_subject == "Rechnung 0"


def test_a_literal_longer_than_the_cap_is_refused_whatever_the_server_announced(
    db: Database,
    store: ObjectStore,
    settings: Settings,
    mailbox: Mailbox,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A hostile server may announce a small RFC822.SIZE and send more: the poller's
    read of the message's bytes is capped by itself."""
    mailbox.deliver(1)
    company_id = _company_with_mailbox(db, settings, _settings_for(mailbox))
    monkeypatch.setattr(imap_client, "MAX_LITERAL_BYTES", 100)

    report = poll_mailbox(_poller(db, store, settings, mailbox.server), company_id)

    assert report is not None and report.error is not None and "literal" in report.error
    assert (_batches(db, company_id), _noted(db, company_id)) == (0, 0)
    assert mailbox.unseen_and_all() == (1, 1)

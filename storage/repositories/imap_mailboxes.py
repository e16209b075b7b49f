"""Companies' IMAP mailboxes (docs/email.md, "IMAP polling"): their settings, the lease
a poller holds on one, and the messages taken from it, each exactly once."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from storage.db import locked
from storage.imap_models import ImapMailbox, ImapMessage
from storage.mail_intake import NotTaken
from storage.models import utcnow
from storage.secret_box import SecretBox
from storage.settings import Settings


def password_box(settings: Settings) -> SecretBox:
    return SecretBox(settings.secret_key.get_secret_value(), b"docintake imap passwords v1")


@dataclass(frozen=True, slots=True)
class MailboxSettings:
    """What a company sets; `password` is plain here, sealed when stored."""

    host: str
    port: int
    security: str
    username: str
    password: str
    folder: str
    after_import: str
    move_to: str | None
    document_type: str = "auto"
    enabled: bool = True


def mailbox_of(session: Session, company_id: uuid.UUID) -> ImapMailbox | None:
    return session.get(ImapMailbox, company_id)


def settings_of(mailbox: ImapMailbox, box: SecretBox) -> MailboxSettings:
    return MailboxSettings(
        host=mailbox.host,
        port=mailbox.port,
        security=mailbox.security,
        username=mailbox.username,
        password=box.open(mailbox.sealed_password),
        folder=mailbox.folder,
        after_import=mailbox.after_import,
        move_to=mailbox.move_to,
        document_type=mailbox.document_type,
        enabled=mailbox.enabled,
    )


def save_mailbox(
    session: Session, company_id: uuid.UUID, wanted: MailboxSettings, box: SecretBox
) -> ImapMailbox:
    """Set the company's mailbox. Messages already taken stay recorded: pointing it at
    another server whose UIDs happen to match is told apart by UIDVALIDITY."""
    mailbox = mailbox_of(session, company_id)
    if mailbox is None:
        mailbox = ImapMailbox(company_id=company_id)
        session.add(mailbox)
    mailbox.host, mailbox.port, mailbox.security = wanted.host, wanted.port, wanted.security
    mailbox.username, mailbox.sealed_password = wanted.username, box.seal(wanted.password)
    mailbox.folder, mailbox.after_import = wanted.folder, wanted.after_import
    mailbox.move_to, mailbox.document_type = wanted.move_to, wanted.document_type
    mailbox.enabled, mailbox.last_error = wanted.enabled, None
    mailbox.updated_at = utcnow()
    session.flush()
    return mailbox


def claim_mailbox(session: Session, company_id: uuid.UUID, owner: str, lease: timedelta) -> bool:
    """Hold the mailbox for one poll unless another poller holds it now."""
    now = utcnow()
    statement = select(ImapMailbox).where(
        ImapMailbox.company_id == company_id,
        ImapMailbox.enabled.is_(True),
        or_(ImapMailbox.lease_expires_at.is_(None), ImapMailbox.lease_expires_at < now),
    )
    mailbox = session.scalars(locked(session, statement, skip_locked=True)).first()
    if mailbox is None:
        return False
    mailbox.lease_owner, mailbox.lease_expires_at = owner, now + lease
    session.flush()
    return True


def enabled_mailboxes(session: Session) -> list[uuid.UUID]:
    statement = select(ImapMailbox.company_id).where(ImapMailbox.enabled.is_(True))
    return list(session.scalars(statement.order_by(ImapMailbox.last_polled_at.nulls_first())))


def release_mailbox(
    session: Session, company_id: uuid.UUID, owner: str, error: str | None, now: datetime
) -> None:
    mailbox = mailbox_of(session, company_id)
    if mailbox is None or mailbox.lease_owner != owner:
        return
    mailbox.lease_owner = mailbox.lease_expires_at = None
    mailbox.last_polled_at, mailbox.last_error = now, error
    session.flush()


def noted_uids(session: Session, company_id: uuid.UUID, uidvalidity: int) -> dict[int, bool]:
    """The UIDs noted for the folder: True for one taken into a batch, False for one
    left on the server (too large)."""
    statement = select(ImapMessage.uid, ImapMessage.batch_id).where(
        ImapMessage.company_id == company_id, ImapMessage.uidvalidity == uidvalidity
    )
    return {uid: batch_id is not None for uid, batch_id in session.execute(statement)}


def record_taken(
    session: Session,
    company_id: uuid.UUID,
    uidvalidity: int,
    uid: int,
    batch_id: uuid.UUID | None,
    left_because: str | None = None,
) -> None:
    """Note the message as taken, in the caller's transaction; NotTaken if another
    poller noted it first (the key is unique, so the race has one winner)."""
    try:
        with session.begin_nested():
            session.add(
                ImapMessage(
                    company_id=company_id,
                    uidvalidity=uidvalidity,
                    uid=uid,
                    batch_id=batch_id,
                    left_because=left_because,
                )
            )
    except IntegrityError as exc:
        raise NotTaken(f"message {uidvalidity}/{uid} was taken by another poller") from exc

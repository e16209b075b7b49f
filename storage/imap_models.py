"""A company's own mailbox polled over IMAP (docs/email.md, "IMAP polling"), and the
messages taken from it.

`imap_messages` is what makes each message taken exactly once: its key is the mailbox,
the folder's UIDVALIDITY and the message's UID, inserted in the transaction that creates
the message's batch. Two pollers, or one restarted after a crash, find the key taken.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from enum import StrEnum

from sqlalchemy import BigInteger, Boolean, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from storage.models import Base, utcnow
from storage.secret_box import SEALED_LENGTH


class ImapSecurity(StrEnum):
    TLS = "tls"  # IMAPS, TLS from the first byte (port 993)
    STARTTLS = "starttls"  # plain IMAP upgraded before login (port 143)
    NONE = "none"  # no TLS: only for a server on the same host (tests, development)


class AfterImport(StrEnum):
    MARK_READ = "mark_read"  # takes unread messages, then flags them \Seen
    MOVE = "move"  # takes every message of the folder, then moves it to `move_to`


class ImapMailbox(Base):
    __tablename__ = "imap_mailboxes"

    company_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("companies.id"), primary_key=True)
    host: Mapped[str] = mapped_column(String(255))
    port: Mapped[int] = mapped_column(Integer)
    security: Mapped[str] = mapped_column(String(16))
    username: Mapped[str] = mapped_column(String(255))
    # AES-GCM under DOCINTAKE_SECRET_KEY (storage/secret_box.py), a purpose of its own.
    sealed_password: Mapped[str] = mapped_column(String(SEALED_LENGTH))
    folder: Mapped[str] = mapped_column(String(255), default="INBOX")
    after_import: Mapped[str] = mapped_column(String(16), default=AfterImport.MARK_READ.value)
    move_to: Mapped[str | None] = mapped_column(String(255))
    document_type: Mapped[str] = mapped_column(String(32), default="auto")
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    # A poller holds the mailbox until `lease_expires_at`; another skips it meanwhile.
    lease_owner: Mapped[str | None] = mapped_column(String(128))
    lease_expires_at: Mapped[datetime | None]
    last_polled_at: Mapped[datetime | None]
    last_error: Mapped[str | None] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class ImapMessage(Base):
    """A message taken from a mailbox: its batch, or (batch null) why it was left."""

    __tablename__ = "imap_messages"

    company_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("imap_mailboxes.company_id", ondelete="CASCADE"), primary_key=True
    )
    uidvalidity: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    uid: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    batch_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("batches.id"))
    left_because: Mapped[str | None] = mapped_column(String(255))
    taken_at: Mapped[datetime] = mapped_column(default=utcnow)

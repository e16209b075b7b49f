"""Tables. One schema for SQLite and Postgres; migrations in storage/migrations."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    MetaData,
    String,
    Text,
    Uuid,
    false,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from storage.column_types import NAMING_CONVENTION, UTCDateTime
from storage.column_types import AutoId as AutoId
from storage.column_types import utcnow as utcnow
from storage.states import HistoryEvent, UploadStatus, check_transition
from storage.upload_moves import UploadMoves


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {  # noqa: RUF012
        datetime: UTCDateTime,
        uuid.UUID: Uuid,
        dict[str, Any]: JSON,
        list[str]: JSON,
    }


class Company(Base):
    __tablename__ = "companies"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    name: Mapped[str] = mapped_column(String(255))
    vat_ids: Mapped[list[str]] = mapped_column(default=list)
    tax_number: Mapped[str | None] = mapped_column(String(64))
    ibans: Mapped[list[str]] = mapped_column(default=list)
    locale: Mapped[str] = mapped_column(String(8), default="de")
    # The zone the web application shows times in (an IANA name, api/web/time_zones.py).
    time_zone: Mapped[str] = mapped_column(String(64), server_default="Europe/Berlin")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # The last change sequence given to one of its results (storage/result_changes.py).
    result_changes: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    # DATEV settings (storage/datev/settings.py); null until set up.
    datev: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # The object store did not hand over this company's files: none of its uploads is
    # claimed before `store_wait_until`; the wait doubles while the trouble lasts
    # (storage/repositories/work.py, `wait_for_the_store`).
    store_wait_until: Mapped[datetime | None] = mapped_column()
    store_wait_seconds: Mapped[float] = mapped_column(Float, default=0.0, server_default="0")
    # E-mail intake refuses mail whose Authentication-Results say dmarc=fail (docs/email.md).
    refuse_dmarc_fail: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class ApiKey(Base):
    __tablename__ = "api_keys"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    company_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("companies.id"), index=True)
    name: Mapped[str | None] = mapped_column(String(255))
    prefix: Mapped[str] = mapped_column(String(16))
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_used_at: Mapped[datetime | None]
    revoked_at: Mapped[datetime | None]


class Result(Base):
    __tablename__ = "results"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    company_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("companies.id"))
    type: Mapped[str] = mapped_column(String(32))
    sha256: Mapped[str] = mapped_column(String(64))
    data: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    deleted_at: Mapped[datetime | None]
    # Invoices only: seller + number + gross, to list possible duplicates of an invoice.
    duplicate_key: Mapped[str | None] = mapped_column(String(255))
    # Grows with every change of a company's results, in commit order: the results API's
    # sync listing (storage/result_changes.py). 0 until the creating commit numbers it.
    change_seq: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    updated_at: Mapped[datetime | None]

    __table_args__ = (
        Index("ix_results_company_duplicate_key", "company_id", "duplicate_key"),
        Index("ix_results_company_change_seq", "company_id", "change_seq"),
        # The same content in one company is booked once per result type: later copies
        # share this result when it answers their documentType (storage/idempotency.py).
        Index(
            "uq_results_company_sha256_type",
            "company_id",
            "sha256",
            "type",
            unique=True,
            sqlite_where=text("deleted_at IS NULL"),
            postgresql_where=text("deleted_at IS NULL"),
        ),
    )


class Batch(Base):
    __tablename__ = "batches"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    company_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("companies.id"))
    external_id: Mapped[str | None] = mapped_column(String(255))
    document_type: Mapped[str] = mapped_column(String(32))
    file_name: Mapped[str] = mapped_column(String(1024))
    sha256: Mapped[str] = mapped_column(String(64))
    size_bytes: Mapped[int] = mapped_column(BigInteger)
    object_key: Mapped[str] = mapped_column(String(255))
    unpack_state: Mapped[str] = mapped_column(String(16))
    error_code: Mapped[str | None] = mapped_column(String(64))
    error_message: Mapped[str | None] = mapped_column(Text)
    attempts: Mapped[int] = mapped_column(default=0)
    # Deaths of the process unpacking this archive (its own fault; capped).
    crashes: Mapped[int] = mapped_column(default=0, server_default="0")
    lease_owner: Mapped[str | None] = mapped_column(String(255))
    lease_expires_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    # Where the batch came from (docs/email.md): "api", or "email" with the message's
    # sender, subject and Message-ID (read from its header when it is unpacked; the
    # envelope sender until then) and the MTA's Authentication-Results.
    source_type: Mapped[str] = mapped_column(String(16), default="api", server_default="api")
    mail_from: Mapped[str | None] = mapped_column(String(1024))
    mail_subject: Mapped[str | None] = mapped_column(String(1024))
    message_id: Mapped[str | None] = mapped_column(String(1024))
    received_at: Mapped[datetime | None]
    authentication_results: Mapped[str | None] = mapped_column(Text)

    __table_args__ = (
        Index(
            "uq_batches_company_external_id",
            "company_id",
            "external_id",
            unique=True,
            sqlite_where=text("external_id IS NOT NULL"),
            postgresql_where=text("external_id IS NOT NULL"),
        ),
        Index(
            "uq_batches_company_content",
            "company_id",
            "sha256",
            "document_type",
            unique=True,
            sqlite_where=text("external_id IS NULL"),
            postgresql_where=text("external_id IS NULL"),
        ),
        Index("ix_batches_company_created", "company_id", "created_at"),
        Index("ix_batches_finished_created", "finished_at", "created_at"),
    )


class Upload(UploadMoves, Base):
    """A document sent to be read. Its status changes through the named moves of
    `UploadMoves` (storage/upload_moves.py), each checked against the transition table."""

    __tablename__ = "uploads"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    company_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("companies.id"))
    batch_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("batches.id"))
    position: Mapped[int | None]
    external_id: Mapped[str | None] = mapped_column(String(255))
    file_name: Mapped[str] = mapped_column(String(1024))
    document_type: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16))
    sha256: Mapped[str] = mapped_column(String(64))
    size_bytes: Mapped[int] = mapped_column(BigInteger)
    object_key: Mapped[str | None] = mapped_column(String(255))
    result_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("results.id"))
    error_code: Mapped[str | None] = mapped_column(String(64))
    error_message: Mapped[str | None] = mapped_column(Text)
    # Everything behind the error code a reader may want: e-invoice findings, for one.
    error_details: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    attempts: Mapped[int] = mapped_column(default=0)
    # Deaths of the process reading this document (its own fault; capped).
    crashes: Mapped[int] = mapped_column(default=0, server_default="0")
    lease_owner: Mapped[str | None] = mapped_column(String(255))
    lease_expires_at: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    __table_args__ = (
        # Idempotency keys, enforced by the database so racing requests create one upload.
        Index(
            "uq_uploads_company_external_id",
            "company_id",
            "external_id",
            unique=True,
            sqlite_where=text("batch_id IS NULL AND external_id IS NOT NULL"),
            postgresql_where=text("batch_id IS NULL AND external_id IS NOT NULL"),
        ),
        Index(
            "uq_uploads_company_content",
            "company_id",
            "sha256",
            "document_type",
            unique=True,
            sqlite_where=text("batch_id IS NULL AND external_id IS NULL"),
            postgresql_where=text("batch_id IS NULL AND external_id IS NULL"),
        ),
        # One upload per archive entry, so an interrupted unpack resumes without doubles.
        Index(
            "uq_uploads_batch_position",
            "batch_id",
            "position",
            unique=True,
            sqlite_where=text("batch_id IS NOT NULL"),
            postgresql_where=text("batch_id IS NOT NULL"),
        ),
        Index("ix_uploads_company_created", "company_id", "created_at"),
        Index("ix_uploads_status_created", "status", "created_at"),
        # The web application's inbox filters, fast at 100,000 uploads per company.
        Index("ix_uploads_company_status_created", "company_id", "status", "created_at"),
        Index("ix_uploads_company_type_created", "company_id", "document_type", "created_at"),
        Index("ix_uploads_result_id", "result_id"),
        # Incremental status-table exports.
        Index("ix_uploads_updated_at", "updated_at"),
        # The retention purge's candidates: deleted uploads that still have stored bytes
        # (purged ones, kept for ever, stay out of it).
        Index(
            "ix_uploads_deleted_with_bytes",
            "id",
            sqlite_where=text("status = 'deleted' AND object_key IS NOT NULL"),
            postgresql_where=text("status = 'deleted' AND object_key IS NOT NULL"),
        ),
    )

    def set_status(self, target: UploadStatus) -> StatusChange:
        """The one way to change `status`: checked against the transition table, and
        returned as a history row for the caller's session to add. The moves call it, and
        a new upload's first status is set with it."""
        current = UploadStatus(self.status) if self.status else None
        check_transition(current, target)
        self.status = target
        self.updated_at = utcnow()
        return StatusChange(
            upload_id=self.id, from_status=current, to_status=target, at=self.updated_at
        )

    def note_event(self, event: HistoryEvent) -> StatusChange:
        """A history row for an event that keeps the status (from and to are the same)."""
        self.updated_at = utcnow()
        return StatusChange(
            upload_id=self.id,
            from_status=self.status,
            to_status=self.status,
            at=self.updated_at,
            event=event,
        )


class StatusChange(Base):
    """Append-only status history, for analysis of durations per state, and the audit
    trail of what happened to an upload (docs/retention.md)."""

    __tablename__ = "status_history"

    id: Mapped[int] = mapped_column(AutoId, primary_key=True, autoincrement=True)
    upload_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("uploads.id"), index=True)
    from_status: Mapped[str | None] = mapped_column(String(16))
    to_status: Mapped[str] = mapped_column(String(16))
    at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    # Null for a status change; an event that leaves the status as it is otherwise:
    # `purged` (a deleted upload's bytes and result data removed, storage/retention.py).
    event: Mapped[str | None] = mapped_column(String(16))


class MailAddress(Base):
    """A company's intake address token (docs/email.md): found by its SHA-256 when mail
    arrives, sealed (storage/secret_box.py) so the settings page can show it. A rotated
    token keeps working until `retired_at`."""

    __tablename__ = "mail_addresses"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    company_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("companies.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    sealed_token: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    retired_at: Mapped[datetime | None]


class User(Base):
    """A person of one company who signs in to the web application."""

    __tablename__ = "users"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    company_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("companies.id"), index=True)
    email: Mapped[str] = mapped_column(String(320), unique=True)  # stored lower-cased
    password_hash: Mapped[str] = mapped_column(String(255))  # argon2id
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_login_at: Mapped[datetime | None]
    # The web application's language the user chose ("de", "en"); None follows the
    # company's locale.
    language: Mapped[str | None] = mapped_column(String(8))


class WebSession(Base):
    """A signed-in browser. The cookie holds a random token; only its SHA-256 is stored."""

    __tablename__ = "web_sessions"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("users.id"), index=True)
    csrf_token: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime]


class LoginAttempt(Base):
    """Failed and successful sign-ins, for rate limiting across API processes."""

    __tablename__ = "login_attempts"

    id: Mapped[int] = mapped_column(AutoId, primary_key=True, autoincrement=True)
    email: Mapped[str] = mapped_column(String(320))
    client: Mapped[str] = mapped_column(String(64))
    succeeded: Mapped[bool] = mapped_column(Boolean)
    at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (
        Index("ix_login_attempts_email_at", "email", "at"),
        Index("ix_login_attempts_client_at", "client", "at"),
    )


class TransactionConfirmation(Base):
    """A bank transaction of a bank-statement result, confirmed and from then on locked.
    `position` is the transaction's index in the result's transaction list."""

    __tablename__ = "transaction_confirmations"

    result_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("results.id"), primary_key=True)
    position: Mapped[int] = mapped_column(primary_key=True)
    confirmed_by: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id"))
    confirmed_at: Mapped[datetime] = mapped_column(default=utcnow)


# The webhook, DATEV and bank account tables are in modules of their own; importing them
# here puts them in the one metadata that migrations and the drift test compare.
from storage import (  # noqa: E402, F401
    approval_models,
    bank_account_models,
    datev_models,
    imap_models,
    payment_match_models,
    search_models,
    vat_confirmation_models,
    webhook_models,
)

"""SQL of the status-table export: which partitions changed, and their rows in chunks.

Rows are streamed (`yield_per`) and turned into polars frames a chunk at a time, so an
export holds one chunk, never a whole table. Ids and timestamps are read in their raw
form and decoded by polars, column at a time: on SQLite a uuid is 32 hex characters and
a timestamp is text, on Postgres they are read as text and as epoch microseconds. This
skips the per-value Python conversions of the ORM types, the bulk of the cost per row.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, Literal

import polars as pl
from sqlalchemy import (
    BigInteger,
    ColumnElement,
    Select,
    String,
    Text,
    case,
    cast,
    func,
    select,
    type_coerce,
    union,
)
from sqlalchemy.orm import Session

from storage.bank_account_models import AccountWarningRow
from storage.models import Batch, Result, StatusChange, Upload
from storage.payment_match_models import PaymentMatchRow
from storage.repositories import (
    bank_accounts,
    invoice_approvals,
    invoice_corrections,
    payment_matches,
    vat_confirmations,
)
from storage.repositories.invoice_approvals import ApprovalStep
from storage.repositories.results import confirmations_of
from storage.states import UploadStatus

Kind = Literal["text", "int", "uuid", "ts", "list"]
"""`list`: a JSON array of strings inside a JSON column, read as its JSON text."""


@dataclass(frozen=True, slots=True, order=True)
class Partition:
    """The rows of one company created on one day (UTC)."""

    company_id: uuid.UUID
    day: date

    @property
    def bounds(self) -> tuple[datetime, datetime]:
        start = datetime.combine(self.day, time(), tzinfo=UTC)
        return start, start + timedelta(days=1)


class _Codec:
    """How one dialect hands out uuids and timestamps, and how polars decodes them."""

    def __init__(self, dialect: str) -> None:
        self.sqlite = dialect == "sqlite"

    def column(self, expression: Any, kind: Kind) -> ColumnElement[Any]:
        if kind == "uuid":
            return type_coerce(expression, String) if self.sqlite else cast(expression, Text)
        if kind == "ts":
            if self.sqlite:
                return type_coerce(expression, String)
            micros = func.extract("epoch", expression) * 1_000_000
            return cast(func.round(micros), BigInteger)
        return type_coerce(expression, BigInteger if kind == "int" else String)

    def raw_dtype(self, kind: Kind) -> pl.DataType:
        if kind == "int" or (kind == "ts" and not self.sqlite):
            return pl.Int64()
        return pl.String()

    def decode(self, name: str, kind: Kind) -> pl.Expr:
        value = pl.col(name)
        if kind == "uuid" and self.sqlite:
            parts = [(0, 8), (8, 4), (12, 4), (16, 4), (20, 12)]
            return pl.concat_str([value.str.slice(a, n) for a, n in parts], separator="-")
        if kind == "ts" and self.sqlite:
            return value.str.to_datetime("%Y-%m-%d %H:%M:%S%.f", time_unit="us", time_zone="UTC")
        if kind == "ts":
            return pl.from_epoch(value, "us").dt.replace_time_zone("UTC")
        if kind == "list":
            return value.str.json_decode(pl.List(pl.String()))
        return value


Spec = Sequence[tuple[str, Any, Kind]]


def _select(codec: _Codec, spec: Spec) -> Select[Any]:
    return select(*(codec.column(expression, kind).label(name) for name, expression, kind in spec))


def _frame(codec: _Codec, spec: Spec, rows: Sequence[Sequence[Any]]) -> pl.DataFrame:
    columns = list(zip(*rows, strict=True)) if rows else [() for _ in spec]
    raw = pl.DataFrame(
        [
            pl.Series(name, list(values), dtype=codec.raw_dtype(kind))
            for (name, _, kind), values in zip(spec, columns, strict=True)
        ]
    )
    return raw.with_columns(codec.decode(name, kind).alias(name) for name, _, kind in spec)


def _stream(
    session: Session, statement: Select[Any], codec: _Codec, spec: Spec, chunk_rows: int
) -> Iterator[pl.DataFrame]:
    # Core rows on the session's connection: the ORM's per-row loading is not needed.
    # Postgres needs a server-side cursor to stream; SQLite's cursor streams as it is
    # (and SQLAlchemy's buffering for stream_results there costs a second per million).
    if not codec.sqlite:
        statement = statement.execution_options(stream_results=True, max_row_buffer=chunk_rows)
    result = session.connection().execute(statement)
    for rows in result.partitions(chunk_rows):
        yield _frame(codec, spec, rows)


def _codec(session: Session) -> _Codec:
    return _Codec(session.get_bind().dialect.name)


def _utc_day(session: Session, column: Any) -> ColumnElement[Any]:
    if _codec(session).sqlite:
        # Stored as 'YYYY-MM-DD HH:MM:SS.ffffff' in UTC (storage.models.UTCDateTime).
        return func.substr(type_coerce(column, String), 1, 10)
    return cast(func.date(func.timezone("UTC", column)), String)


def _partitions(session: Session, statement: Any) -> set[Partition]:
    return {
        Partition(uuid.UUID(str(company_id)), date.fromisoformat(day))
        for company_id, day in session.execute(statement)
    }


def changed_upload_partitions(session: Session, since: datetime | None) -> set[Partition]:
    """Company/day partitions of the uploads changed after `since` (all when None):
    the upload row itself, or a status change of it."""
    day = _utc_day(session, Upload.created_at)
    by_row = select(Upload.company_id, day).distinct()
    if since is None:
        return _partitions(session, by_row)
    by_row = by_row.where(Upload.updated_at > since)
    by_history = (
        select(Upload.company_id, day)
        .distinct()
        .join(StatusChange, StatusChange.upload_id == Upload.id)
        .where(StatusChange.at > since)
    )
    return _partitions(session, union(by_row, by_history))


def changed_batch_partitions(session: Session, since: datetime | None) -> set[Partition]:
    """Company/day partitions of the batches changed after `since` (all when None): the
    batch row, or one of its uploads (which changes the batch's counts and status)."""
    day = _utc_day(session, Batch.created_at)
    by_row = select(Batch.company_id, day).distinct()
    if since is None:
        return _partitions(session, by_row)
    by_row = by_row.where(Batch.updated_at > since)
    by_upload = (
        select(Batch.company_id, day)
        .distinct()
        .join(Upload, Upload.batch_id == Batch.id)
        .where(Upload.updated_at > since)
    )
    return _partitions(session, union(by_row, by_upload))


def changed_since(session: Session, since: datetime) -> bool:
    """Whether an upload, its status or a batch changed after `since`: the pipeline
    run's cheap look before it exports (indexes `ix_uploads_updated_at`,
    `ix_status_history_at`; the batches table is a hundredth of the uploads). Results
    change with their upload, except in the web application (deleted, confirmed):
    those wait for the scheduled deployment."""
    checks = (
        select(Upload.id).where(Upload.updated_at > since),
        select(StatusChange.id).where(StatusChange.at > since),
        select(Batch.id).where(Batch.updated_at > since),
    )
    return any(session.scalar(check.limit(1)) is not None for check in checks)


def _in_partition(column: Any, company_column: Any, partition: Partition) -> list[Any]:
    start, end = partition.bounds
    return [company_column == partition.company_id, column >= start, column < end]


UPLOAD_COLUMNS: Spec = (
    ("upload_id", Upload.id, "uuid"),
    ("batch_id", Upload.batch_id, "uuid"),
    ("external_id", Upload.external_id, "text"),
    ("file_name", Upload.file_name, "text"),
    ("document_type", Upload.document_type, "text"),
    ("status", Upload.status, "text"),
    ("result_type", Result.type, "text"),
    ("result_id", Upload.result_id, "uuid"),
    ("hybrid_mismatches", Result.data[("hybridCheck", "mismatches")].as_string(), "list"),
    ("error_code", Upload.error_code, "text"),
    ("error_message", Upload.error_message, "text"),
    ("size_bytes", Upload.size_bytes, "int"),
    ("sha256", Upload.sha256, "text"),
    ("attempts", Upload.attempts, "int"),
    ("created_at", Upload.created_at, "ts"),
    ("updated_at", Upload.updated_at, "ts"),
)


def stream_uploads(
    session: Session, partition: Partition, chunk_rows: int
) -> Iterator[pl.DataFrame]:
    """The partition's uploads with their result type, in creation order."""
    codec = _codec(session)
    statement = (
        _select(codec, UPLOAD_COLUMNS)
        .select_from(Upload)
        .outerjoin(Result, Result.id == Upload.result_id)
        .where(*_in_partition(Upload.created_at, Upload.company_id, partition))
        .order_by(Upload.created_at, Upload.id)
    )
    return _stream(session, statement, codec, UPLOAD_COLUMNS, chunk_rows)


HISTORY_COLUMNS: Spec = (
    ("history_id", StatusChange.id, "int"),
    ("upload_id", StatusChange.upload_id, "uuid"),
    ("from_status", StatusChange.from_status, "text"),
    ("to_status", StatusChange.to_status, "text"),
    ("at", StatusChange.at, "ts"),
)


def stream_history(
    session: Session, partition: Partition, chunk_rows: int
) -> Iterator[pl.DataFrame]:
    """The status changes of the partition's uploads; one upload's changes are
    consecutive and in the order they happened."""
    codec = _codec(session)
    statement = (
        _select(codec, HISTORY_COLUMNS)
        .select_from(Upload)
        .join(StatusChange, StatusChange.upload_id == Upload.id)
        .where(*_in_partition(Upload.created_at, Upload.company_id, partition))
        .order_by(Upload.created_at, Upload.id, StatusChange.id)
    )
    return _stream(session, statement, codec, HISTORY_COLUMNS, chunk_rows)


def _status_count(status: UploadStatus) -> Any:
    return func.coalesce(func.sum(case((Upload.status == status, 1), else_=0)), 0)


BATCH_COLUMNS: Spec = (
    ("batch_id", Batch.id, "uuid"),
    ("external_id", Batch.external_id, "text"),
    ("document_type", Batch.document_type, "text"),
    ("file_name", Batch.file_name, "text"),
    ("size_bytes", Batch.size_bytes, "int"),
    ("unpack_state", Batch.unpack_state, "text"),
    ("error_code", Batch.error_code, "text"),
    ("error_message", Batch.error_message, "text"),
    ("attempts", Batch.attempts, "int"),
    ("created_at", Batch.created_at, "ts"),
    ("finished_at", Batch.finished_at, "ts"),
    ("updated_at", Batch.updated_at, "ts"),
    ("source_type", Batch.source_type, "text"),
    ("mail_from", Batch.mail_from, "text"),
    ("mail_subject", Batch.mail_subject, "text"),
    ("message_id", Batch.message_id, "text"),
    ("received_at", Batch.received_at, "ts"),
    *((status.value, _status_count(status), "int") for status in UploadStatus),
)


def batches_in(session: Session, partition: Partition) -> pl.DataFrame:
    """The partition's batches with their uploads counted by status (a few batches per
    company and day: read at once)."""
    codec = _codec(session)
    statement = (
        _select(codec, BATCH_COLUMNS)
        .select_from(Batch)
        .outerjoin(Upload, Upload.batch_id == Batch.id)
        .where(*_in_partition(Batch.created_at, Batch.company_id, partition))
        .group_by(Batch.id)
        .order_by(Batch.created_at, Batch.id)
    )
    return _frame(codec, BATCH_COLUMNS, session.connection().execute(statement).all())


# --- what was read: the result tables ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class StoredResult:
    id: uuid.UUID
    type: str
    data: dict[str, Any]
    created_at: datetime
    updated_at: datetime
    confirmed_at: dict[int, datetime]
    """A statement's confirmed transactions: when, by position."""
    account_warnings: tuple[AccountWarningRow, ...] = ()  # an invoice's
    payment_matches: tuple[PaymentMatchRow, ...] = ()  # a statement's
    approval: ApprovalStep | None = None  # an invoice's, in force
    corrected_fields: tuple[str, ...] = ()  # an invoice's; `data` has them applied
    vat_confirmations: tuple[dict[str, Any], ...] = ()  # an invoice's, latest first


def changed_result_partitions(session: Session, since: datetime | None) -> set[Partition]:
    """Company/day partitions of the results made, deleted or confirmed after `since`
    (all when None); `updated_at` is set at every change (storage/result_changes.py)."""
    statement = select(Result.company_id, _utc_day(session, Result.created_at)).distinct()
    if since is not None:
        statement = statement.where(Result.updated_at > since)
    return _partitions(session, statement)


def results_in(
    session: Session, partition: Partition, chunk_rows: int
) -> Iterator[list[StoredResult]]:
    """The live results of a partition in the order they were made, in chunks."""
    statement = (
        select(Result)
        .where(*_in_partition(Result.created_at, Result.company_id, partition))
        .where(Result.deleted_at.is_(None))
        .order_by(Result.created_at, Result.id)
        .execution_options(yield_per=chunk_rows)
    )
    for rows in session.scalars(statement).partitions(chunk_rows):
        confirmed = confirmations_of(session, [r.id for r in rows if r.type == "bank_statement"])
        warnings = bank_accounts.warnings_of_results(
            session, [r.id for r in rows if r.type == "invoice"]
        )
        statements = [r.id for r in rows if r.type == "bank_statement"]
        matches = payment_matches.matches_of_results(session, statements)
        invoices = [r.id for r in rows if r.type == "invoice"]
        approvals = invoice_approvals.approvals_of(session, invoices)
        corrections = invoice_corrections.corrections_of(session, invoices)
        confirmations = vat_confirmations.confirmations_of_results(session, invoices)
        yield [
            StoredResult(
                r.id,
                r.type,
                invoice_corrections.corrected_data(r.data, corrections.get(r.id, [])),
                r.created_at,
                r.updated_at or r.created_at,
                confirmed.get(r.id, {}),
                tuple(warnings.get(r.id, ())),
                tuple(m for m in matches.get(r.id, ()) if m.statement_result_id == r.id),
                approvals.get(r.id),
                tuple(dict.fromkeys(c.field for c in corrections.get(r.id, []))),
                tuple(confirmations.get(r.id, ())),
            )
            for r in rows
        ]

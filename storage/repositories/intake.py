"""A new single upload, queued and announced, in two statements (one on Postgres): the
API's intake path.

`POST /v1/uploads` inserts the upload and its first history row. Through the ORM (a
look-up first, a savepoint, two flushes) that was about 2 ms of the API's CPU a POST,
close to half of it (docs/throughput.md, "API cost of a single upload"). Here the unique
indexes of the idempotency keys still decide (storage/idempotency.py): the insert does
nothing when one of them already holds the content or the externalId, and the caller
then finds that upload. No check-then-insert, no savepoint.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from sqlalchemy import Connection, bindparam, insert, text
from sqlalchemy.orm import Session

from storage import work_news
from storage.models import StatusChange, Upload, utcnow
from storage.repositories.news import announce_work
from storage.repositories.upload_views import UploadView
from storage.states import UploadStatus, check_transition

# The columns a new upload is given; the others are NULL.
_COLUMNS = (
    "id",
    "company_id",
    "external_id",
    "file_name",
    "document_type",
    "status",
    "sha256",
    "size_bytes",
    "object_key",
    "attempts",
    "crashes",
    "created_at",
    "updated_at",
)
_uploads = Upload.__table__
# ON CONFLICT DO NOTHING, without a target: any unique index (the two idempotency keys
# are partial ones) turns the insert into nothing, and RETURNING says whether a row was
# inserted. It leaves NOT NULL, CHECK and foreign keys alone on both databases, unlike
# SQLite's INSERT OR IGNORE. Text with typed parameters (the columns' own types, so
# UUIDs and times are bound as the ORM binds them), the same on both databases:
# SQLAlchemy's dialect inserts with ON CONFLICT are never cached, and compiling one
# again for every request cost as much as the rest of the insert.
_INSERT = (
    f"INSERT INTO {Upload.__tablename__} ({', '.join(_COLUMNS)})"
    f" VALUES ({', '.join(':' + name for name in _COLUMNS)})"
    " ON CONFLICT DO NOTHING RETURNING id"
)
_TYPED = [bindparam(name, type_=_uploads.c[name].type) for name in _COLUMNS]
_NEW_UPLOAD = text(_INSERT).bindparams(*_TYPED)
# Postgres: the upload, its history row and the news (delivered at commit, like the
# rows) in one statement, one round trip instead of three (each 0.13-0.16 ms of the
# API's CPU, and a wake-up of the API and of Postgres).
_NEW_UPLOAD_ANNOUNCED = text(
    f"WITH new AS ({_INSERT}),"
    f" history AS (INSERT INTO {StatusChange.__tablename__}"
    " (upload_id, from_status, to_status, at) SELECT id, NULL, :status, :created_at FROM new)"
    f" SELECT id, pg_notify({work_news.CHANNEL_SQL}, :kind) FROM new"
).bindparams(*_TYPED, bindparam("kind"))
_FIRST_HISTORY = insert(StatusChange)


@dataclass(frozen=True, slots=True)
class NewUpload:
    company_id: uuid.UUID
    file_name: str
    document_type: str
    external_id: str | None
    sha256: str
    size_bytes: int
    object_key: str


def insert_queued(session: Session, new: NewUpload) -> UploadView | None:
    """Insert the upload as `queued` with its history row, and announce it (news of a
    single upload, sent if the transaction commits); None when an idempotency key is
    already taken (nothing was written or announced)."""
    connection = session.connection()
    view = insert_queued_rows(connection, new)
    if view is not None and connection.dialect.name != "postgresql":
        announce_work(session, work_news.SINGLE)
    return view


def insert_queued_rows(connection: Connection, new: NewUpload) -> UploadView | None:
    """`insert_queued` in the connection's transaction, without an ORM session. On
    Postgres the news goes with the rows (delivered at commit); on SQLite the caller
    sends it once the transaction has committed (`announce_committed`)."""
    check_transition(None, UploadStatus.QUEUED)
    on_postgres = connection.dialect.name == "postgresql"
    upload_id, now = uuid.uuid4(), utcnow()
    inserted = connection.execute(
        _NEW_UPLOAD_ANNOUNCED if on_postgres else _NEW_UPLOAD,
        {
            "kind": work_news.SINGLE,
            "id": upload_id,
            "company_id": new.company_id,
            "external_id": new.external_id,
            "file_name": new.file_name,
            "document_type": new.document_type,
            "status": UploadStatus.QUEUED.value,
            "sha256": new.sha256,
            "size_bytes": new.size_bytes,
            "object_key": new.object_key,
            "attempts": 0,
            "crashes": 0,
            "created_at": now,
            "updated_at": now,
        },
    )
    if inserted.first() is None:  # (rowcount is not told for an INSERT on psycopg)
        return None
    if not on_postgres:
        history = {"upload_id": upload_id, "to_status": UploadStatus.QUEUED.value, "at": now}
        connection.execute(_FIRST_HISTORY, {"from_status": None, **history})
    return UploadView(
        id=upload_id,
        batch_id=None,
        external_id=new.external_id,
        file_name=new.file_name,
        document_type=new.document_type,
        status=UploadStatus.QUEUED.value,
        error_code=None,
        error_message=None,
        created_at=now,
        result_id=None,
        result_type=None,
    )

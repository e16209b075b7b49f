from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from storage.models import Batch, Upload
from storage.states import UploadStatus


def get_batch(session: Session, company_id: uuid.UUID, batch_id: uuid.UUID) -> Batch | None:
    statement = select(Batch).where(Batch.id == batch_id, Batch.company_id == company_id)
    return session.scalars(statement).one_or_none()


def find_by_external_id(session: Session, company_id: uuid.UUID, external_id: str) -> Batch | None:
    statement = select(Batch).where(
        Batch.company_id == company_id, Batch.external_id == external_id
    )
    return session.scalars(statement).one_or_none()


def find_by_content(
    session: Session, company_id: uuid.UUID, sha256: str, document_type: str
) -> Batch | None:
    statement = select(Batch).where(
        Batch.company_id == company_id,
        Batch.external_id.is_(None),
        Batch.sha256 == sha256,
        Batch.document_type == document_type,
    )
    return session.scalars(statement).one_or_none()


def add_batch(session: Session, batch: Batch) -> None:
    session.add(batch)
    session.flush()


def count_uploads(session: Session, batch_id: uuid.UUID) -> int:
    statement = select(func.count()).select_from(Upload).where(Upload.batch_id == batch_id)
    return int(session.scalar(statement) or 0)


def batches_page(
    session: Session,
    company_id: uuid.UUID,
    limit: int,
    older_than: tuple[datetime, uuid.UUID] | None = None,
) -> list[Batch]:
    """The company's batches, newest first, keyset-paged on (created_at, id)."""
    statement = select(Batch).where(Batch.company_id == company_id)
    if older_than is not None:
        created_at, batch_id = older_than
        statement = statement.where(
            Batch.created_at <= created_at,
            or_(Batch.created_at < created_at, Batch.id < batch_id),
        )
    statement = statement.order_by(Batch.created_at.desc(), Batch.id.desc()).limit(limit)
    return list(session.scalars(statement))


def status_counts_of(
    session: Session, batch_ids: list[uuid.UUID]
) -> dict[uuid.UUID, dict[str, int]]:
    """Counts like `upload_views.status_counts`, for several batches in one grouped query."""
    counts = {batch_id: {status.value: 0 for status in UploadStatus} for batch_id in batch_ids}
    if not batch_ids:
        return counts
    statement = (
        select(Upload.batch_id, Upload.status, func.count())
        .where(Upload.batch_id.in_(batch_ids))
        .group_by(Upload.batch_id, Upload.status)
    )
    for batch_id, status, count in session.execute(statement):
        if batch_id is not None:
            counts[batch_id][status] = int(count)
    for batch_counts in counts.values():
        batch_counts["total"] = sum(batch_counts.values())
    return counts


def file_names(
    session: Session, company_id: uuid.UUID, batch_ids: set[uuid.UUID]
) -> dict[uuid.UUID, str]:
    if not batch_ids:
        return {}
    statement = select(Batch.id, Batch.file_name).where(
        Batch.company_id == company_id, Batch.id.in_(batch_ids)
    )
    return {batch_id: name for batch_id, name in session.execute(statement)}


MAX_NAME = 60  # characters of a name in the batch filter's list


@dataclass(frozen=True, slots=True)
class BatchChoice:
    """A batch as the inbox's batch filter offers it: by name and date, not by id."""

    id: uuid.UUID
    file_name: str
    source_type: str
    mail_subject: str | None
    created_at: datetime

    @property
    def name(self) -> str:
        """A mail batch by its subject (its file name when it has none), an archive by
        its file name."""
        name = self.file_name
        if self.source_type == "email" and self.mail_subject:
            name = self.mail_subject
        return name if len(name) <= MAX_NAME else name[: MAX_NAME - 1] + "…"


def batch_choices(
    session: Session, company_id: uuid.UUID, limit: int, chosen: uuid.UUID | None = None
) -> list[BatchChoice]:
    """The company's `limit` newest batches (ix_batches_company_created), and the chosen
    one when it is older, newest first."""
    columns = (Batch.id, Batch.file_name, Batch.source_type, Batch.mail_subject, Batch.created_at)
    statement = (
        select(*columns)
        .where(Batch.company_id == company_id)
        .order_by(Batch.created_at.desc(), Batch.id.desc())
        .limit(limit)
    )
    choices = [BatchChoice(*row) for row in session.execute(statement)]
    if chosen is not None and all(choice.id != chosen for choice in choices):
        own = select(*columns).where(Batch.id == chosen, Batch.company_id == company_id)
        choices += [BatchChoice(*row) for row in session.execute(own)]
    return choices

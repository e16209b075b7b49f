"""DATEV export tables: each export (who, when, which period and format) and the
results it held, so a result exported again is marked as such (docs/datev.md).
Imported at the end of storage/models.py, like the webhook tables."""

from __future__ import annotations

import uuid
from datetime import date, datetime

from sqlalchemy import Boolean, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from storage.models import Base, utcnow


class DatevExport(Base):
    """One export. `user_id` for the web application, `api_key_id` for the API."""

    __tablename__ = "datev_exports"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    company_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("companies.id"))
    user_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id"))
    api_key_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("api_keys.id"))
    format: Mapped[str] = mapped_column(String(16))
    period_from: Mapped[date]
    period_to: Mapped[date]
    included_held: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (Index("ix_datev_exports_company_created", "company_id", "created_at"),)


class DatevExportResult(Base):
    """A result an export held. No foreign key to `results`: the record outlives the
    purge of a deleted result (storage/retention.py), as a record of what was sent."""

    __tablename__ = "datev_export_results"

    export_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("datev_exports.id"), primary_key=True)
    result_id: Mapped[uuid.UUID] = mapped_column(primary_key=True)

    __table_args__ = (Index("ix_datev_export_results_result", "result_id"),)

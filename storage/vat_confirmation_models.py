"""Online confirmations of foreign VAT ids (issue 42, part 2): each answer of eVatR or
VIES kept as proof with the invoice result it was asked for, and found again as the
cache for the same question within the configured time. Imported at the end of
storage/models.py, so the one metadata holds the table too.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from storage.models import Base, utcnow


class VatConfirmationRow(Base):
    __tablename__ = "vat_confirmations"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    company_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("companies.id"))
    result_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("results.id", ondelete="CASCADE"))
    party: Mapped[str] = mapped_column(String(8))  # seller or buyer
    query_key: Mapped[str] = mapped_column(String(500))  # VatQuery.key
    service: Mapped[str] = mapped_column(String(8))
    confirmed: Mapped[str] = mapped_column(String(16))
    answer: Mapped[dict[str, Any]] = mapped_column(JSON)  # VatAnswer.as_json()
    answered_at: Mapped[datetime] = mapped_column(default=utcnow)  # when the service answered
    cached: Mapped[bool] = mapped_column(default=False)  # copied from an earlier answer
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (
        Index("ix_vat_confirmations_result", "result_id"),
        Index("ix_vat_confirmations_cache", "company_id", "query_key", "answered_at"),
    )

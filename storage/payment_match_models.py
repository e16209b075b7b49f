"""Payments matched to invoices (issue 42, part 4): a confirmed statement transaction
proposed as (part of) the payment of an invoice, with its score and reasons, and the
accountant's decision. Goes with either result when it is purged (ON DELETE CASCADE).
Imported at the end of storage/models.py, so the one metadata holds the table too.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from decimal import Decimal
from enum import StrEnum

from sqlalchemy import JSON, ForeignKey, Index, Numeric, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from storage.models import Base, utcnow


class MatchStatus(StrEnum):
    PROPOSED = "proposed"
    ACCEPTED = "accepted"
    REJECTED = "rejected"


class PaymentMatchRow(Base):
    __tablename__ = "payment_matches"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    company_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("companies.id"))
    statement_result_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("results.id", ondelete="CASCADE")
    )
    position: Mapped[int]  # the transaction's position in its statement
    invoice_result_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("results.id", ondelete="CASCADE")
    )
    amount: Mapped[Decimal] = mapped_column(Numeric(18, 2))  # the part paying this invoice
    score: Mapped[int]
    reasons: Mapped[list[str]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), default=MatchStatus.PROPOSED.value)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    decided_by: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id"))
    decided_at: Mapped[datetime | None]

    __table_args__ = (
        UniqueConstraint(
            "statement_result_id", "position", "invoice_result_id", name="uq_payment_matches_pair"
        ),
        Index("ix_payment_matches_invoice", "invoice_result_id"),
        Index("ix_payment_matches_company_status", "company_id", "status"),
    )

"""Invoices approved in the web application (issue 43): every approval and every
withdrawal is a row of its own, so the trail of who approved or withdrew when stays.
An invoice is approved when its latest row approves. Goes with the result when that is
purged (ON DELETE CASCADE). Imported at the end of storage/models.py, so the one
metadata holds the table too.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import ForeignKey, Index
from sqlalchemy.orm import Mapped, mapped_column

from storage.models import Base, utcnow


class InvoiceApprovalRow(Base):
    __tablename__ = "invoice_approvals"
    __table_args__ = (Index("ix_invoice_approvals_result", "result_id", "at"),)

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    result_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("results.id", ondelete="CASCADE"))
    approved: Mapped[bool]  # False: an earlier approval was withdrawn
    user_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id"))
    at: Mapped[datetime] = mapped_column(default=utcnow)

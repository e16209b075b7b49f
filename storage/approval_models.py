"""Invoices approved and corrected in the web application (issue 43): every approval,
withdrawal and correction is a row of its own, so the trail of who did what when stays.
An invoice is approved when its latest row approves. Notes (annotations) on an invoice,
an e-invoice above all, whose XML is the original and is never edited, are rows too.
All go with the result when that is purged (ON DELETE CASCADE). Imported at the end of
storage/models.py, so the one metadata holds the tables too.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import ForeignKey, Index, String, Text
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


class InvoiceCorrectionRow(Base):
    """One correction of a field of a PDF invoice (storage/correction_fields.py): the
    value before (the extraction's, or the previous correction's) and after, who and
    when. The stored extraction itself is never changed: the GoBD audit trail."""

    __tablename__ = "invoice_corrections"
    __table_args__ = (Index("ix_invoice_corrections_result", "result_id", "at"),)

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    result_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("results.id", ondelete="CASCADE"))
    field: Mapped[str] = mapped_column(String(32))
    old_value: Mapped[str | None] = mapped_column(Text)
    new_value: Mapped[str | None] = mapped_column(Text)
    user_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id"))
    at: Mapped[datetime] = mapped_column(default=utcnow)


ANNOTATION_MAX_CHARS = 2_000


class InvoiceAnnotationRow(Base):
    """A note on an invoice (issue 43): the text, who and when. Notes are only ever
    added; the document and its data stay as read."""

    __tablename__ = "invoice_annotations"
    __table_args__ = (Index("ix_invoice_annotations_result", "result_id", "at"),)

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    result_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("results.id", ondelete="CASCADE"))
    user_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id"))
    at: Mapped[datetime] = mapped_column(default=utcnow)
    text: Mapped[str] = mapped_column(String(ANNOTATION_MAX_CHARS))


class UploadReclassificationRow(Base):
    """One "read this again as ..." of an upload (issue 43): what it was read as before
    (`from_type`: a result type), what it is to be read as now (`to_type`: a document
    type), who and when. The upload keeps its rows for good."""

    __tablename__ = "upload_reclassifications"
    __table_args__ = (Index("ix_upload_reclassifications_upload", "upload_id", "at"),)

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    upload_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("uploads.id", ondelete="CASCADE"))
    from_type: Mapped[str] = mapped_column(String(32))
    to_type: Mapped[str] = mapped_column(String(32))
    user_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id"))
    at: Mapped[datetime] = mapped_column(default=utcnow)

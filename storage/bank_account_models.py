"""Supplier bank accounts (issue 42, part 3): the accounts each supplier invoice asked to
be paid into, and the warnings about them that an accountant confirms or dismisses.

Both hang on their invoice's result and go with it when a deleted result is purged
(ON DELETE CASCADE). A deleted but not yet purged result's accounts no longer count as
seen (storage/repositories/bank_accounts.py asks for live results only). Imported at the
end of storage/models.py, so the one metadata holds these tables too.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from enum import StrEnum

from sqlalchemy import JSON, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from storage.models import AutoId, Base, utcnow

SUPPLIER_KEY_LENGTH = 210  # "name:" and 200 characters (processors/bank_accounts.py)


class Decision(StrEnum):
    CONFIRMED = "confirmed"  # the account was checked with the supplier: it is theirs
    DISMISSED = "dismissed"  # the warning does not apply (a known second account, ...)


class PayeeAccount(Base):
    """An IBAN a supplier invoice asked to be paid into."""

    __tablename__ = "payee_accounts"

    id: Mapped[int] = mapped_column(AutoId, primary_key=True, autoincrement=True)
    company_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("companies.id"))
    result_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("results.id", ondelete="CASCADE"))
    supplier_key: Mapped[str] = mapped_column(String(SUPPLIER_KEY_LENGTH))
    iban: Mapped[str] = mapped_column(String(34))
    seen_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (
        Index("ix_payee_accounts_company_supplier", "company_id", "supplier_key"),
        Index("ix_payee_accounts_result_id", "result_id"),
    )


class AccountWarningRow(Base):
    """A warning about an invoice's account: new for the supplier, or of another
    country. `decision` None: open; else who decided and when."""

    __tablename__ = "bank_account_warnings"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, default=uuid.uuid4)
    company_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("companies.id"))
    result_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("results.id", ondelete="CASCADE"))
    supplier_key: Mapped[str] = mapped_column(String(SUPPLIER_KEY_LENGTH))
    iban: Mapped[str] = mapped_column(String(34))
    reason: Mapped[str] = mapped_column(String(16))  # processors.bank_accounts.AccountWarning
    supplier_country: Mapped[str | None] = mapped_column(String(2))
    known_ibans: Mapped[list[str]] = mapped_column(JSON)  # seen before for the supplier
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    decision: Mapped[str | None] = mapped_column(String(16))
    decided_by: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("users.id"))
    decided_at: Mapped[datetime | None]

    __table_args__ = (Index("ix_bank_account_warnings_result_id", "result_id"),)

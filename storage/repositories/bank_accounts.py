"""Supplier bank account changes (issue 42, part 3): the IBANs each supplier invoice
asked to be paid into, compared with those of the supplier's earlier invoices of the
same company, and the accountant's decision on each warning.

`note_invoice` runs where an invoice's result is booked (flows/recorder.py), in the same
transaction, in the order results are booked: an invoice is compared with those booked
before it. Nothing here commits.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from sqlalchemy import exists, select, update
from sqlalchemy.orm import Session

from processors.bank_accounts import (
    account_warnings,
    payee_ibans,
    supplier_country,
    supplier_key,
)
from processors.base import DocumentType
from processors.json_fields import ResultShapeError
from processors.results.invoice import InvoiceResult
from storage.bank_account_models import AccountWarningRow, Decision, PayeeAccount
from storage.models import Result, utcnow
from storage.result_changes import note_changed


def note_invoice(
    session: Session, company_id: uuid.UUID, result_id: uuid.UUID, data: Mapping[str, Any]
) -> list[AccountWarningRow]:
    """Keep a supplier invoice's IBANs and warn about the suspicious ones; returns the
    warnings added. Noting the same result again adds nothing."""
    invoice = _supplier_invoice(data)
    if invoice is None:
        return []
    key = supplier_key(invoice.invoice.seller)
    ibans = payee_ibans(invoice.invoice)
    if key is None or not ibans or _noted(session, result_id):
        return []
    known = known_ibans(session, company_id, key)
    country = supplier_country(invoice.invoice.seller)
    warnings = [
        AccountWarningRow(
            id=uuid.uuid4(),
            company_id=company_id,
            result_id=result_id,
            supplier_key=key,
            iban=iban,
            reason=reason.value,
            supplier_country=country,
            known_ibans=sorted(known),
        )
        for iban in ibans
        for reason in account_warnings(iban, known, country)
    ]
    session.add_all(
        PayeeAccount(company_id=company_id, result_id=result_id, supplier_key=key, iban=iban)
        for iban in ibans
    )
    session.add_all(warnings)
    session.flush()
    return warnings


def known_ibans(session: Session, company_id: uuid.UUID, key: str) -> set[str]:
    """The IBANs the supplier's live invoices of this company asked to be paid into."""
    statement = (
        select(PayeeAccount.iban)
        .join(Result, Result.id == PayeeAccount.result_id)
        .where(
            PayeeAccount.company_id == company_id,
            PayeeAccount.supplier_key == key,
            Result.deleted_at.is_(None),
        )
        .distinct()
    )
    return set(session.scalars(statement))


def warnings_of(session: Session, result_id: uuid.UUID) -> list[AccountWarningRow]:
    statement = (
        select(AccountWarningRow)
        .where(AccountWarningRow.result_id == result_id)
        .order_by(AccountWarningRow.created_at, AccountWarningRow.iban, AccountWarningRow.reason)
    )
    return list(session.scalars(statement))


def warnings_of_results(
    session: Session, result_ids: list[uuid.UUID]
) -> dict[uuid.UUID, list[AccountWarningRow]]:
    found: dict[uuid.UUID, list[AccountWarningRow]] = {}
    if not result_ids:
        return found
    statement = (
        select(AccountWarningRow)
        .where(AccountWarningRow.result_id.in_(result_ids))
        .order_by(AccountWarningRow.created_at, AccountWarningRow.iban, AccountWarningRow.reason)
    )
    for row in session.scalars(statement):
        found.setdefault(row.result_id, []).append(row)
    return found


def decide(
    session: Session,
    company_id: uuid.UUID,
    warning_id: uuid.UUID,
    decision: Decision,
    user_id: uuid.UUID | None,
) -> AccountWarningRow | None:
    """Confirm or dismiss an open warning of the company's live invoice; the first
    decision stands (who and when), also when two requests race. None: no such warning."""
    warning = _warning(session, company_id, warning_id)
    if warning is None:
        return None
    session.execute(
        update(AccountWarningRow)
        .where(AccountWarningRow.id == warning_id, AccountWarningRow.decision.is_(None))
        .values(decision=decision.value, decided_by=user_id, decided_at=utcnow())
        .execution_options(synchronize_session=False)
    )
    session.refresh(warning)
    result = session.get(Result, warning.result_id)
    if result is not None:
        note_changed(session, result)  # the result's answer carries its warnings
    return warning


def _warning(
    session: Session, company_id: uuid.UUID, warning_id: uuid.UUID
) -> AccountWarningRow | None:
    statement = (
        select(AccountWarningRow)
        .join(Result, Result.id == AccountWarningRow.result_id)
        .where(
            AccountWarningRow.id == warning_id,
            AccountWarningRow.company_id == company_id,
            Result.deleted_at.is_(None),
        )
    )
    return session.scalars(statement).one_or_none()


def _noted(session: Session, result_id: uuid.UUID) -> bool:
    return bool(session.scalar(select(exists().where(PayeeAccount.result_id == result_id))))


def _supplier_invoice(data: Mapping[str, Any]) -> InvoiceResult | None:
    if data.get("direction") != DocumentType.SUPPLIER_INVOICE.value:
        return None
    try:
        return InvoiceResult.from_dict(data)
    except ResultShapeError:
        return None

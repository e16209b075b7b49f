"""Payments matched to invoices (issue 42, part 4): the confirmed transactions of a
statement against the company's open invoices (processors/payment_matching.py decides),
the proposals kept with their score and reasons, and the accountant's decisions.

`match_statement` runs in the transaction that confirms transactions
(storage/repositories/web_results.py): the matches exist as soon as the confirmation
does. A pair once rejected is not proposed again; an invoice's open amount is its
amount due less what proposed and accepted matches already pay. Nothing here commits.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import TypeVar

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from processors.bank_accounts import payee_ibans
from processors.base import DocumentType, ResultType
from processors.invoice_model import InvoiceType
from processors.json_fields import ResultShapeError
from processors.payment_matching import OpenInvoice, Payment, match_payments
from processors.results import BankStatementResult, InvoiceResult
from storage.models import Result, TransactionConfirmation, utcnow
from storage.payment_match_models import MatchStatus, PaymentMatchRow
from storage.result_changes import note_changed

_T = TypeVar("_T", InvoiceResult, BankStatementResult)
_PAYING = (MatchStatus.PROPOSED.value, MatchStatus.ACCEPTED.value)


@dataclass(frozen=True, slots=True)
class MatchRef:
    """A match with what a page shows of its other side."""

    row: PaymentMatchRow
    statement_number: str | None
    booking_date: str | None
    invoice_number: str | None


def match_statement(session: Session, statement: Result) -> list[PaymentMatchRow]:
    """Propose invoices for the statement's confirmed transactions that have none;
    returns the proposals added."""
    typed = _typed(statement, BankStatementResult)
    if typed is None:
        return []
    confirmed = set(
        session.scalars(
            select(TransactionConfirmation.position).where(
                TransactionConfirmation.result_id == statement.id
            )
        )
    )
    existing = _rows(session, PaymentMatchRow.statement_result_id == statement.id)
    taken = {r.position for r in existing if r.status in _PAYING}
    rejected = {(r.position, r.invoice_result_id) for r in existing if r.status == "rejected"}
    payments = [
        Payment(
            (str(statement.id), position),
            transaction.amount,
            transaction.currency or typed.statement.currency,
            transaction.booking_date or transaction.value_date,
            transaction.counterparty_name,
            transaction.counterparty_iban,
            transaction.purpose,
        )
        for position, transaction in enumerate(typed.transactions)
        if position in confirmed and position not in taken
    ]
    if not payments:
        return []
    invoices = open_invoices(session, statement.company_id)
    added = []
    for match in match_payments(payments, invoices):
        invoice_id = uuid.UUID(match.invoice)
        if (match.payment[1], invoice_id) in rejected:
            continue
        added.append(
            PaymentMatchRow(
                id=uuid.uuid4(),
                company_id=statement.company_id,
                statement_result_id=statement.id,
                position=match.payment[1],
                invoice_result_id=invoice_id,
                amount=match.amount,
                score=match.score,
                reasons=[reason.value for reason in match.reasons],
                status=MatchStatus.PROPOSED.value,
            )
        )
    session.add_all(added)
    session.flush()
    _note(session, {statement.id} | {row.invoice_result_id for row in added})
    return added


def open_invoices(session: Session, company_id: uuid.UUID) -> list[OpenInvoice]:
    """The company's live invoices with something left to pay."""
    results = session.scalars(
        select(Result).where(
            Result.company_id == company_id,
            Result.type == ResultType.INVOICE.value,
            Result.deleted_at.is_(None),
        )
    )
    paid: dict[uuid.UUID, Decimal] = {}
    for row in _rows(session, PaymentMatchRow.company_id == company_id):
        if row.status in _PAYING:
            paid[row.invoice_result_id] = paid.get(row.invoice_result_id, Decimal(0)) + row.amount
    found = []
    for result in results:
        typed = _typed(result, InvoiceResult)
        if typed is None:
            continue
        invoice = typed.invoice
        due = invoice.totals.amount_due or invoice.totals.gross
        if due is None:
            continue
        supplier = typed.direction is DocumentType.SUPPLIER_INVOICE
        credit = invoice.invoice_type is InvoiceType.CREDIT_NOTE
        party = invoice.seller if supplier else invoice.buyer
        found.append(
            OpenInvoice(
                key=str(result.id),
                outgoing=supplier != credit,
                number=invoice.number,
                issue_date=invoice.issue_date,
                open_amount=abs(due) - paid.get(result.id, Decimal(0)),
                currency=invoice.currency,
                party_name=party.name,
                party_ibans=payee_ibans(invoice) if supplier else (),
            )
        )
    return found


def matches_of_invoice(session: Session, invoice_id: uuid.UUID) -> list[MatchRef]:
    return _refs(session, _rows(session, PaymentMatchRow.invoice_result_id == invoice_id))


def matches_of_statement(session: Session, statement_id: uuid.UUID) -> list[MatchRef]:
    return _refs(session, _rows(session, PaymentMatchRow.statement_result_id == statement_id))


def matches_of_results(
    session: Session, result_ids: Iterable[uuid.UUID]
) -> dict[uuid.UUID, list[PaymentMatchRow]]:
    """Every match touching the results, keyed by each result it touches."""
    ids = list(result_ids)
    found: dict[uuid.UUID, list[PaymentMatchRow]] = {}
    if not ids:
        return found
    rows = _rows(
        session,
        PaymentMatchRow.statement_result_id.in_(ids) | PaymentMatchRow.invoice_result_id.in_(ids),
    )
    for row in rows:
        for key in {row.statement_result_id, row.invoice_result_id} & set(ids):
            found.setdefault(key, []).append(row)
    return found


def decide(
    session: Session,
    company_id: uuid.UUID,
    match_id: uuid.UUID,
    status: MatchStatus,
    user_id: uuid.UUID | None,
) -> PaymentMatchRow | None:
    """Accept or reject a proposal of the company; the first decision stands, also when
    two requests race. None: no such match."""
    assert status is not MatchStatus.PROPOSED
    row = session.scalars(
        select(PaymentMatchRow).where(
            PaymentMatchRow.id == match_id, PaymentMatchRow.company_id == company_id
        )
    ).one_or_none()
    if row is None:
        return None
    changed = session.execute(
        update(PaymentMatchRow)
        .where(PaymentMatchRow.id == match_id, PaymentMatchRow.status == "proposed")
        .values(status=status.value, decided_by=user_id, decided_at=utcnow())
        .execution_options(synchronize_session=False)
    )
    session.refresh(row)
    if getattr(changed, "rowcount", 0):
        _note(session, {row.statement_result_id, row.invoice_result_id})
    return row


def _rows(session: Session, *where: object) -> list[PaymentMatchRow]:
    statement = (
        select(PaymentMatchRow)
        .where(*where)  # type: ignore[arg-type]
        .order_by(PaymentMatchRow.position, PaymentMatchRow.created_at, PaymentMatchRow.id)
    )
    return list(session.scalars(statement))


def _refs(session: Session, rows: list[PaymentMatchRow]) -> list[MatchRef]:
    ids = {r.statement_result_id for r in rows} | {r.invoice_result_id for r in rows}
    results = (
        {r.id: r for r in session.scalars(select(Result).where(Result.id.in_(ids)))} if ids else {}
    )
    refs = []
    for row in rows:
        statement = results.get(row.statement_result_id)
        invoice = results.get(row.invoice_result_id)
        if statement is None or invoice is None or statement.deleted_at or invoice.deleted_at:
            continue
        transactions = statement.data.get("transactions") or []
        booked = transactions[row.position] if row.position < len(transactions) else {}
        refs.append(
            MatchRef(
                row=row,
                statement_number=(statement.data.get("statement") or {}).get("number"),
                booking_date=booked.get("bookingDate") or booked.get("valueDate"),
                invoice_number=(invoice.data.get("invoice") or {}).get("number"),
            )
        )
    return refs


def _note(session: Session, result_ids: set[uuid.UUID]) -> None:
    for result in session.scalars(select(Result).where(Result.id.in_(result_ids))):
        note_changed(session, result)


def _typed(result: Result, kind: type[_T]) -> _T | None:
    try:
        typed = kind.from_dict(result.data)
    except (ResultShapeError, ValueError, KeyError, TypeError):
        return None
    return typed

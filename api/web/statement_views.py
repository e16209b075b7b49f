"""View models of the money-moving results: SEPA payment files (processors/sepa.py) and
bank statements (processors/bank_statement.py) with their confirmed transactions."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from api.web.i18n import N_, Message
from api.web.labels import PAYMENT_KIND_LABELS
from api.web.processor_texts import schema_summary
from api.web.result_views import grouped_iban, text
from processors.results.payment_file import Payment, PaymentFile, PaymentKind
from processors.results.statement import BankStatementResult, StatementTransaction
from storage.models import TransactionConfirmation


def _decimal(value: Any) -> Decimal | None:
    shown = text(value)
    if shown is None:
        return None
    try:
        number = Decimal(shown)
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


# --- payment files ---------------------------------------------------------------------


@dataclass(frozen=True)
class PaymentView:
    name: str | None
    iban: str | None
    bic: str | None
    amount: str | None
    currency: str | None
    remittance_information: str | None
    end_to_end_id: str | None
    requested_date: str | None
    mandate_id: str | None
    payment_info_id: str | None
    own_name: str | None
    own_iban: str | None


@dataclass(frozen=True)
class SumCheck:
    """A total the file states, next to what its payments add up to."""

    label: str
    stated: str | None
    counted: str
    matches: bool


@dataclass(frozen=True)
class PaymentFileView:
    kind_label: str
    counterparty_label: str  # creditor for transfers, debtor for direct debits
    message_type: str | None
    message_id: str | None
    creation_time: str | None
    initiating_party: str | None
    currency: str | None
    xsd: str | Message | None
    structure: str | None
    payments: tuple[PaymentView, ...]
    checks: tuple[SumCheck, ...]

    @property
    def consistent(self) -> bool:
        return all(check.matches for check in self.checks)


def payment_file_view(payment_file: PaymentFile) -> PaymentFileView:
    payments = tuple(_payment(p) for p in payment_file.payments)
    currencies = {p.currency for p in payments if p.currency}
    return PaymentFileView(
        kind_label=PAYMENT_KIND_LABELS[payment_file.kind],
        counterparty_label=(
            N_("Debtor") if payment_file.kind is PaymentKind.DIRECT_DEBIT else N_("Creditor")
        ),
        message_type=text(payment_file.message_type),
        message_id=text(payment_file.message_id),
        creation_time=text(payment_file.creation_time),
        initiating_party=text(payment_file.initiating_party),
        currency=currencies.pop() if len(currencies) == 1 else None,
        xsd=schema_summary(text(payment_file.validation.xsd)),
        structure=text(payment_file.validation.structure),
        payments=payments,
        checks=sum_checks(payment_file, payments),
    )


def sum_checks(
    payment_file: PaymentFile, payments: tuple[PaymentView, ...]
) -> tuple[SumCheck, ...]:
    """The number of transactions and the control sum, checked against the payments
    listed (the processor refuses files where they differ; the page shows the proof)."""
    stated_count = str(payment_file.number_of_transactions)
    amounts = [_decimal(p.amount) for p in payments]
    counted_sum = sum((a for a in amounts if a is not None), Decimal(0))
    stated_sum = payment_file.control_sum
    return (
        SumCheck(
            N_("Number of transactions"),
            stated_count,
            str(len(payments)),
            stated_count == str(len(payments)),
        ),
        SumCheck(
            N_("Control sum"),
            str(stated_sum),
            str(counted_sum),
            stated_sum == counted_sum and None not in amounts,
        ),
    )


def _payment(payment: Payment) -> PaymentView:
    return PaymentView(
        name=text(payment.name),
        iban=grouped_iban(payment.iban),
        bic=text(payment.bic),
        amount=text(payment.amount),
        currency=text(payment.currency),
        remittance_information=text(payment.remittance_information),
        end_to_end_id=text(payment.end_to_end_id),
        requested_date=text(payment.requested_date),
        mandate_id=text(payment.mandate_id),
        payment_info_id=text(payment.payment_info_id),
        own_name=text(payment.own_name),
        own_iban=grouped_iban(payment.own_iban),
    )


# --- bank statements -------------------------------------------------------------------


@dataclass(frozen=True)
class TransactionView:
    position: int
    booking_date: str | None
    value_date: str | None
    amount: str | None
    currency: str | None
    counterparty_name: str | None
    counterparty_iban: str | None
    purpose: str | None
    confirmed: bool
    confirmed_at: datetime | None
    confirmed_by: str | None  # the user's email, when the user still exists


@dataclass(frozen=True)
class StatementView:
    account_iban: str | None
    bic: str | None
    currency: str | None
    period_start: str | None
    period_end: str | None
    number: str | None
    opening_balance: str | None
    closing_balance: str | None
    transaction_total: str | None
    reconciled: bool | None  # None: the balances were not found, nothing to check
    transactions: tuple[TransactionView, ...]

    @property
    def confirmed_count(self) -> int:
        return sum(1 for t in self.transactions if t.confirmed)

    @property
    def all_confirmed(self) -> bool:
        return self.confirmed_count == len(self.transactions)


def statement_view(
    result: BankStatementResult,
    confirmations: Mapping[int, TransactionConfirmation],
    emails: Mapping[uuid.UUID, str],
) -> StatementView:
    statement = result.statement
    return StatementView(
        account_iban=grouped_iban(statement.account_iban),
        bic=text(statement.bic),
        currency=text(statement.currency),
        period_start=text(statement.period_start),
        period_end=text(statement.period_end),
        number=text(statement.number),
        opening_balance=text(statement.opening_balance),
        closing_balance=text(statement.closing_balance),
        transaction_total=text(statement.transaction_total),
        reconciled=result.reconciled,
        transactions=tuple(
            _transaction(position, transaction, confirmations.get(position), emails)
            for position, transaction in enumerate(result.transactions)
        ),
    )


def _transaction(
    position: int,
    transaction: StatementTransaction,
    confirmation: TransactionConfirmation | None,
    emails: Mapping[uuid.UUID, str],
) -> TransactionView:
    """A transaction's position in the statement is the key of its confirmation."""
    by = confirmation.confirmed_by if confirmation else None
    return TransactionView(
        position=position,
        booking_date=text(transaction.booking_date),
        value_date=text(transaction.value_date),
        amount=text(transaction.amount),
        currency=text(transaction.currency),
        counterparty_name=text(transaction.counterparty_name),
        counterparty_iban=grouped_iban(transaction.counterparty_iban),
        purpose=text(transaction.purpose),
        confirmed=confirmation is not None,
        confirmed_at=confirmation.confirmed_at if confirmation else None,
        confirmed_by=emails.get(by) if by else None,
    )

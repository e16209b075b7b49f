"""View models of the money-moving results: SEPA payment files (processors/sepa.py) and
bank statements (processors/bank_statement.py) with their confirmed transactions."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from api.web.result_views import grouped_iban, items, mapping, text
from storage.models import TransactionConfirmation

PAYMENT_KIND_LABELS = {"credit_transfer": "Credit transfer", "direct_debit": "Direct debit"}


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
    xsd: str | None
    structure: str | None
    payments: tuple[PaymentView, ...]
    checks: tuple[SumCheck, ...]

    @property
    def consistent(self) -> bool:
        return all(check.matches for check in self.checks)


def payment_file_view(data: Mapping[str, Any]) -> PaymentFileView:
    payments = tuple(_payment(p) for p in items(data.get("payments")))
    currencies = {p.currency for p in payments if p.currency}
    kind = text(data.get("kind")) or ""
    validation = mapping(data.get("validation"))
    return PaymentFileView(
        kind_label=PAYMENT_KIND_LABELS.get(kind, kind or "Payment file"),
        counterparty_label="Debtor" if kind == "direct_debit" else "Creditor",
        message_type=text(data.get("messageType")),
        message_id=text(data.get("messageId")),
        creation_time=text(data.get("creationTime")),
        initiating_party=text(data.get("initiatingParty")),
        currency=currencies.pop() if len(currencies) == 1 else None,
        xsd=text(validation.get("xsd")),
        structure=text(validation.get("structure")),
        payments=payments,
        checks=sum_checks(data, payments),
    )


def sum_checks(data: Mapping[str, Any], payments: tuple[PaymentView, ...]) -> tuple[SumCheck, ...]:
    """The number of transactions and the control sum, checked against the payments
    listed (the processor refuses files where they differ; the page shows the proof)."""
    stated_count = text(data.get("numberOfTransactions"))
    amounts = [_decimal(p.amount) for p in payments]
    counted_sum = sum((a for a in amounts if a is not None), Decimal(0))
    stated_sum = _decimal(data.get("controlSum"))
    return (
        SumCheck(
            "Number of transactions",
            stated_count,
            str(len(payments)),
            stated_count == str(len(payments)),
        ),
        SumCheck(
            "Control sum",
            text(data.get("controlSum")),
            str(counted_sum),
            stated_sum is not None and stated_sum == counted_sum and None not in amounts,
        ),
    )


def _payment(payment: Mapping[str, Any]) -> PaymentView:
    return PaymentView(
        name=text(payment.get("name")),
        iban=grouped_iban(payment.get("iban")),
        bic=text(payment.get("bic")),
        amount=text(payment.get("amount")),
        currency=text(payment.get("currency")),
        remittance_information=text(payment.get("remittanceInformation")),
        end_to_end_id=text(payment.get("endToEndId")),
        requested_date=text(payment.get("requestedDate")),
        mandate_id=text(payment.get("mandateId")),
        payment_info_id=text(payment.get("paymentInfoId")),
        own_name=text(payment.get("ownName")),
        own_iban=grouped_iban(payment.get("ownIban")),
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
    data: Mapping[str, Any],
    confirmations: Mapping[int, TransactionConfirmation],
    emails: Mapping[uuid.UUID, str],
) -> StatementView:
    statement = mapping(data.get("statement"))
    reconciled = data.get("reconciled")
    return StatementView(
        account_iban=grouped_iban(statement.get("accountIban")),
        bic=text(statement.get("bic")),
        currency=text(statement.get("currency")),
        period_start=text(statement.get("periodStart")),
        period_end=text(statement.get("periodEnd")),
        number=text(statement.get("number")),
        opening_balance=text(statement.get("openingBalance")),
        closing_balance=text(statement.get("closingBalance")),
        transaction_total=text(statement.get("transactionTotal")),
        reconciled=reconciled if isinstance(reconciled, bool) else None,
        transactions=tuple(
            _transaction(position, raw, confirmations.get(position), emails)
            for position, raw in enumerate(_transactions(data))
        ),
    )


def _transactions(data: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """Every entry keeps its index (the confirmation key), even an odd one."""
    raw = data.get("transactions")
    if not isinstance(raw, list):
        return []
    return [entry if isinstance(entry, Mapping) else {} for entry in raw]


def _transaction(
    position: int,
    raw: Mapping[str, Any],
    confirmation: TransactionConfirmation | None,
    emails: Mapping[uuid.UUID, str],
) -> TransactionView:
    by = confirmation.confirmed_by if confirmation else None
    return TransactionView(
        position=position,
        booking_date=text(raw.get("bookingDate")),
        value_date=text(raw.get("valueDate")),
        amount=text(raw.get("amount")),
        currency=text(raw.get("currency")),
        counterparty_name=text(raw.get("counterpartyName")),
        counterparty_iban=grouped_iban(raw.get("counterpartyIban")),
        purpose=text(raw.get("purpose")),
        confirmed=confirmation is not None,
        confirmed_at=confirmation.confirmed_at if confirmation else None,
        confirmed_by=emails.get(by) if by else None,
    )

"""A bank statement's result: the account and its balances, every transaction in the
order printed (a transaction's position is its key for confirmations), and whether
the balances reconcile."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any, ClassVar

from processors.base import ResultType
from processors.json_fields import from_json, to_json
from processors.results.source import Source
from processors.results.versions import check_version


@dataclass(frozen=True, slots=True)
class Statement:
    account_iban: str | None
    bic: str | None
    currency: str | None
    period_start: date | None
    period_end: date | None
    number: str | None
    opening_balance: Decimal | None
    closing_balance: Decimal | None
    transaction_total: Decimal


@dataclass(frozen=True, slots=True)
class StatementTransaction:
    booking_date: date | None
    value_date: date | None
    amount: Decimal
    currency: str | None
    counterparty_name: str | None
    counterparty_iban: str | None
    purpose: str
    # Always false here: confirmations are rows of their own (transaction_confirmations).
    confirmed: bool = False


@dataclass(frozen=True, slots=True)
class BankStatementResult:
    RESULT_TYPE: ClassVar[ResultType] = ResultType.BANK_STATEMENT
    VERSION: ClassVar[int] = 1

    statement: Statement
    transactions: tuple[StatementTransaction, ...]
    reconciled: bool | None  # None: the balances were not printed, nothing to check
    source: Source

    def to_dict(self) -> dict[str, Any]:
        result = to_json(self)
        assert isinstance(result, dict)
        return result

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BankStatementResult:
        check_version(cls, data)
        return from_json(cls, data)

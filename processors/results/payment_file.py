"""A SEPA payment file's result (processors/sepa.py): the group header, what was
checked, and every payment as the file states it (amounts and dates as its text)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from typing import Any, ClassVar

from processors.base import ResultType
from processors.json_fields import from_json, to_json
from processors.results.versions import check_version


class PaymentKind(StrEnum):
    CREDIT_TRANSFER = "credit_transfer"  # pain.001
    DIRECT_DEBIT = "direct_debit"  # pain.008


@dataclass(frozen=True, slots=True)
class Payment:
    payment_info_id: str | None
    requested_date: str | None
    end_to_end_id: str | None
    amount: str | None
    currency: str | None
    name: str | None  # the counterparty: creditor (pain.001) or debtor (pain.008)
    iban: str | None
    bic: str | None
    remittance_information: str | None
    mandate_id: str | None
    own_name: str | None  # the initiating side: debtor (pain.001) or creditor (pain.008)
    own_iban: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class PaymentFileChecks:
    xsd: str  # for the accountant: what the XML Schema check found
    schema: str | None  # the XSD checked against, None when none applies
    # German DK, Swiss SIX, or None for an ISO version (and in results stored before).
    variant: str | None = None
    structure: str
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PaymentFile:
    RESULT_TYPE: ClassVar[ResultType] = ResultType.PAYMENT_FILE
    VERSION: ClassVar[int] = 1

    kind: PaymentKind
    message_type: str
    message_id: str | None
    creation_time: str | None
    initiating_party: str | None
    number_of_transactions: int
    control_sum: Decimal
    validation: PaymentFileChecks
    payments: tuple[Payment, ...]

    def to_dict(self) -> dict[str, Any]:
        result = to_json(self)
        assert isinstance(result, dict)
        return result

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PaymentFile:
        check_version(cls, data)
        return from_json(cls, data)

"""What the statement reader got right on a generated statement, field by field.

Read transactions are matched to the printed ones in order, by booking date and amount
(then by amount alone); a printed transaction without a match counts every one of its
fields as wrong, so "fields exact" never looks better for transactions lost.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from testkit.statements.data import Transaction
from testkit.statements.model import Col
from testkit.statements.render import Rendered

FIELDS = (
    "bookingDate",
    "valueDate",
    "amount",
    "counterpartyName",
    "counterpartyIban",
    "purpose",
)


@dataclass
class Score:
    name: str
    printed: int = 0
    found: int = 0
    extra: int = 0
    hits: Counter[str] = field(default_factory=Counter)
    balances: bool | None = None
    """Opening and closing read as printed; None when the statement prints none."""
    reconciled: bool | None = None
    """The reader's check came out true; None when the statement prints no balances."""
    failure: str | None = None
    misses: list[str] = field(default_factory=list)

    @property
    def fields_total(self) -> int:
        return self.printed * len(FIELDS)

    @property
    def fields_exact(self) -> int:
        return sum(self.hits.values())


def expected_fields(rendered: Rendered, index: int) -> dict[str, Any]:
    layout = rendered.layout
    transaction = rendered.statement.transactions[index]
    kinds = {column.kind for column in layout.columns}
    value_printed = Col.VALUE in kinds or layout.value_stacked
    text = rendered.texts[index]
    iban_printed = transaction.iban is not None and transaction.iban in text.replace(" ", "")
    return {
        "bookingDate": transaction.booking.isoformat(),
        "valueDate": (transaction.value if value_printed else transaction.booking).isoformat(),
        "amount": transaction.amount,
        "counterpartyName": transaction.counterparty,
        "counterpartyIban": transaction.iban if iban_printed else None,
        "purpose": text,
    }


def _value(read: Mapping[str, Any], name: str) -> Any:
    value = read.get(name)
    if name == "amount" and value is not None:
        return Decimal(value)
    return value


def _match(printed: Sequence[Transaction], read: list[Mapping[str, Any]]) -> list[int | None]:
    """For each printed transaction the index of its read one (in order), or None."""
    used: set[int] = set()
    pairs: list[int | None] = []
    for transaction in printed:
        chosen = None
        for strict in (True, False):
            for index, candidate in enumerate(read):
                if index in used or _value(candidate, "amount") != transaction.amount:
                    continue
                if strict and candidate.get("bookingDate") != transaction.booking.isoformat():
                    continue
                chosen = index
                break
            if chosen is not None:
                break
        if chosen is not None:
            used.add(chosen)
        pairs.append(chosen)
    return pairs


def score(rendered: Rendered, name: str, data: Mapping[str, Any] | str) -> Score:
    """`data` is the reader's result, or the failure code it raised."""
    statement = rendered.statement
    result = Score(name, printed=len(statement.transactions))
    if isinstance(data, str):
        result.failure = data
        result.balances = False if rendered.balances_printed else None
        result.reconciled = False if rendered.balances_printed else None
        return result
    read = list(data["transactions"])
    pairs = _match(statement.transactions, read)
    result.found = sum(pair is not None for pair in pairs)
    result.extra = len(read) - result.found
    for index, pair in enumerate(pairs):
        want = expected_fields(rendered, index)
        if pair is None:
            result.misses.append(f"not found: {want['bookingDate']} {want['amount']}")
            continue
        for name_ in FIELDS:
            got = _value(read[pair], name_)
            if got == want[name_]:
                result.hits[name_] += 1
            elif len(result.misses) < 12:
                result.misses.append(f"{name_}: read {got!r}, printed {want[name_]!r}")
    if rendered.balances_printed:
        head = data["statement"]
        opening, closing = head.get("openingBalance"), head.get("closingBalance")
        result.balances = (opening, closing) == (str(statement.opening), str(statement.closing))
        if not result.balances:
            expected = f"{statement.opening}/{statement.closing}"
            result.misses.append(f"balances: read {opening}/{closing}, printed {expected}")
        result.reconciled = data.get("reconciled") is True
    return result


@dataclass
class Summary:
    scores: list[Score]

    def share(self, part: int, whole: int) -> float:
        return part / whole if whole else 1.0

    @property
    def found(self) -> float:
        return self.share(sum(s.found for s in self.scores), sum(s.printed for s in self.scores))

    @property
    def fields(self) -> float:
        exact = sum(s.fields_exact for s in self.scores)
        return self.share(exact, sum(s.fields_total for s in self.scores))

    def field(self, name: str) -> float:
        return self.share(
            sum(s.hits[name] for s in self.scores), sum(s.printed for s in self.scores)
        )

    @property
    def reconciled(self) -> tuple[int, int]:
        printed = [s for s in self.scores if s.reconciled is not None]
        return sum(bool(s.reconciled) for s in printed), len(printed)

    @property
    def balances(self) -> tuple[int, int]:
        printed = [s for s in self.scores if s.balances is not None]
        return sum(bool(s.balances) for s in printed), len(printed)

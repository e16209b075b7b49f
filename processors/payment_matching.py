"""Payments matched to invoices (issue 42, part 4): the pure half.

A confirmed bank statement's transactions against the company's open invoices: an
outgoing payment pays a supplier invoice, an incoming one a customer invoice (a credit
note the other way round). Each pair gets a score from its signals, with the reasons:

- the amount: the invoice's open amount exactly, or less a discount of up to 3 %, or
  several invoices' together; a smaller amount with the number in the reference is a
  partial payment;
- the invoice number in the reference, compared without separators and with the
  letters OCR confuses with digits read as those digits;
- the counterparty's IBAN against the invoice's payee account, its name against the
  invoice's other party;
- the dates: paid on or after the issue date (a few days before is tolerated).

Pairs at or above `PROPOSAL_SCORE` are proposed; the accountant accepts or rejects
them. What was matched before lives in storage (storage/repositories/payment_matches.py).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from difflib import SequenceMatcher
from enum import StrEnum
from itertools import combinations

PROPOSAL_SCORE = 60
MAX_DISCOUNT = Decimal("0.03")
_CENT = Decimal("0.01")
_MIN_NUMBER_LENGTH = 3
_MAX_GROUP = 4  # invoices one payment may cover, when their numbers are in its reference
_EARLY_DAYS = 5  # paid this many days before the issue date still counts
# Letters OCR reads for digits, read as the digits.
_OCR_DIGITS = str.maketrans(
    {"O": "0", "Q": "0", "D": "0", "I": "1", "L": "1", "Z": "2", "S": "5", "B": "8", "G": "6"}
)
_LEGAL_FORMS = re.compile(
    r"\b(gmbh|ag|kg|ohg|ug|e\.?k|gbr|mbh|co|ltd|limited|inc|llc|sa|sas|sarl|bv|nv|spa|srl)\b\.?"
)


class Reason(StrEnum):
    AMOUNT_EXACT = "amount_exact"
    AMOUNT_DISCOUNT = "amount_discount"  # less up to 3 %
    AMOUNT_PARTIAL = "amount_partial"  # less than open, the number in the reference
    AMOUNT_GROUP = "amount_group"  # several invoices' open amounts together
    NUMBER = "number_in_reference"
    NUMBER_FUZZY = "number_in_reference_fuzzy"  # one character off
    IBAN = "counterparty_iban"
    NAME = "counterparty_name"
    DATE = "date_after_issue"


_POINTS = {
    Reason.AMOUNT_EXACT: 35,
    Reason.AMOUNT_DISCOUNT: 25,
    Reason.AMOUNT_PARTIAL: 10,
    Reason.AMOUNT_GROUP: 30,
    Reason.NUMBER: 45,
    Reason.NUMBER_FUZZY: 30,
    Reason.IBAN: 25,
    Reason.NAME: 20,
    Reason.DATE: 5,
}


@dataclass(frozen=True, slots=True)
class OpenInvoice:
    """An invoice that is not paid in full. `outgoing`: paid by the company (a supplier
    invoice, or a customer credit note); `open_amount`: what is left to pay."""

    key: str
    outgoing: bool
    number: str | None
    issue_date: date | None
    open_amount: Decimal
    currency: str | None
    party_name: str | None
    party_ibans: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Payment:
    key: tuple[str, int]  # the statement's result and the transaction's position
    amount: Decimal  # negative: outgoing
    currency: str | None
    booking_date: date | None
    counterparty_name: str | None
    counterparty_iban: str | None
    purpose: str


@dataclass(frozen=True, slots=True)
class Match:
    """A payment proposed for one invoice: the part of the payment that pays it."""

    payment: tuple[str, int]
    invoice: str
    amount: Decimal
    score: int
    reasons: tuple[Reason, ...]


def match_payments(payments: Iterable[Payment], invoices: Sequence[OpenInvoice]) -> list[Match]:
    """The proposals: each payment to its best invoice (or invoices), each invoice paid
    at most up to its open amount, the best scores first."""
    candidates: list[tuple[int, Payment, tuple[Match, ...]]] = []
    for payment in payments:
        found = _unambiguous(_candidates(payment, invoices))
        candidates += [(min(m.score for m in ms), payment, ms) for ms in found]
    candidates.sort(key=lambda c: (-c[0], c[1].key, [m.invoice for m in c[2]]))
    left = {invoice.key: invoice.open_amount for invoice in invoices}
    paid: set[tuple[str, int]] = set()
    proposals: list[Match] = []
    for _, payment, matches in candidates:
        if payment.key in paid:
            continue
        if any(left[m.invoice] <= 0 or m.amount > left[m.invoice] + _CENT for m in matches):
            continue
        for match in matches:
            left[match.invoice] -= match.amount
        paid.add(payment.key)
        proposals.extend(matches)
    return proposals


def _unambiguous(found: list[tuple[Match, ...]]) -> list[tuple[Match, ...]]:
    """None when the best two candidates score alike and no number tells them apart
    (two monthly invoices of the same amount, paid without a reference)."""
    ranked = sorted(found, key=lambda ms: -min(m.score for m in ms))
    if len(ranked) < 2 or min(m.score for m in ranked[0]) > min(m.score for m in ranked[1]):
        return ranked
    numbered = any(r in (Reason.NUMBER, Reason.NUMBER_FUZZY) for m in ranked[0] for r in m.reasons)
    return ranked if numbered else []


def _candidates(payment: Payment, invoices: Sequence[OpenInvoice]) -> list[tuple[Match, ...]]:
    outgoing = payment.amount < 0
    paid = abs(payment.amount)
    reference = _reference(payment.purpose)
    fitting = [
        invoice
        for invoice in invoices
        if invoice.outgoing == outgoing
        and invoice.open_amount > 0
        and _same_currency(payment.currency, invoice.currency)
    ]
    found: list[tuple[Match, ...]] = []
    named: list[tuple[OpenInvoice, Reason]] = []
    for invoice in fitting:
        number = _number_reason(invoice.number, reference)
        if number is not None:
            named.append((invoice, number))
        match = _single(payment, paid, invoice, number)
        if match is not None:
            found.append((match,))
    found.extend(_groups(payment, paid, named))
    return found


def _single(
    payment: Payment, paid: Decimal, invoice: OpenInvoice, number: Reason | None
) -> Match | None:
    reasons: list[Reason] = []
    amount = _amount_reason(paid, invoice.open_amount, number is not None)
    if amount is None:
        return None
    reasons.append(amount)
    if number is not None:
        reasons.append(number)
    reasons.extend(_party_reasons(payment, invoice))
    early = _date_reason(payment.booking_date, invoice.issue_date)
    if early is False:
        return None
    if early:
        reasons.append(Reason.DATE)
    score = sum(_POINTS[r] for r in reasons)
    if score < PROPOSAL_SCORE:
        return None
    applied = min(paid, invoice.open_amount)
    if amount is Reason.AMOUNT_DISCOUNT:
        applied = invoice.open_amount  # the discount settles the invoice
    return Match(payment.key, invoice.key, applied, min(score, 100), tuple(reasons))


def _groups(
    payment: Payment, paid: Decimal, named: list[tuple[OpenInvoice, Reason]]
) -> list[tuple[Match, ...]]:
    """One payment for several invoices: their numbers in the reference and their open
    amounts together the amount paid (or less a discount)."""
    groups: list[tuple[Match, ...]] = []
    for size in range(2, min(len(named), _MAX_GROUP) + 1):
        for group in combinations(named, size):
            total = sum((invoice.open_amount for invoice, _ in group), Decimal(0))
            amount = _amount_reason(paid, total, True)
            if amount not in (Reason.AMOUNT_EXACT, Reason.AMOUNT_DISCOUNT):
                continue
            matches = []
            for invoice, number in group:
                reasons = (Reason.AMOUNT_GROUP, number, *_party_reasons(payment, invoice))
                score = min(100, sum(_POINTS[r] for r in reasons))
                matches.append(Match(payment.key, invoice.key, invoice.open_amount, score, reasons))
            if all(m.score >= PROPOSAL_SCORE for m in matches):
                groups.append(tuple(matches))
    return groups


def _amount_reason(paid: Decimal, open_amount: Decimal, numbered: bool) -> Reason | None:
    if abs(paid - open_amount) <= _CENT:
        return Reason.AMOUNT_EXACT
    if open_amount * (1 - MAX_DISCOUNT) - _CENT <= paid < open_amount:
        return Reason.AMOUNT_DISCOUNT
    if numbered and 0 < paid < open_amount:
        return Reason.AMOUNT_PARTIAL
    return None


def _number_reason(number: str | None, reference: str) -> Reason | None:
    wanted = compact(number or "")
    if len(wanted) < _MIN_NUMBER_LENGTH or not any(ch.isdigit() for ch in wanted):
        return None
    if _contains_number(reference, wanted):
        return Reason.NUMBER
    # OCR's letters for digits next to a prefix (`RO98973`): every such letter as its
    # digit, on both sides.
    if _contains_number(reference.translate(_OCR_DIGITS), wanted.translate(_OCR_DIGITS)):
        return Reason.NUMBER
    if len(wanted) >= 6 and _one_off(reference, wanted):
        return Reason.NUMBER_FUZZY
    return None


def _reference(purpose: str) -> str:
    """The reference compacted, a space kept as `|` where it parted two characters:
    `4711 1. Rate` is the number 4711 and then 1, not 47111."""
    return "|".join(part for part in (compact(word) for word in purpose.split()) if part)


def _contains_number(reference: str, wanted: str) -> bool:
    """The number in the reference, its parts joined across spaces (`RE 2024 0815`),
    but not inside a longer number (`4711` in `147110`)."""
    joined = reference.replace("|", "")
    breaks = _break_positions(reference)
    start = joined.find(wanted)
    while start >= 0:
        end = start + len(wanted)
        before = joined[start - 1] if start else ""
        after = joined[end] if end < len(joined) else ""
        glued_before = before.isdigit() and wanted[0].isdigit() and start not in breaks
        glued_after = after.isdigit() and wanted[-1].isdigit() and end not in breaks
        if not glued_before and not glued_after:
            return True
        start = joined.find(wanted, start + 1)
    return False


def _break_positions(reference: str) -> set[int]:
    """Where the `|` of a reference stood, as positions in the reference without them."""
    positions, offset = set(), 0
    for index, ch in enumerate(reference):
        if ch == "|":
            positions.add(index - offset)
            offset += 1
    return positions


def _one_off(reference: str, wanted: str) -> bool:
    """A window of the reference that differs from the number in one character."""
    size = len(wanted)
    joined = reference.replace("|", "")
    for start in range(0, max(0, len(joined) - size) + 1):
        window = joined[start : start + size]
        if sum(a != b for a, b in zip(window, wanted, strict=False)) == 1:
            return True
    return False


def _party_reasons(payment: Payment, invoice: OpenInvoice) -> list[Reason]:
    reasons = []
    iban = re.sub(r"\s", "", payment.counterparty_iban or "").upper()
    if iban and iban in invoice.party_ibans:
        reasons.append(Reason.IBAN)
    if names_alike(payment.counterparty_name, invoice.party_name):
        reasons.append(Reason.NAME)
    return reasons


def _date_reason(booked: date | None, issued: date | None) -> bool | None:
    """True: paid on or after the issue date; False: well before it (not this
    invoice); None: a date is not known."""
    if booked is None or issued is None:
        return None
    if booked < issued - timedelta(days=_EARLY_DAYS):
        return False
    return booked >= issued


def _same_currency(paid: str | None, invoiced: str | None) -> bool:
    return not paid or not invoiced or paid.upper() == invoiced.upper()


def compact(text: str) -> str:
    """Upper case letters and digits only, OCR's letter-for-digit confusions read as
    digits where they stand between digits."""
    plain = re.sub(r"[^0-9A-Z]", "", text.upper())
    return re.sub(r"(?<=\d)[OQDILZSBG]+(?=\d)", lambda m: m.group(0).translate(_OCR_DIGITS), plain)


def names_alike(first: str | None, second: str | None) -> bool:
    a, b = _name(first), _name(second)
    if len(a) < 3 or len(b) < 3:
        return False
    return a in b or b in a or SequenceMatcher(None, a, b).ratio() >= 0.85


def _name(value: str | None) -> str:
    decomposed = unicodedata.normalize("NFKD", (value or "").casefold())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return re.sub(r"[^0-9a-z]", "", _LEGAL_FORMS.sub(" ", plain))

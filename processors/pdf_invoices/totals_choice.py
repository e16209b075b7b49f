"""The totals decided together: of every net, VAT, gross, prepaid and amount-due candidate
printed, the assignment that is arithmetically consistent (net + VAT = gross, gross -
prepaid = amount due), and a check that says where it does not close.

Candidates are magnitudes; the sign comes last: a credit note (titled Gutschrift, Avoir,
Credit note, ...) or a gross printed negative makes every total negative."""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from processors.results.evidence import EvidenceField

_CENT = Decimal("0.01")
_ZERO = Decimal("0.00")


@dataclass(frozen=True, slots=True)
class Candidates:
    nets: list[Decimal]
    vats: list[Decimal]
    grosses: list[Decimal]
    dues: list[Decimal]
    prepaids: list[Decimal]
    printed: frozenset[Decimal]
    """Every amount on the page (magnitudes): a gross nobody labelled may still be printed."""
    breakdown_vat: Decimal | None = None
    taxed: bool = False
    """A rate above zero is printed beside an amount: a zero VAT is the second choice."""
    deducted: bool = False
    """A line with an amount takes something off the gross (`abzgl.`, `less`, `paid`), or
    an amount due is labelled whose amount was not read: the gross is not surely due."""


@dataclass(frozen=True, slots=True)
class Decision:
    net: Decimal | None
    vat: Decimal | None
    gross: Decimal | None
    prepaid: Decimal | None
    amount_due: Decimal | None
    totals: str
    """`passed`, `failed` or `incomplete`."""
    explained: str
    doubts: tuple[tuple[EvidenceField, str], ...] = ()
    """Fields in doubt although the arithmetic closes (a value found without its label,
    an amount due not printed while the page deducts something)."""
    sources: tuple[tuple[EvidenceField, str], ...] = ()
    """The text line each total was read from (its evidence)."""

    def signed(self, negative: bool) -> Decision:
        if not negative:
            return self
        return replace(
            self,
            net=_negated(self.net),
            vat=_negated(self.vat),
            gross=_negated(self.gross),
            amount_due=_negated(self.amount_due),
        )


def _negated(value: Decimal | None) -> Decimal | None:
    return None if value is None else -abs(value)


def _close(a: Decimal, b: Decimal) -> bool:
    return abs(a - b) <= _CENT


def decide(found: Candidates) -> Decision:
    triple, labelled = _consistent(found)
    if triple is None:
        net = found.nets[-1] if found.nets else None
        vat = found.vats[-1] if found.vats else None
        gross = max(found.grosses, default=None)
        if gross is None and found.dues:
            gross = max(found.dues)
    else:
        net, vat, gross = triple
    prepaid, due, due_status = _amount_due(gross, found)
    if net is None or vat is None or gross is None:
        status = "incomplete"
    else:
        status = "passed" if _close(net + vat, gross) else "failed"
    if status == "passed" and due_status == "failed":
        status = "failed"
    explained = "net + VAT = gross"
    if prepaid:
        explained += "; gross - prepaid = amount due"
    if due_status == "failed":
        explained += "; the amount due printed is not the gross less what was prepaid"
    doubts = _due_doubts(found, gross, prepaid, due, due_status)
    if not labelled:
        doubts += ((EvidenceField.GROSS_TOTAL, _UNLABELLED),)
    return Decision(net, vat, gross, prepaid, due, status, explained, doubts)


_UNLABELLED = "no gross is labelled: the sum of net and VAT found printed on the page"


def _due_doubts(
    found: Candidates,
    gross: Decimal | None,
    prepaid: Decimal | None,
    due: Decimal | None,
    status: str,
) -> tuple[tuple[EvidenceField, str], ...]:
    """The amount due in doubt though nothing contradicts it: not printed (taken as the
    gross, or the gross less a prepayment) while the page deducts something, or printed
    as the gross while a prepayment below it is printed."""
    if gross is None or due is None:
        return ()
    if status == "assumed" and found.deducted:
        reason = "no amount due printed with its label, and the page deducts something"
        return ((EvidenceField.AMOUNT_DUE, reason),)
    paid = [p for p in found.prepaids if p and p < gross]
    if status == "passed" and not prepaid and paid and _close(due, gross):
        reason = "a prepayment is printed, but the amount due read is the gross"
        return ((EvidenceField.AMOUNT_DUE, reason),)
    return ()


def _consistent(found: Candidates) -> tuple[tuple[Decimal, Decimal, Decimal] | None, bool]:
    """The largest gross (labelled as gross before labelled as due) for which a printed
    net plus a printed VAT adds up; zero VAT only when no VAT amount is printed, and, where
    a rate above zero is printed, only when no VAT above zero adds up to that gross (a
    `TOTAL HT` column holding the gross is no net of a zero VAT); then, without a labelled
    gross, a labelled net and VAT whose sum is printed on the page (the gross then found
    without its label: False in the second place)."""
    zero_allowed = not any(found.vats)
    vats = [*found.vats, _ZERO] if zero_allowed else found.vats
    ordered = sorted(set(found.grosses), reverse=True)
    ordered += [d for d in sorted(set(found.dues), reverse=True) if d not in ordered]
    for gross in ordered:
        pairs = [
            (net, vat)
            for net in found.nets
            for vat in vats
            if _close(net + vat, gross) and not (vat and _close(vat, gross))
        ]
        if found.taxed:
            pairs.sort(key=lambda pair: not pair[1])  # stable: the first above zero leads
        if pairs:
            return (pairs[0][0], pairs[0][1], gross), True
    sums = [(net + vat, net, vat) for net in found.nets for vat in found.vats if net and vat]
    for total, net, vat in sorted(sums, reverse=True):
        if total in found.printed:
            return (net, vat, total), False
    return None, True


def _amount_due(
    gross: Decimal | None, found: Candidates
) -> tuple[Decimal | None, Decimal | None, str]:
    """(prepaid, amount due, `passed` / `failed` / `assumed`): a printed amount due that is
    the gross less a printed prepayment (or the gross itself); without one printed, the
    gross less the prepayment."""
    if gross is None:
        return None, (max(found.dues) if found.dues else None), "incomplete"
    prepaids = [p for p in found.prepaids if p and p < gross]
    for due in found.dues:
        if _close(due, gross):
            return None, due, "passed"
        for prepaid in prepaids:
            if _close(gross - prepaid, due):
                return prepaid, due, "passed"
    if found.dues:
        return (prepaids[-1] if prepaids else None), found.dues[-1], "failed"
    if prepaids:
        return prepaids[-1], gross - prepaids[-1], "assumed"
    return None, gross, "assumed"


def totals_doubts(decision: Decision) -> dict[EvidenceField, str]:
    """The totals in doubt when the arithmetic does not close, with the reason, and those
    the decision doubts though it closes."""
    return {**dict(decision.doubts), **_arithmetic_doubts(decision)}


def _arithmetic_doubts(decision: Decision) -> dict[EvidenceField, str]:
    if decision.totals == "incomplete":
        reason = "net, VAT or gross not found: net + VAT = gross not checked"
        return {f: reason for f in _TOTALS}
    if decision.totals == "passed":
        return {}
    net, vat, gross = decision.net, decision.vat, decision.gross
    if net is not None and vat is not None and gross is not None and not _close(net + vat, gross):
        return {f: "net + VAT does not equal the gross printed" for f in _TOTALS}
    return {
        EvidenceField.AMOUNT_DUE: "the amount due printed is not the gross less what was prepaid"
    }


_TOTALS = (
    EvidenceField.NET_TOTAL,
    EvidenceField.VAT_TOTAL,
    EvidenceField.GROSS_TOTAL,
    EvidenceField.AMOUNT_DUE,
)


def checks(decision: Decision, breakdown_rows: int) -> dict[str, Any]:
    confidence = "high" if decision.totals == "passed" else "low"
    return {
        "totals": decision.totals,
        "totalsExplained": decision.explained,
        "vatBreakdownRows": breakdown_rows,
        "confidence": confidence,
        "needsReview": decision.totals != "passed",
    }

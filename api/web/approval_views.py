"""What the invoice page shows of its approval: whether it is approved, by whom and
when, and the trail of every approval and withdrawal."""

from __future__ import annotations

from dataclasses import dataclass

from storage.repositories.invoice_approvals import ApprovalStep, current


@dataclass(frozen=True, slots=True)
class ApprovalView:
    approved: ApprovalStep | None
    steps: tuple[ApprovalStep, ...]


def approval_view(steps: list[ApprovalStep]) -> ApprovalView:
    return ApprovalView(approved=current(steps), steps=tuple(reversed(steps)))

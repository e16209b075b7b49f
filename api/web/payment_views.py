"""Payments matched to invoices on the invoice and statement pages (issue 42, part 4):
an invoice is "paid on ... (statement ..., line ...)" by its accepted matches, or open;
a statement's transactions show the invoices proposed or accepted for them."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy.orm import Session

from api.web.i18n import N_
from processors.payment_matching import Reason
from processors.results.invoice import InvoiceResult
from storage.repositories import payment_matches
from storage.repositories.payment_matches import MatchRef

REASON_LABELS = {
    Reason.AMOUNT_EXACT: N_("amount exact"),
    Reason.AMOUNT_DISCOUNT: N_("amount less a discount up to 3 %"),
    Reason.AMOUNT_PARTIAL: N_("partial payment"),
    Reason.AMOUNT_GROUP: N_("several invoices paid together"),
    Reason.NUMBER: N_("invoice number in the reference"),
    Reason.NUMBER_FUZZY: N_("invoice number in the reference, one character off"),
    Reason.IBAN: N_("counterparty's IBAN"),
    Reason.NAME: N_("counterparty's name"),
    Reason.DATE: N_("paid after the issue date"),
}

_KNOWN = frozenset(reason.value for reason in Reason)


@dataclass(frozen=True)
class MatchView:
    id: uuid.UUID
    status: str
    score: int
    amount: Decimal
    reasons: tuple[str, ...]
    statement_url: str
    statement_number: str | None
    line: int  # the transaction's line, from 1
    booking_date: str | None
    invoice_url: str
    invoice_number: str | None
    action_url: str


@dataclass(frozen=True)
class PaymentStatus:
    paid: bool  # accepted matches pay the whole amount
    paid_amount: Decimal
    matches: tuple[MatchView, ...]

    @property
    def accepted(self) -> tuple[MatchView, ...]:
        return tuple(m for m in self.matches if m.status == "accepted")

    @property
    def proposed(self) -> tuple[MatchView, ...]:
        return tuple(m for m in self.matches if m.status == "proposed")


def invoice_payment_status(
    session: Session, result_id: uuid.UUID, invoice: InvoiceResult
) -> PaymentStatus:
    views = _views(payment_matches.matches_of_invoice(session, result_id), "invoice")
    paid = sum((m.amount for m in views if m.status == "accepted"), Decimal(0))
    due = invoice.invoice.totals.amount_due or invoice.invoice.totals.gross
    return PaymentStatus(
        paid=due is not None and paid > 0 and paid >= abs(due), paid_amount=paid, matches=views
    )


def statement_matches(session: Session, result_id: uuid.UUID) -> dict[int, tuple[MatchView, ...]]:
    """The live matches of each transaction, by position; rejected ones left out."""
    found: dict[int, list[MatchView]] = {}
    for view, ref in zip(
        _views(refs := payment_matches.matches_of_statement(session, result_id), "statement"),
        refs,
        strict=True,
    ):
        if view.status != "rejected":
            found.setdefault(ref.row.position, []).append(view)
    return {position: tuple(views) for position, views in found.items()}


def _views(refs: list[MatchRef], back: str) -> tuple[MatchView, ...]:
    return tuple(
        MatchView(
            id=ref.row.id,
            status=ref.row.status,
            score=ref.row.score,
            amount=ref.row.amount,
            reasons=tuple(REASON_LABELS[Reason(r)] for r in ref.row.reasons if r in _KNOWN),
            statement_url=f"/app/bank-imports/{ref.row.statement_result_id}"
            f"#transaction-{ref.row.position}",
            statement_number=ref.statement_number,
            line=ref.row.position + 1,
            booking_date=ref.booking_date,
            invoice_url=f"/app/invoices/{ref.row.invoice_result_id}",
            invoice_number=ref.invoice_number,
            action_url=f"/app/payment-matches/{ref.row.id}?back={back}",
        )
        for ref in refs
    )

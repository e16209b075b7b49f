"""The key facts at a glance: the summary card every result page opens with, and the
inbox's columns of what was read. One verdict with one colour per result: the card and
the inbox decide it with the same function from the same stored values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from api.web.i18n import N_, Message
from api.web.labels import DIRECTION_LABELS
from api.web.result_views import DocumentView, grouped_iban, text
from api.web.statement_views import PaymentFileView, StatementView
from processors.base import DocumentType, FileKind
from processors.results.invoice import InvoiceResult, TotalsCheck
from processors.results.other_document import NOT_AN_EINVOICE_REASON, SEPA_REASON

OK, WARN, BAD, INFO = "ok", "warn", "bad", "info"


@dataclass(frozen=True)
class Verdict:
    level: str  # ok, warn, bad (info: a document, nothing to judge): the card's colour
    label: str  # msgid
    reasons: tuple[Message, ...] = ()


@dataclass(frozen=True)
class Fact:
    label: str  # msgid
    value: str | Message | None  # None: not read (the card says so)
    shape: str = (
        "text"  # text (as read), label (a msgid or Message), date, money, number, iban, period
    )
    currency: str | None = None
    until: str | None = None  # the end of a period


@dataclass(frozen=True)
class Summary:
    verdict: Verdict
    facts: tuple[Fact, ...]
    # What a fact without a value says: an e-invoice's XML does not have it; a reader of
    # a PDF's text did not recognise it (it may be printed); otherwise it was not read.
    missing: str = N_("not read")


NOT_ON_THE_INVOICE = N_("not on the invoice")
NOT_RECOGNISED = N_("not recognised")


# --- invoices --------------------------------------------------------------------------


@dataclass(frozen=True)
class InvoiceSigns:
    """What decides an invoice's verdict, as stored in its result."""

    valid: bool | None  # e-invoices: the validation; None for a PDF's text
    totals: str | None  # PDF text: TotalsCheck
    needs_review: bool
    uncertain: bool
    mismatch: bool
    hybrid_flagged: bool


def invoice_verdict(signs: InvoiceSigns) -> Verdict:
    """Invalid: the e-invoice failed its validation or the totals do not add up. Needs
    review: anything a person must decide (direction, text reading, a hybrid mismatch).
    Valid otherwise."""
    bad: list[Message] = []
    if signs.valid is False:
        bad.append(Message(N_("The e-invoice failed its validation.")))
    if signs.totals == TotalsCheck.FAILED:
        bad.append(Message(N_("The totals do not add up.")))
    review: list[Message] = []
    if signs.mismatch:
        review.append(Message(N_("The document type sent contradicts the parties.")))
    elif signs.uncertain:
        review.append(
            Message(N_("The direction is uncertain: no party matched the company's master data."))
        )
    if signs.hybrid_flagged:
        review.append(Message(N_("The embedded XML and the visible invoice disagree.")))
    if signs.needs_review or signs.totals == TotalsCheck.INCOMPLETE:
        review.append(Message(N_("Read from the PDF's text: please check the fields.")))
    if bad:
        return Verdict(BAD, N_("Invalid"), tuple(bad + review))
    if review:
        return Verdict(WARN, N_("Needs review"), tuple(review))
    return Verdict(OK, N_("Valid"))


def invoice_signs(result: InvoiceResult, master_data_set: bool = True) -> InvoiceSigns:
    """An uncertain direction counts once the company's master data is set (before, every
    invoice's would, and the inbox's notice asks for the master data instead)."""
    checks = result.checks
    return InvoiceSigns(
        valid=result.validation.valid if result.validation else None,
        totals=checks.totals.value if checks else None,
        needs_review=bool(checks and checks.needs_review),
        uncertain=result.direction_uncertain and master_data_set,
        mismatch=result.direction_mismatch,
        hybrid_flagged=bool(result.hybrid_check and result.hybrid_check.mismatches),
    )


def counterparty_label(direction: str | None) -> str:
    """A received invoice's other side is its supplier; an issued one's, its customer."""
    return N_("Customer") if direction == DocumentType.CUSTOMER_INVOICE else N_("Supplier")


def invoice_summary(
    result: InvoiceResult, duplicates: int = 0, master_data_set: bool = True
) -> Summary:
    invoice = result.invoice
    issued = result.direction is DocumentType.CUSTOMER_INVOICE
    other = invoice.buyer if issued else invoice.seller
    iban = next((m.payee_iban for m in invoice.payment_means if text(m.payee_iban)), None)
    currency = text(invoice.currency)
    facts = [
        Fact(N_("Direction"), DIRECTION_LABELS.get(result.direction, N_("Unknown")), "label"),
        Fact(counterparty_label(result.direction.value), text(other.name)),
        Fact(N_("Number"), text(invoice.number)),
        Fact(N_("Issue date"), text(invoice.issue_date), "date"),
        Fact(N_("Gross amount"), text(invoice.totals.gross), "money", currency),
        Fact(N_("Due date"), text(invoice.due_date), "date"),
        Fact("IBAN", grouped_iban(iban), "iban"),
    ]
    if duplicates:
        facts.append(Fact(N_("Possible duplicates"), str(duplicates), "number"))
    verdict = invoice_verdict(invoice_signs(result, master_data_set))
    missing = NOT_RECOGNISED if result.checks is not None else NOT_ON_THE_INVOICE
    return Summary(verdict, tuple(facts), missing)


# --- statements, payment files, documents ----------------------------------------------


def reconciliation_verdict(reconciled: bool | None) -> Verdict:
    if reconciled is True:
        return Verdict(OK, N_("Reconciled"))
    if reconciled is False:
        reason = N_("Opening balance + transactions ≠ closing balance.")
        return Verdict(BAD, N_("Not reconciled"), (Message(reason),))
    return Verdict(WARN, N_("Not checked"), (Message(N_("The balances were not found.")),))


def statement_summary(statement: StatementView) -> Summary:
    total = len(statement.transactions)
    left = total - statement.confirmed_count
    to_confirm = (
        Message(N_("%(left)s of %(total)s transactions"), {"left": left, "total": total})
        if left
        else Message(N_("nothing: every transaction is confirmed"))
    )
    facts = (
        Fact(N_("Account"), statement.account_iban, "iban"),
        Fact(N_("Period"), statement.period_start, "period", until=statement.period_end),
        Fact(N_("Opening balance"), statement.opening_balance, "money", statement.currency),
        Fact(N_("Closing balance"), statement.closing_balance, "money", statement.currency),
        Fact(N_("Left to confirm"), to_confirm, "label"),
    )
    return Summary(reconciliation_verdict(statement.reconciled), facts)


def payment_file_verdict(consistent: bool) -> Verdict:
    if consistent:
        return Verdict(OK, N_("Totals match"))
    return Verdict(BAD, N_("Totals do not match"))


def payment_file_summary(payment_file: PaymentFileView, debtor: str | None) -> Summary:
    """`debtor`: who pays. A transfer's own side; a direct debit's debtors are its
    payments' counterparties, so the card names the first and counts the rest."""
    stated = next((c for c in payment_file.checks if c.label == "Control sum"), None)
    facts = (
        Fact(N_("Kind"), payment_file.kind_label, "label"),
        Fact(N_("Debtor"), debtor),
        Fact(N_("Payments"), str(len(payment_file.payments)), "number"),
        Fact(N_("Sum"), stated.stated if stated else None, "money", payment_file.currency),
    )
    return Summary(payment_file_verdict(payment_file.consistent), facts)


def payment_file_debtor(payment_file: PaymentFileView, direct_debit: bool) -> str | None:
    if direct_debit:
        names = [p.name for p in payment_file.payments if p.name]
        if len(names) > 1:
            return f"{names[0]} (+{len(names) - 1})"
        return names[0] if names else None
    own = next((p.own_name for p in payment_file.payments if p.own_name), None)
    return own or payment_file.initiating_party


# The reasons the processors store (English, shared with the API), in the catalogue.
_REASONS = {
    SEPA_REASON: N_("It is a SEPA payment file: it moves money, it does not bill."),
    NOT_AN_EINVOICE_REASON: N_("It is XML, but not an e-invoice (UBL or CII)."),
}
_KINDS = {
    FileKind.PDF.value: N_("PDF document"),
    FileKind.XML.value: N_("XML document"),
}


def document_summary(document: DocumentView) -> Summary:
    if document.payment_file is not None:
        what: str = N_("SEPA payment file")
    elif document.kind in _KINDS:
        what = _KINDS[document.kind]
    else:
        what = N_("XML document")
    reason = document.reason
    why: str | Message = (
        _REASONS.get(reason, reason)
        if reason
        else N_("No invoice was recognised in it (no e-invoice data, no invoice in its text).")
    )
    facts = (
        Fact(N_("What it is"), what, "label"),
        Fact(N_("Title"), document.title) if document.title else None,
        Fact(N_("Why it is not an invoice"), why, "label"),
    )
    verdict = Verdict(INFO, N_("Filed as a document"))
    return Summary(verdict, tuple(fact for fact in facts if fact is not None))


# --- the inbox -------------------------------------------------------------------------


@dataclass(frozen=True)
class Glance:
    """A listed result's columns: who, which number, which date, how much, the verdict."""

    party: str | None
    number: str | None
    date: str | None
    amount: str | None
    currency: str | None
    verdict: Verdict | None


def glance(result_type: str, values: Mapping[str, Any], master_data_set: bool = True) -> Glance:
    """From the values storage.repositories.result_glances picks out of a result."""
    if result_type == "invoice" and values.get("direction") is not None:
        issued = values.get("direction") == DocumentType.CUSTOMER_INVOICE
        signs = InvoiceSigns(
            valid=_flag(values.get("validation.valid")),
            totals=text(values.get("checks.totals")),
            needs_review=values.get("checks.needsReview") is True,
            uncertain=values.get("directionUncertain") is True and master_data_set,
            mismatch=values.get("directionMismatch") is True,
            hybrid_flagged=bool(values.get("hybridCheck.mismatches")),
        )
        return Glance(
            party=text(values.get("invoice.buyer.name" if issued else "invoice.seller.name")),
            number=text(values.get("invoice.number")),
            date=text(values.get("invoice.issueDate")),
            amount=text(values.get("invoice.totals.gross")),
            currency=text(values.get("invoice.currency")),
            verdict=invoice_verdict(signs),
        )
    if result_type == "bank_statement":
        return Glance(
            party=grouped_iban(values.get("statement.accountIban")),
            number=text(values.get("statement.number")),
            date=text(values.get("statement.periodEnd")),
            amount=text(values.get("statement.closingBalance")),
            currency=text(values.get("statement.currency")),
            verdict=reconciliation_verdict(_flag(values.get("reconciled"))),
        )
    if result_type == "payment_file":
        return Glance(
            party=None,
            number=None,
            date=None,
            amount=text(values.get("controlSum")),
            currency=text(values.get("payments.0.currency")),
            # The processor refuses a file whose totals differ from its payments.
            verdict=payment_file_verdict(True),
        )
    return Glance(None, None, None, None, None, None)


def _flag(value: Any) -> bool | None:
    return value if isinstance(value, bool) else None

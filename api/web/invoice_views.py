"""The invoice page's view model, from the typed invoice result (processors/results/
invoice.py: the normalized invoice, its direction, validation or checks, and source)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from api.web.finding_groups import FindingGroup
from api.web.hybrid_views import HybridView, hybrid_view
from api.web.i18n import N_, Message
from api.web.labels import (
    DIRECTION_LABELS,
    INVOICE_TYPE_LABELS,
    PAYMENT_MEANS_LABELS,
    VAT_CATEGORY_LABELS,
)
from api.web.processor_texts import direction_reason, totals_explained
from api.web.result_views import (
    FindingView,
    finding_views,
    findings_by_term,
    grouped_iban,
    level_counts,
    result_path,
    text,
)
from processors.base import FileKind
from processors.invoice_model import (
    Address,
    Invoice,
    LineItem,
    Party,
    PaymentMeans,
    Totals,
    VatBreakdown,
)
from processors.json_fields import ResultShapeError
from processors.results.invoice import (
    EInvoiceValidation,
    InvoiceChecks,
    InvoiceResult,
    TotalsCheck,
)
from processors.results.source import ReadMethod, Source
from storage.models import Result


@dataclass(frozen=True)
class PartyView:
    name: str | None
    trading_name: str | None
    address_lines: tuple[str, ...]
    vat_id: str | None
    tax_number: str | None
    legal_registration_id: str | None
    electronic_address: str | Message | None

    @property
    def empty(self) -> bool:
        return not (self.name or self.address_lines or self.vat_id or self.tax_number)


@dataclass(frozen=True)
class Amount:
    label: str
    amount: str
    emphasis: bool = False


@dataclass(frozen=True)
class VatRowView:
    category_code: str | None
    category_label: str | None
    rate: str | None
    taxable_amount: str | None
    tax_amount: str | None
    exemption_reason: str | None


@dataclass(frozen=True)
class LineView:
    line_id: str | None
    name: str | None
    description: str | None
    quantity: str | None
    unit_code: str | None
    net_unit_price: str | None
    net_amount: str | None
    vat_category_code: str | None
    vat_rate: str | None


@dataclass(frozen=True)
class PaymentMeansView:
    type_code: str | None
    type_label: str | None
    payee_iban: str | None
    payee_bic: str | None
    payee_account_name: str | None
    payer_iban: str | None
    mandate_reference: str | None
    reference: str | None


@dataclass(frozen=True)
class DirectionView:
    direction: str | None
    label: str
    uncertain: bool  # in doubt although the company's master data is set: a warning
    unchecked: bool  # not decided because the master data is not set: a hint only
    mismatch: bool
    reason: str | Message | None


@dataclass(frozen=True)
class ValidationView:
    valid: bool
    syntax: str | None
    profile: str | None
    specification_id: str | None
    scenario: str | None
    findings: tuple[FindingView, ...]
    counts: Mapping[str, int]

    @property
    def finding_groups(self) -> tuple[FindingGroup[FindingView], ...]:
        return findings_by_term(self.findings)

    @property
    def summary(self) -> tuple[tuple[str, str], ...]:
        """(label msgid, value): syntax ubl-invoice, profile EN16931, ... whatever is known."""
        parts = (
            (N_("syntax"), self.syntax),
            (N_("profile"), self.profile),
            (N_("scenario"), self.scenario),
        )
        return tuple((name, value) for name, value in parts if value)


@dataclass(frozen=True)
class DuplicateView:
    url: str
    number: str | None
    issue_date: str | None
    gross: str | None
    currency: str | None
    created_at: datetime


@dataclass(frozen=True)
class InvoiceView:
    number: str | None
    type_label: str
    type_code: str | None
    issue_date: str | None
    due_date: str | None
    currency: str | None
    seller: PartyView
    buyer: PartyView
    totals: tuple[Amount, ...]
    vat_rows: tuple[VatRowView, ...]
    lines: tuple[LineView, ...]
    payment_means: tuple[PaymentMeansView, ...]
    payment_terms: str | None
    references: tuple[tuple[str, str], ...]
    notes: tuple[str, ...]
    direction: DirectionView
    validation: ValidationView | None
    hybrid: HybridView | None  # a hybrid PDF: its XML against its visible text
    source: str | Message
    review_notes: tuple[Message, ...]
    read_from_text: bool  # a PDF's text: what was not found may still be printed on it
    duplicates: tuple[DuplicateView, ...]


def invoice_view(
    result: InvoiceResult, duplicates: Sequence[Result] = (), master_data_set: bool = True
) -> InvoiceView:
    invoice = result.invoice
    return InvoiceView(
        number=text(invoice.number),
        type_label=INVOICE_TYPE_LABELS[invoice.invoice_type],
        type_code=text(invoice.type_code),
        issue_date=text(invoice.issue_date),
        due_date=text(invoice.due_date),
        currency=text(invoice.currency),
        seller=party_view(invoice.seller),
        buyer=party_view(invoice.buyer),
        totals=amounts(invoice.totals),
        vat_rows=tuple(_vat_row(row) for row in invoice.vat_breakdown),
        lines=tuple(_line(line) for line in invoice.lines),
        payment_means=tuple(_payment_means(m) for m in invoice.payment_means),
        payment_terms=text(invoice.payment_terms),
        references=references(invoice),
        notes=tuple(str(text(n)) for n in invoice.notes if text(n)),
        direction=direction_view(result, master_data_set),
        validation=validation_view(result.validation),
        hybrid=hybrid_view(result.hybrid_check),
        source=source_label(result.source),
        review_notes=tuple(review_notes(result.checks)),
        read_from_text=result.checks is not None,
        duplicates=tuple(duplicate_view(result) for result in duplicates),
    )


def amounts(totals: Totals) -> tuple[Amount, ...]:
    """The totals printed, in the order of EN 16931; the gross and due amounts stand out."""
    rows = (
        (N_("Sum of lines"), totals.line_total, False),
        (N_("Allowances"), totals.allowance_total, False),
        (N_("Charges"), totals.charge_total, False),
        (N_("Net amount"), totals.net, False),
        (N_("VAT"), totals.vat, False),
        (N_("Gross amount"), totals.gross, True),
        (N_("Prepaid"), totals.prepaid, False),
        (N_("Rounding"), totals.rounding, False),
        (N_("Amount due"), totals.amount_due, True),
    )
    return tuple(
        Amount(label, str(value), stand_out)
        for label, value, stand_out in rows
        if value is not None
    )


def references(invoice: Invoice) -> tuple[tuple[str, str], ...]:
    rows = (
        (N_("Buyer reference"), text(invoice.buyer_reference)),
        (N_("Order reference"), text(invoice.order_reference)),
        (N_("Contract reference"), text(invoice.contract_reference)),
        (N_("Preceding invoice"), text(invoice.preceding_invoice_reference)),
    )
    return tuple((label, value) for label, value in rows if value is not None)


def party_view(party: Party) -> PartyView:
    electronic = party.electronic_address
    address_value = text(electronic.value) if electronic else None
    scheme = text(electronic.scheme) if electronic else None
    return PartyView(
        name=text(party.name),
        trading_name=text(party.trading_name),
        address_lines=address_lines(party.address),
        vat_id=text(party.vat_id),
        tax_number=text(party.tax_number),
        legal_registration_id=text(party.legal_registration_id),
        electronic_address=(
            Message(
                N_("%(address)s (scheme %(scheme)s)"), {"address": address_value, "scheme": scheme}
            )
            if address_value and scheme
            else address_value
        ),
    )


def address_lines(address: Address | None) -> tuple[str, ...]:
    if address is None:
        return ()
    lines = [str(text(line)) for line in address.lines if text(line)]
    place = " ".join(part for part in (text(address.postal_code), text(address.city)) if part)
    for extra in (place, text(address.subdivision), text(address.country_code)):
        if extra:
            lines.append(extra)
    return tuple(lines)


def direction_view(result: InvoiceResult, master_data_set: bool = True) -> DirectionView:
    """Without the company's master data every invoice's direction is uncertain: then
    the inbox's one notice says what to fill in, and the invoice only hints at it."""
    return DirectionView(
        direction=result.direction.value,
        label=DIRECTION_LABELS.get(result.direction, N_("Unknown")),
        uncertain=result.direction_uncertain and master_data_set,
        unchecked=result.direction_uncertain and not master_data_set,
        mismatch=result.direction_mismatch,
        reason=direction_reason(text(result.direction_reason)),
    )


def validation_view(validation: EInvoiceValidation | None) -> ValidationView | None:
    """The e-invoice validation report; None for invoices read from a PDF's text."""
    if validation is None:
        return None
    findings = finding_views(validation.findings)
    return ValidationView(
        valid=validation.valid,
        syntax=text(validation.syntax),
        profile=text(validation.profile),
        specification_id=text(validation.specification_id),
        scenario=text(validation.scenario),
        findings=tuple(findings),
        counts=level_counts(findings),
    )


def source_label(source: Source) -> str | Message:
    if source.method is ReadMethod.TEXT:
        return N_("Read from the PDF's text (no structured data)")
    if source.method is ReadMethod.OCR:
        return N_("Read from the scanned pages (OCR)")
    if source.container is FileKind.PDF:
        attachment = text(source.attachment)
        if attachment:
            return Message(N_("E-invoice embedded in a PDF (%(file)s)"), {"file": attachment})
        return N_("PDF e-invoice")
    if source.container is FileKind.XML:
        return N_("XML e-invoice")
    return N_("Unknown source")


def review_notes(checks: InvoiceChecks | None) -> list[Message]:
    """What a reader should double-check on an invoice read from text, with what was
    checked (`totals_explained`, the processor's words: `net + VAT = gross`)."""
    if checks is None:
        return []
    notes: list[Message] = []
    explained = totals_explained(text(checks.totals_explained))
    if checks.totals is TotalsCheck.FAILED:
        notes.append(
            Message(N_("The totals do not add up (%(explained)s)."), {"explained": explained})
            if explained
            else Message(N_("The totals do not add up."))
        )
    elif checks.totals is TotalsCheck.INCOMPLETE:
        notes.append(
            Message(
                N_("Not every total was found, so %(explained)s could not be checked."),
                {"explained": explained},
            )
            if explained
            else Message(N_("Not every total was found, so the totals could not be checked."))
        )
    if checks.needs_review and not notes:
        notes.append(Message(N_("Read from text: please review the fields.")))
    return notes


def duplicate_view(result: Result) -> DuplicateView:
    """A possible duplicate, shown from its stored invoice (blank where it cannot be read)."""
    try:
        invoice: Invoice | None = InvoiceResult.from_dict(result.data).invoice
    except ResultShapeError:
        invoice = None
    return DuplicateView(
        url=result_path(result.type, result.id),
        number=text(invoice.number) if invoice else None,
        issue_date=text(invoice.issue_date) if invoice else None,
        gross=text(invoice.totals.gross) if invoice else None,
        currency=text(invoice.currency) if invoice else None,
        created_at=result.created_at,
    )


def _vat_row(row: VatBreakdown) -> VatRowView:
    code = text(row.category_code)
    return VatRowView(
        category_code=code,
        category_label=VAT_CATEGORY_LABELS.get(code or ""),
        rate=text(row.rate),
        taxable_amount=text(row.taxable_amount),
        tax_amount=text(row.tax_amount),
        exemption_reason=text(row.exemption_reason),
    )


def _line(line: LineItem) -> LineView:
    return LineView(
        line_id=text(line.line_id),
        name=text(line.name),
        description=text(line.description),
        quantity=text(line.quantity),
        unit_code=text(line.unit_code),
        net_unit_price=text(line.net_unit_price),
        net_amount=text(line.net_amount),
        vat_category_code=text(line.vat_category_code),
        vat_rate=text(line.vat_rate),
    )


def _payment_means(means: PaymentMeans) -> PaymentMeansView:
    code = text(means.type_code)
    return PaymentMeansView(
        type_code=code,
        type_label=PAYMENT_MEANS_LABELS.get(code or ""),
        payee_iban=grouped_iban(means.payee_iban),
        payee_bic=text(means.payee_bic),
        payee_account_name=text(means.payee_account_name),
        payer_iban=grouped_iban(means.payer_iban),
        mandate_reference=text(means.mandate_reference),
        reference=text(means.reference),
    )

"""The results API's models: GENERATED from the OpenAPI document by
scripts/generate_client_models.py; do not edit (tests/client/test_result_models.py
regenerates it and compares). Fields are snake_case; `metadata["key"]` is the JSON key.
Amounts are `Decimal`, dates `date`; enumerations are `Literal`s, read as text."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any, Literal

Agreement = Literal["agrees", "disagrees", "not_found"]

Confidence = Literal["high", "low"]

ContentItem = Literal[
    "supplier_name_address",
    "recipient_name_address",
    "supplier_tax_id",
    "issue_date",
    "invoice_number",
    "goods_services",
    "supply_date",
    "net_per_rate",
    "tax_rate_amount",
    "exemption_note",
    "reverse_charge_note",
    "recipient_vat_id",
]

ContentRegime = Literal["section_14", "section_33"]

DocumentType = Literal[
    "auto", "supplier_invoice", "customer_invoice", "bank_statement", "other_document"
]

EvidenceField = Literal[
    "number",
    "issueDate",
    "dueDate",
    "currency",
    "seller.name",
    "seller.vatId",
    "buyer.name",
    "totals.net",
    "totals.vat",
    "totals.gross",
    "totals.amountDue",
    "paymentMeans.payeeIban",
]

FileKind = Literal["pdf", "xml", "zip", "image", "office", "empty", "unknown"]

HybridField = Literal["invoice_number", "issue_date", "gross_total", "amount_due", "iban"]

InvoiceType = Literal["invoice", "credit_note", "corrected_invoice"]

ItemStatus = Literal["present", "missing", "not_determinable", "not_applicable", "not_required"]

Level = Literal["fatal", "error", "warning", "information"]

PaymentKind = Literal["credit_transfer", "direct_debit"]

ReadMethod = Literal["text", "ocr", "text+ocr"]

TaxIdKind = Literal["vat_id", "tax_number"]

TaxIdVerdict = Literal["valid", "bad_check_digit", "bad_format", "not_checked"]

TotalsCheck = Literal["passed", "failed", "incomplete"]


@dataclass(frozen=True, slots=True, kw_only=True)
class AccountWarningOut:
    """A warning about the bank account a supplier invoice asks to be paid into
    (docs/checks.md): `new_iban` (never seen for the supplier, while others were) or
    `foreign_iban` (another country than the supplier's), and the accountant's
    decision."""

    id: str = dataclasses.field(metadata={"key": "id"})
    iban: str = dataclasses.field(metadata={"key": "iban"})
    reason: Literal["new_iban", "foreign_iban"] = dataclasses.field(metadata={"key": "reason"})
    supplier_country: str | None = dataclasses.field(metadata={"key": "supplierCountry"})
    known_ibans: tuple[str, ...] = dataclasses.field(metadata={"key": "knownIbans"})
    decision: Literal["confirmed", "dismissed"] | None = dataclasses.field(
        metadata={"key": "decision"}
    )
    decided_at: str | None = dataclasses.field(metadata={"key": "decidedAt"})
    created_at: str = dataclasses.field(metadata={"key": "createdAt"})


@dataclass(frozen=True, slots=True, kw_only=True)
class AnnotationOut:
    """A note added to an invoice in the web application (an e-invoice's XML is the
    original and is not edited): the text, who (e-mail; null once the user is
    deleted) and when."""

    text: str = dataclasses.field(metadata={"key": "text"})
    by: str | None = dataclasses.field(metadata={"key": "by"})
    at: str = dataclasses.field(metadata={"key": "at"})


@dataclass(frozen=True, slots=True, kw_only=True)
class ApprovalOut:
    """An invoice approved in the web application: by whom (the user's e-mail; null once
    the user is deleted) and when. A withdrawn approval is null again."""

    by: str | None = dataclasses.field(metadata={"key": "by"})
    at: str = dataclasses.field(metadata={"key": "at"})


@dataclass(frozen=True, slots=True, kw_only=True)
class BankStatementData:
    """BankStatementResult"""

    statement: Statement = dataclasses.field(metadata={"key": "statement"})
    transactions: tuple[StatementTransaction, ...] = dataclasses.field(
        metadata={"key": "transactions"}
    )
    reconciled: bool | None = dataclasses.field(metadata={"key": "reconciled"})
    source: Source = dataclasses.field(metadata={"key": "source"})


@dataclass(frozen=True, slots=True, kw_only=True)
class BankStatementResultOut:
    """A bank statement: account, period, balances, transactions (with `confirmed`, as
    confirmed in the web application) and whether the balances reconcile."""

    id: str = dataclasses.field(metadata={"key": "id"})
    schema_version: int = dataclasses.field(metadata={"key": "schemaVersion"})
    change_sequence: int = dataclasses.field(metadata={"key": "changeSequence"})
    created_at: str = dataclasses.field(metadata={"key": "createdAt"})
    updated_at: str = dataclasses.field(metadata={"key": "updatedAt"})
    url: str = dataclasses.field(metadata={"key": "url"})
    original: str = dataclasses.field(metadata={"key": "original"})
    type: Literal["bank_statement"] = dataclasses.field(metadata={"key": "type"})
    data: BankStatementData = dataclasses.field(metadata={"key": "data"})
    payment_matches: tuple[PaymentMatchOut, ...] | None = dataclasses.field(
        metadata={"key": "paymentMatches"}, default=None
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Box:
    """A rectangle on a page in points, origin top-left (see the module's docstring)."""

    x0: float = dataclasses.field(metadata={"key": "x0"})
    y0: float = dataclasses.field(metadata={"key": "y0"})
    x1: float = dataclasses.field(metadata={"key": "x1"})
    y1: float = dataclasses.field(metadata={"key": "y1"})


@dataclass(frozen=True, slots=True, kw_only=True)
class Buyer:
    """Party"""

    name: str | None = dataclasses.field(metadata={"key": "name"})
    trading_name: str | None = dataclasses.field(metadata={"key": "tradingName"})
    address: BuyerAddress | None = dataclasses.field(metadata={"key": "address"})
    vat_id: str | None = dataclasses.field(metadata={"key": "vatId"})
    tax_number: str | None = dataclasses.field(metadata={"key": "taxNumber"})
    legal_registration_id: str | None = dataclasses.field(metadata={"key": "legalRegistrationId"})
    electronic_address: ElectronicAddress | None = dataclasses.field(
        metadata={"key": "electronicAddress"}
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class BuyerAddress:
    """Address"""

    lines: tuple[str, ...] = dataclasses.field(metadata={"key": "lines"})
    city: str | None = dataclasses.field(metadata={"key": "city"})
    postal_code: str | None = dataclasses.field(metadata={"key": "postalCode"})
    subdivision: str | None = dataclasses.field(metadata={"key": "subdivision"})
    country_code: str | None = dataclasses.field(metadata={"key": "countryCode"})


@dataclass(frozen=True, slots=True, kw_only=True)
class ContentCheck:
    """ContentCheck"""

    regime: ContentRegime = dataclasses.field(metadata={"key": "regime"})
    items: tuple[ItemVerdict, ...] = dataclasses.field(metadata={"key": "items"})


@dataclass(frozen=True, slots=True, kw_only=True)
class CorrectionOut:
    """A field of a PDF invoice corrected in the web application: the value before (as
    extracted, or as the previous correction set it) and after, who (e-mail) and
    when. `data` carries the corrected values; the first correction of a field holds
    the value as extracted in `old`."""

    field: Literal[
        "number",
        "issue_date",
        "due_date",
        "seller_name",
        "seller_vat_id",
        "buyer_name",
        "buyer_vat_id",
        "net",
        "vat",
        "gross",
        "amount_due",
        "iban",
    ] = dataclasses.field(metadata={"key": "field"})
    old: str | None = dataclasses.field(metadata={"key": "old"})
    new: str | None = dataclasses.field(metadata={"key": "new"})
    by: str | None = dataclasses.field(metadata={"key": "by"})
    at: str = dataclasses.field(metadata={"key": "at"})


@dataclass(frozen=True, slots=True, kw_only=True)
class EInvoiceValidation:
    """EInvoiceValidation"""

    syntax: str = dataclasses.field(metadata={"key": "syntax"})
    specification_id: str | None = dataclasses.field(metadata={"key": "specificationId"})
    profile: str = dataclasses.field(metadata={"key": "profile"})
    scenario: str | None = dataclasses.field(metadata={"key": "scenario"})
    valid: bool = dataclasses.field(metadata={"key": "valid"})
    findings: tuple[Finding, ...] = dataclasses.field(metadata={"key": "findings"})


@dataclass(frozen=True, slots=True, kw_only=True)
class ElectronicAddress:
    """ElectronicAddress"""

    value: str = dataclasses.field(metadata={"key": "value"})
    scheme: str | None = dataclasses.field(metadata={"key": "scheme"})


@dataclass(frozen=True, slots=True, kw_only=True)
class FieldComparison:
    """FieldComparison"""

    field: HybridField = dataclasses.field(metadata={"key": "field"})
    agreement: Agreement = dataclasses.field(metadata={"key": "agreement"})
    xml_value: str = dataclasses.field(metadata={"key": "xmlValue"})
    text_value: str | None = dataclasses.field(metadata={"key": "textValue"})


@dataclass(frozen=True, slots=True, kw_only=True)
class FieldEvidence:
    """FieldEvidence"""

    field: EvidenceField = dataclasses.field(metadata={"key": "field"})
    page: int = dataclasses.field(metadata={"key": "page"})
    box: Box = dataclasses.field(metadata={"key": "box"})
    confidence: Confidence = dataclasses.field(metadata={"key": "confidence"})
    reason: str | None = dataclasses.field(metadata={"key": "reason"}, default=None)
    page_size: PageSize | None = dataclasses.field(metadata={"key": "pageSize"}, default=None)


@dataclass(frozen=True, slots=True, kw_only=True)
class FiledPaymentFile:
    """FiledPaymentFile"""

    reason: str = dataclasses.field(metadata={"key": "reason"})
    payment_file: PaymentFile = dataclasses.field(metadata={"key": "paymentFile"})


@dataclass(frozen=True, slots=True, kw_only=True)
class FiledPdf:
    """FiledPdf"""

    kind: FileKind = dataclasses.field(metadata={"key": "kind"})
    size: int = dataclasses.field(metadata={"key": "size"})
    page_count: int = dataclasses.field(metadata={"key": "page_count"})
    title: str | None = dataclasses.field(metadata={"key": "title"})


@dataclass(frozen=True, slots=True, kw_only=True)
class FiledXml:
    """FiledXml"""

    kind: FileKind = dataclasses.field(metadata={"key": "kind"})
    size: int = dataclasses.field(metadata={"key": "size"})
    page_count: int | None = dataclasses.field(metadata={"key": "page_count"})
    title: str | None = dataclasses.field(metadata={"key": "title"})
    root_namespace: str | None = dataclasses.field(metadata={"key": "root_namespace"})
    root_element: str | None = dataclasses.field(metadata={"key": "root_element"})


@dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    """Finding"""

    id: str = dataclasses.field(metadata={"key": "id"})
    level: Level = dataclasses.field(metadata={"key": "level"})
    text: str = dataclasses.field(metadata={"key": "text"})
    location: str | None = dataclasses.field(metadata={"key": "location"})
    stage: str = dataclasses.field(metadata={"key": "stage"})
    business_terms: tuple[str, ...] = dataclasses.field(metadata={"key": "businessTerms"})
    explanation_en: str = dataclasses.field(metadata={"key": "explanationEn"})
    explanation_de: str = dataclasses.field(metadata={"key": "explanationDe"})


@dataclass(frozen=True, slots=True, kw_only=True)
class HybridCheck:
    """HybridCheck"""

    fields: tuple[FieldComparison, ...] = dataclasses.field(metadata={"key": "fields"})
    mismatches: tuple[HybridField, ...] = dataclasses.field(metadata={"key": "mismatches"})


@dataclass(frozen=True, slots=True, kw_only=True)
class Invoice:
    """Invoice"""

    number: str | None = dataclasses.field(metadata={"key": "number"})
    invoice_type: InvoiceType = dataclasses.field(metadata={"key": "invoiceType"})
    type_code: str | None = dataclasses.field(metadata={"key": "typeCode"})
    issue_date: date | None = dataclasses.field(metadata={"key": "issueDate"})
    currency: str | None = dataclasses.field(metadata={"key": "currency"})
    seller: Seller = dataclasses.field(metadata={"key": "seller"})
    buyer: Buyer = dataclasses.field(metadata={"key": "buyer"})
    totals: Totals = dataclasses.field(metadata={"key": "totals"})
    due_date: date | None = dataclasses.field(metadata={"key": "dueDate"})
    vat_breakdown: tuple[VatBreakdown, ...] = dataclasses.field(metadata={"key": "vatBreakdown"})
    lines: tuple[LineItem, ...] = dataclasses.field(metadata={"key": "lines"})
    payment_means: tuple[PaymentMeans, ...] = dataclasses.field(metadata={"key": "paymentMeans"})
    payment_terms: str | None = dataclasses.field(metadata={"key": "paymentTerms"})
    buyer_reference: str | None = dataclasses.field(metadata={"key": "buyerReference"})
    order_reference: str | None = dataclasses.field(metadata={"key": "orderReference"})
    contract_reference: str | None = dataclasses.field(metadata={"key": "contractReference"})
    preceding_invoice_reference: str | None = dataclasses.field(
        metadata={"key": "precedingInvoiceReference"}
    )
    notes: tuple[str, ...] = dataclasses.field(metadata={"key": "notes"})


@dataclass(frozen=True, slots=True, kw_only=True)
class InvoiceChecks:
    """What to double-check on an invoice read from a PDF's text."""

    totals: TotalsCheck = dataclasses.field(metadata={"key": "totals"})
    totals_explained: str = dataclasses.field(metadata={"key": "totalsExplained"})
    vat_breakdown_rows: int = dataclasses.field(metadata={"key": "vatBreakdownRows"})
    confidence: Confidence = dataclasses.field(metadata={"key": "confidence"})
    needs_review: bool = dataclasses.field(metadata={"key": "needsReview"})
    ocr: str | None = dataclasses.field(metadata={"key": "ocr"}, default=None)
    template: bool | None = dataclasses.field(metadata={"key": "template"}, default=None)
    placeholders: tuple[str, ...] | None = dataclasses.field(
        metadata={"key": "placeholders"}, default=None
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class InvoiceData:
    """Stored as `invoice`, the four direction keys, how it was read (a PDF's text:
    classification and checks; an e-invoice: validation; a hybrid PDF also the check
    of its XML against its text), the check of its tax ids and of its mandatory
    items, and the source."""

    invoice: Invoice = dataclasses.field(metadata={"key": "invoice"})
    direction: DocumentType = dataclasses.field(metadata={"key": "direction"})
    direction_uncertain: bool = dataclasses.field(metadata={"key": "directionUncertain"})
    direction_mismatch: bool = dataclasses.field(metadata={"key": "directionMismatch"})
    direction_reason: str = dataclasses.field(metadata={"key": "directionReason"})
    classification: TextClassification | None = dataclasses.field(
        metadata={"key": "classification"}, default=None
    )
    checks: InvoiceChecks | None = dataclasses.field(metadata={"key": "checks"}, default=None)
    validation: EInvoiceValidation | None = dataclasses.field(
        metadata={"key": "validation"}, default=None
    )
    hybrid_check: HybridCheck | None = dataclasses.field(
        metadata={"key": "hybridCheck"}, default=None
    )
    tax_ids: tuple[TaxIdCheck, ...] | None = dataclasses.field(
        metadata={"key": "taxIds"}, default=None
    )
    content_check: ContentCheck | None = dataclasses.field(
        metadata={"key": "contentCheck"}, default=None
    )
    source: Source = dataclasses.field(metadata={"key": "source"})
    evidence: tuple[FieldEvidence, ...] | None = dataclasses.field(
        metadata={"key": "evidence"}, default=None
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class InvoiceResultOut:
    """An invoice: the normalized invoice (EN 16931 terms in the descriptions), its
    direction, how it was read (`validation` of an e-invoice, or `classification`
    and `checks` of a PDF's text, with `needsReview`), and a hybrid's `hybridCheck`.
    Beside the data: its approval, corrections and annotations, the warnings about
    its bank account, the payments matched to it and the online confirmations of its
    foreign VAT ids."""

    id: str = dataclasses.field(metadata={"key": "id"})
    schema_version: int = dataclasses.field(metadata={"key": "schemaVersion"})
    change_sequence: int = dataclasses.field(metadata={"key": "changeSequence"})
    created_at: str = dataclasses.field(metadata={"key": "createdAt"})
    updated_at: str = dataclasses.field(metadata={"key": "updatedAt"})
    url: str = dataclasses.field(metadata={"key": "url"})
    original: str = dataclasses.field(metadata={"key": "original"})
    type: Literal["invoice"] = dataclasses.field(metadata={"key": "type"})
    data: InvoiceData = dataclasses.field(metadata={"key": "data"})
    approval: ApprovalOut | None = dataclasses.field(metadata={"key": "approval"}, default=None)
    corrections: tuple[CorrectionOut, ...] | None = dataclasses.field(
        metadata={"key": "corrections"}, default=None
    )
    annotations: tuple[AnnotationOut, ...] | None = dataclasses.field(
        metadata={"key": "annotations"}, default=None
    )
    account_warnings: tuple[AccountWarningOut, ...] | None = dataclasses.field(
        metadata={"key": "accountWarnings"}, default=None
    )
    payment_matches: tuple[PaymentMatchOut, ...] | None = dataclasses.field(
        metadata={"key": "paymentMatches"}, default=None
    )
    vat_confirmations: tuple[VatConfirmationOut, ...] | None = dataclasses.field(
        metadata={"key": "vatConfirmations"}, default=None
    )
    reclassifications: tuple[ReclassificationOut, ...] | None = dataclasses.field(
        metadata={"key": "reclassifications"}, default=None
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class ItemVerdict:
    """ItemVerdict"""

    item: ContentItem = dataclasses.field(metadata={"key": "item"})
    status: ItemStatus = dataclasses.field(metadata={"key": "status"})
    reference: str = dataclasses.field(metadata={"key": "reference"})
    where: str | None = dataclasses.field(metadata={"key": "where"}, default=None)


@dataclass(frozen=True, slots=True, kw_only=True)
class LineItem:
    """LineItem"""

    line_id: str | None = dataclasses.field(metadata={"key": "lineId"})
    name: str | None = dataclasses.field(metadata={"key": "name"})
    quantity: Decimal | None = dataclasses.field(metadata={"key": "quantity"})
    unit_code: str | None = dataclasses.field(metadata={"key": "unitCode"})
    net_unit_price: Decimal | None = dataclasses.field(metadata={"key": "netUnitPrice"})
    net_amount: Decimal | None = dataclasses.field(metadata={"key": "netAmount"})
    vat_category_code: str | None = dataclasses.field(metadata={"key": "vatCategoryCode"})
    vat_rate: Decimal | None = dataclasses.field(metadata={"key": "vatRate"})
    description: str | None = dataclasses.field(metadata={"key": "description"})


@dataclass(frozen=True, slots=True, kw_only=True)
class NonInvoiceXml:
    """NonInvoiceXml"""

    reason: str = dataclasses.field(metadata={"key": "reason"})
    root_element: str = dataclasses.field(metadata={"key": "rootElement"})
    root_namespace: str | None = dataclasses.field(metadata={"key": "rootNamespace"})


@dataclass(frozen=True, slots=True, kw_only=True)
class OcrSummary:
    """OcrSummary"""

    pages: int = dataclasses.field(metadata={"key": "pages"})
    words: int = dataclasses.field(metadata={"key": "words"})
    mean_confidence: float = dataclasses.field(metadata={"key": "meanConfidence"})
    recognised_rate: float = dataclasses.field(metadata={"key": "recognisedRate"})
    seconds: float = dataclasses.field(metadata={"key": "seconds"})
    review_advised: bool | None = dataclasses.field(metadata={"key": "reviewAdvised"}, default=None)
    pages_not_read: int = dataclasses.field(metadata={"key": "pagesNotRead"})
    undecodable_pages: tuple[UndecodablePage, ...] | None = dataclasses.field(
        metadata={"key": "undecodablePages"}, default=None
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class OtherDocumentResultOut:
    """A document filed, not booked: what kind of file it is, and why it was filed
    (`reason`) when a processor looked at it and declined."""

    id: str = dataclasses.field(metadata={"key": "id"})
    schema_version: int = dataclasses.field(metadata={"key": "schemaVersion"})
    change_sequence: int = dataclasses.field(metadata={"key": "changeSequence"})
    created_at: str = dataclasses.field(metadata={"key": "createdAt"})
    updated_at: str = dataclasses.field(metadata={"key": "updatedAt"})
    url: str = dataclasses.field(metadata={"key": "url"})
    original: str = dataclasses.field(metadata={"key": "original"})
    type: Literal["other_document"] = dataclasses.field(metadata={"key": "type"})
    data: FiledPdf | FiledXml | NonInvoiceXml | FiledPaymentFile = dataclasses.field(
        metadata={"key": "data"}
    )
    reclassifications: tuple[ReclassificationOut, ...] | None = dataclasses.field(
        metadata={"key": "reclassifications"}, default=None
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class PageSize:
    """A page's size in points, as displayed: what a box is drawn on."""

    width: float = dataclasses.field(metadata={"key": "width"})
    height: float = dataclasses.field(metadata={"key": "height"})


@dataclass(frozen=True, slots=True, kw_only=True)
class Payment:
    """Payment"""

    payment_info_id: str | None = dataclasses.field(metadata={"key": "paymentInfoId"})
    requested_date: str | None = dataclasses.field(metadata={"key": "requestedDate"})
    end_to_end_id: str | None = dataclasses.field(metadata={"key": "endToEndId"})
    amount: str | None = dataclasses.field(metadata={"key": "amount"})
    currency: str | None = dataclasses.field(metadata={"key": "currency"})
    name: str | None = dataclasses.field(metadata={"key": "name"})
    iban: str | None = dataclasses.field(metadata={"key": "iban"})
    bic: str | None = dataclasses.field(metadata={"key": "bic"})
    remittance_information: str | None = dataclasses.field(
        metadata={"key": "remittanceInformation"}
    )
    mandate_id: str | None = dataclasses.field(metadata={"key": "mandateId"})
    own_name: str | None = dataclasses.field(metadata={"key": "ownName"})
    own_iban: str | None = dataclasses.field(metadata={"key": "ownIban"})


@dataclass(frozen=True, slots=True, kw_only=True)
class PaymentFile:
    """PaymentFile"""

    kind: PaymentKind = dataclasses.field(metadata={"key": "kind"})
    message_type: str = dataclasses.field(metadata={"key": "messageType"})
    message_id: str | None = dataclasses.field(metadata={"key": "messageId"})
    creation_time: str | None = dataclasses.field(metadata={"key": "creationTime"})
    initiating_party: str | None = dataclasses.field(metadata={"key": "initiatingParty"})
    number_of_transactions: int = dataclasses.field(metadata={"key": "numberOfTransactions"})
    control_sum: Decimal = dataclasses.field(metadata={"key": "controlSum"})
    validation: PaymentFileChecks = dataclasses.field(metadata={"key": "validation"})
    payments: tuple[Payment, ...] = dataclasses.field(metadata={"key": "payments"})


@dataclass(frozen=True, slots=True, kw_only=True)
class PaymentFileChecks:
    """PaymentFileChecks"""

    xsd: str = dataclasses.field(metadata={"key": "xsd"})
    schema: str | None = dataclasses.field(metadata={"key": "schema"})
    variant: str | None = dataclasses.field(metadata={"key": "variant"})
    structure: str = dataclasses.field(metadata={"key": "structure"})
    warnings: tuple[str, ...] = dataclasses.field(metadata={"key": "warnings"})


@dataclass(frozen=True, slots=True, kw_only=True)
class PaymentFileData:
    """PaymentFile"""

    kind: PaymentKind = dataclasses.field(metadata={"key": "kind"})
    message_type: str = dataclasses.field(metadata={"key": "messageType"})
    message_id: str | None = dataclasses.field(metadata={"key": "messageId"})
    creation_time: str | None = dataclasses.field(metadata={"key": "creationTime"})
    initiating_party: str | None = dataclasses.field(metadata={"key": "initiatingParty"})
    number_of_transactions: int = dataclasses.field(metadata={"key": "numberOfTransactions"})
    control_sum: Decimal = dataclasses.field(metadata={"key": "controlSum"})
    validation: PaymentFileChecks = dataclasses.field(metadata={"key": "validation"})
    payments: tuple[Payment, ...] = dataclasses.field(metadata={"key": "payments"})


@dataclass(frozen=True, slots=True, kw_only=True)
class PaymentFileResultOut:
    """A SEPA payment file: its group header with the control sum, the checks, and every
    payment (transfer or direct debit)."""

    id: str = dataclasses.field(metadata={"key": "id"})
    schema_version: int = dataclasses.field(metadata={"key": "schemaVersion"})
    change_sequence: int = dataclasses.field(metadata={"key": "changeSequence"})
    created_at: str = dataclasses.field(metadata={"key": "createdAt"})
    updated_at: str = dataclasses.field(metadata={"key": "updatedAt"})
    url: str = dataclasses.field(metadata={"key": "url"})
    original: str = dataclasses.field(metadata={"key": "original"})
    type: Literal["payment_file"] = dataclasses.field(metadata={"key": "type"})
    data: PaymentFileData = dataclasses.field(metadata={"key": "data"})


@dataclass(frozen=True, slots=True, kw_only=True)
class PaymentMatchOut:
    """A confirmed statement transaction matched to an invoice (docs/checks.md): the part
    of its amount paying the invoice, the score (0-100) and its reasons, and whether
    the accountant accepted it."""

    id: str = dataclasses.field(metadata={"key": "id"})
    statement_id: str = dataclasses.field(metadata={"key": "statementId"})
    position: int = dataclasses.field(metadata={"key": "position"})
    invoice_id: str = dataclasses.field(metadata={"key": "invoiceId"})
    amount: Decimal = dataclasses.field(metadata={"key": "amount"})
    score: int = dataclasses.field(metadata={"key": "score"})
    reasons: tuple[str, ...] = dataclasses.field(metadata={"key": "reasons"})
    status: Literal["proposed", "accepted", "rejected"] = dataclasses.field(
        metadata={"key": "status"}
    )
    decided_at: str | None = dataclasses.field(metadata={"key": "decidedAt"})
    created_at: str = dataclasses.field(metadata={"key": "createdAt"})


@dataclass(frozen=True, slots=True, kw_only=True)
class PaymentMeans:
    """PaymentMeans"""

    type_code: str | None = dataclasses.field(metadata={"key": "typeCode"})
    payee_iban: str | None = dataclasses.field(metadata={"key": "payeeIban"})
    payee_bic: str | None = dataclasses.field(metadata={"key": "payeeBic"})
    payee_account_name: str | None = dataclasses.field(metadata={"key": "payeeAccountName"})
    payer_iban: str | None = dataclasses.field(metadata={"key": "payerIban"})
    mandate_reference: str | None = dataclasses.field(metadata={"key": "mandateReference"})
    reference: str | None = dataclasses.field(metadata={"key": "reference"})


@dataclass(frozen=True, slots=True, kw_only=True)
class ReclassificationOut:
    """An upload behind this result read again as another kind of document in the web
    application (an other document as an invoice, or back): what it had been read as
    (`fromType`, a result type), what it was read as then (`toType`, a
    documentType), who (the user's e-mail; null once the user is deleted) and when."""

    upload_id: str = dataclasses.field(metadata={"key": "uploadId"})
    from_type: str = dataclasses.field(metadata={"key": "fromType"})
    to_type: str = dataclasses.field(metadata={"key": "toType"})
    by: str | None = dataclasses.field(metadata={"key": "by"})
    at: str = dataclasses.field(metadata={"key": "at"})


@dataclass(frozen=True, slots=True, kw_only=True)
class ResultChange:
    """One entry of the listing: a result as its last change left it."""

    id: str = dataclasses.field(metadata={"key": "id"})
    type: Literal["invoice", "bank_statement", "payment_file", "other_document"] = (
        dataclasses.field(metadata={"key": "type"})
    )
    change_sequence: int = dataclasses.field(metadata={"key": "changeSequence"})
    updated_at: str = dataclasses.field(metadata={"key": "updatedAt"})
    deleted: bool = dataclasses.field(metadata={"key": "deleted"})
    result: (
        InvoiceResultOut
        | BankStatementResultOut
        | PaymentFileResultOut
        | OtherDocumentResultOut
        | None
    ) = dataclasses.field(metadata={"key": "result"})


@dataclass(frozen=True, slots=True, kw_only=True)
class ResultPage:
    """ResultPage"""

    items: tuple[ResultChange, ...] = dataclasses.field(metadata={"key": "items"})
    next_cursor: str = dataclasses.field(metadata={"key": "nextCursor"})
    has_more: bool = dataclasses.field(metadata={"key": "hasMore"})


@dataclass(frozen=True, slots=True, kw_only=True)
class Seller:
    """Party"""

    name: str | None = dataclasses.field(metadata={"key": "name"})
    trading_name: str | None = dataclasses.field(metadata={"key": "tradingName"})
    address: SellerAddress | None = dataclasses.field(metadata={"key": "address"})
    vat_id: str | None = dataclasses.field(metadata={"key": "vatId"})
    tax_number: str | None = dataclasses.field(metadata={"key": "taxNumber"})
    legal_registration_id: str | None = dataclasses.field(metadata={"key": "legalRegistrationId"})
    electronic_address: ElectronicAddress | None = dataclasses.field(
        metadata={"key": "electronicAddress"}
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class SellerAddress:
    """Address"""

    lines: tuple[str, ...] = dataclasses.field(metadata={"key": "lines"})
    city: str | None = dataclasses.field(metadata={"key": "city"})
    postal_code: str | None = dataclasses.field(metadata={"key": "postalCode"})
    subdivision: str | None = dataclasses.field(metadata={"key": "subdivision"})
    country_code: str | None = dataclasses.field(metadata={"key": "countryCode"})


@dataclass(frozen=True, slots=True, kw_only=True)
class Source:
    """A PDF read as text: container and method (and OCR when used). An e-invoice: its
    container, and for one embedded in a PDF the attachment's name and relationship."""

    container: FileKind = dataclasses.field(metadata={"key": "container"})
    method: ReadMethod | None = dataclasses.field(metadata={"key": "method"}, default=None)
    ocr: OcrSummary | None = dataclasses.field(metadata={"key": "ocr"}, default=None)
    attachment: str | None = dataclasses.field(metadata={"key": "attachment"}, default=None)
    relationship: str | None = dataclasses.field(metadata={"key": "relationship"}, default=None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Statement:
    """Statement"""

    account_iban: str | None = dataclasses.field(metadata={"key": "accountIban"})
    bic: str | None = dataclasses.field(metadata={"key": "bic"})
    currency: str | None = dataclasses.field(metadata={"key": "currency"})
    period_start: date | None = dataclasses.field(metadata={"key": "periodStart"})
    period_end: date | None = dataclasses.field(metadata={"key": "periodEnd"})
    number: str | None = dataclasses.field(metadata={"key": "number"})
    opening_balance: Decimal | None = dataclasses.field(metadata={"key": "openingBalance"})
    closing_balance: Decimal | None = dataclasses.field(metadata={"key": "closingBalance"})
    transaction_total: Decimal = dataclasses.field(metadata={"key": "transactionTotal"})


@dataclass(frozen=True, slots=True, kw_only=True)
class StatementTransaction:
    """StatementTransaction"""

    booking_date: date | None = dataclasses.field(metadata={"key": "bookingDate"})
    value_date: date | None = dataclasses.field(metadata={"key": "valueDate"})
    amount: Decimal = dataclasses.field(metadata={"key": "amount"})
    currency: str | None = dataclasses.field(metadata={"key": "currency"})
    counterparty_name: str | None = dataclasses.field(metadata={"key": "counterpartyName"})
    counterparty_iban: str | None = dataclasses.field(metadata={"key": "counterpartyIban"})
    purpose: str = dataclasses.field(metadata={"key": "purpose"})
    confirmed: bool = dataclasses.field(metadata={"key": "confirmed"})


@dataclass(frozen=True, slots=True, kw_only=True)
class TaxIdCheck:
    """One identifier printed on the invoice and what its offline check says. `country`:
    the VAT id's prefix (EL for Greece); `regions`: the Länder whose Steuernummer
    format the tax number fits."""

    party: str = dataclasses.field(metadata={"key": "party"})
    kind: TaxIdKind = dataclasses.field(metadata={"key": "kind"})
    value: str = dataclasses.field(metadata={"key": "value"})
    verdict: TaxIdVerdict = dataclasses.field(metadata={"key": "verdict"})
    country: str | None = dataclasses.field(metadata={"key": "country"}, default=None)
    regions: tuple[str, ...] = dataclasses.field(metadata={"key": "regions"})


@dataclass(frozen=True, slots=True, kw_only=True)
class TextClassification:
    """Why a PDF's text was taken for an invoice (processors/pdf_invoices/classify.py)."""

    score: int = dataclasses.field(metadata={"key": "score"})
    signals: tuple[str, ...] = dataclasses.field(metadata={"key": "signals"})


@dataclass(frozen=True, slots=True, kw_only=True)
class Totals:
    """Totals"""

    line_total: Decimal | None = dataclasses.field(metadata={"key": "lineTotal"})
    allowance_total: Decimal | None = dataclasses.field(metadata={"key": "allowanceTotal"})
    charge_total: Decimal | None = dataclasses.field(metadata={"key": "chargeTotal"})
    net: Decimal | None = dataclasses.field(metadata={"key": "net"})
    vat: Decimal | None = dataclasses.field(metadata={"key": "vat"})
    gross: Decimal | None = dataclasses.field(metadata={"key": "gross"})
    prepaid: Decimal | None = dataclasses.field(metadata={"key": "prepaid"})
    rounding: Decimal | None = dataclasses.field(metadata={"key": "rounding"})
    amount_due: Decimal | None = dataclasses.field(metadata={"key": "amountDue"})


@dataclass(frozen=True, slots=True, kw_only=True)
class UndecodablePage:
    """A page to be read by OCR whose images PDFium could not decode (a broken stream, a
    codec it lacks): read as a page without text."""

    page: int = dataclasses.field(metadata={"key": "page"})
    filters: tuple[str, ...] = dataclasses.field(metadata={"key": "filters"})


@dataclass(frozen=True, slots=True, kw_only=True)
class VatBreakdown:
    """VatBreakdown"""

    category_code: str | None = dataclasses.field(metadata={"key": "categoryCode"})
    rate: Decimal | None = dataclasses.field(metadata={"key": "rate"})
    taxable_amount: Decimal | None = dataclasses.field(metadata={"key": "taxableAmount"})
    tax_amount: Decimal | None = dataclasses.field(metadata={"key": "taxAmount"})
    exemption_reason: str | None = dataclasses.field(metadata={"key": "exemptionReason"})


@dataclass(frozen=True, slots=True, kw_only=True)
class VatConfirmationOut:
    """The online confirmation of a party's foreign EU VAT id by eVatR or VIES
    (docs/checks.md), kept as proof: the service's status code, its request id and
    time, and the comparison of name, city, postcode and street (A match, B
    mismatch, C not asked, D not given by the member state)."""

    party: Literal["seller", "buyer"] = dataclasses.field(metadata={"key": "party"})
    service: Literal["evatr", "vies"] = dataclasses.field(metadata={"key": "service"})
    vat_id: str = dataclasses.field(metadata={"key": "vatId"})
    confirmed: Literal["valid", "invalid", "unanswered"] = dataclasses.field(
        metadata={"key": "confirmed"}
    )
    status: str = dataclasses.field(metadata={"key": "status"})
    requested_at: str = dataclasses.field(metadata={"key": "requestedAt"})
    request_id: str | None = dataclasses.field(metadata={"key": "requestId"})
    matches: dict[str, Any] = dataclasses.field(metadata={"key": "matches"})
    valid_from: str | None = dataclasses.field(metadata={"key": "validFrom"})
    valid_to: str | None = dataclasses.field(metadata={"key": "validTo"})
    answered_at: str = dataclasses.field(metadata={"key": "answeredAt"})
    cached: bool = dataclasses.field(metadata={"key": "cached"})


AnyResult = (
    InvoiceResultOut | BankStatementResultOut | PaymentFileResultOut | OtherDocumentResultOut
)

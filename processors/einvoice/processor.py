"""The e-invoice processor: XML e-invoices and PDFs with an embedded one."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from lxml import etree

from processors.base import (
    DocumentType,
    FileKind,
    Outcome,
    ProcessingContext,
)
from processors.einvoice.business_terms import explained
from processors.einvoice.findings import (
    Finding,
    InvalidEInvoiceError,
    Level,
    NotAnEInvoiceError,
    failing,
)
from processors.einvoice.hybrid_pdf import check_pdf_hybrid
from processors.einvoice.pdf_attachment import UnreadablePdfError, find_embedded_invoice
from processors.einvoice.profiles import (
    ROOTS,
    Syntax,
    UnknownProfileError,
    declared_of,
    plan_for,
    profile_of,
    syntax_of,
)
from processors.einvoice.read_cii import ZUGFERD1, read_cii
from processors.einvoice.read_ubl import read_ubl
from processors.einvoice.validation import validate
from processors.invoice_model import Invoice, invoice_direction
from processors.json_fields import to_json
from processors.results.invoice import EInvoiceValidation, InvoiceResult
from processors.results.other_document import NonInvoiceXml
from processors.results.source import Source
from processors.xmlsafe import XmlEncodingError, XmlRejectedError, parse_xml, peek_root

INVOICE_DOCUMENT_TYPES = frozenset(
    {DocumentType.AUTO, DocumentType.SUPPLIER_INVOICE, DocumentType.CUSTOMER_INVOICE}
)
INVOICE_NAMESPACES = frozenset(namespace for namespace, _ in ROOTS)
SCORE_EINVOICE_XML = 80
SCORE_PDF = 40  # may carry an e-invoice; raises NotAnEInvoiceError when it does not
SCORE_OTHER_XML = 5  # fallback: non-invoice XML becomes an other document


class EInvoiceProcessor:
    name = "einvoice"

    def __init__(self, rules_root: Path | None = None) -> None:
        self._rules_root = rules_root

    def score(self, kind: FileKind, head: bytes, context: ProcessingContext) -> int:
        if context.document_type not in INVOICE_DOCUMENT_TYPES:
            return 0
        if kind is FileKind.PDF:
            return SCORE_PDF
        if kind is not FileKind.XML:
            return 0
        root = peek_root(head)
        if root is not None and root.namespace in INVOICE_NAMESPACES:
            return SCORE_EINVOICE_XML
        return SCORE_OTHER_XML

    def process(self, data: bytes, context: ProcessingContext) -> Outcome:
        if data.lstrip()[:5] == b"%PDF-":
            return self._process_pdf(data, context)
        return self.process_xml(data, context, source=Source(FileKind.XML))

    def _process_pdf(self, data: bytes, context: ProcessingContext) -> Outcome:
        try:
            embedded = find_embedded_invoice(data)
        except UnreadablePdfError as exc:
            raise NotAnEInvoiceError(str(exc)) from exc
        if embedded is None:
            raise NotAnEInvoiceError("the PDF carries no embedded e-invoice")
        source = Source(FileKind.PDF, attachment=embedded.name, relationship=embedded.relationship)
        return _with_hybrid_check(self.process_xml(embedded.data, context, source=source), data)

    def process_xml(self, data: bytes, context: ProcessingContext, *, source: Source) -> Outcome:
        tree = _parse(data)
        syntax = syntax_of(tree.getroot())
        if syntax is None:
            if etree.QName(tree.getroot()).namespace in INVOICE_NAMESPACES:
                raise InvalidEInvoiceError(
                    [
                        Finding(
                            "XML-ROOT",
                            Level.FATAL,
                            f"root element {etree.QName(tree.getroot()).localname!r} "
                            "is not an invoice",
                        )
                    ]
                )
            return _other_document(tree.getroot())
        validation = self._validate(tree, syntax)
        if not validation.valid:
            raise InvalidEInvoiceError(validation.findings, read=_what_was_read(tree, syntax))
        invoice = _read(tree.getroot(), syntax)
        decision = invoice_direction(invoice, context.company, context.document_type)
        return Outcome(
            InvoiceResult.of(
                invoice,
                decision,
                source,
                validation=validation,
                delivery_terms=delivery_terms(tree.getroot()),
            )
        )

    def _validate(self, tree: etree._ElementTree, syntax: Syntax) -> EInvoiceValidation:
        declared = declared_of(tree.getroot(), syntax)
        try:
            profile, note = profile_of(declared)
        except UnknownProfileError as exc:
            raise InvalidEInvoiceError([Finding("PROFILE-UNKNOWN", Level.FATAL, str(exc))]) from exc
        plan = plan_for(syntax, profile)
        findings = validate(tree, plan, self._rules_root)
        if note:
            findings.insert(0, explained(Finding("PROFILE-NOTE", Level.INFORMATION, note)))
        return EInvoiceValidation(
            syntax=str(syntax),
            specification_id=declared.specification_id,
            profile=str(profile),
            scenario=plan.scenario,
            valid=not failing(findings),
            findings=tuple(findings),
        )


def _parse(data: bytes) -> etree._ElementTree:
    try:
        return parse_xml(data)
    except XmlEncodingError as exc:
        raise InvalidEInvoiceError([Finding("XML-ENCODING", Level.FATAL, str(exc))]) from exc
    except XmlRejectedError as exc:
        raise InvalidEInvoiceError([Finding("XML", Level.FATAL, str(exc))]) from exc


# What a rejected e-invoice's failure keeps of it: who, which, when and how much.
READ_OF_REJECTED = ("number", "typeCode", "issueDate", "dueDate", "currency", "seller", "buyer")


def _what_was_read(tree: etree._ElementTree, syntax: Syntax) -> dict[str, Any] | None:
    """The parties, number, dates and totals of an e-invoice that failed validation, as
    far as its XML reads; None when it does not read as an invoice at all."""
    try:
        invoice = to_json(_read(tree.getroot(), syntax))
    except Exception:  # a broken invoice may break the reader anywhere
        return None
    if not isinstance(invoice, dict):
        return None
    read = {key: invoice[key] for key in READ_OF_REJECTED if invoice.get(key) is not None}
    totals = invoice.get("totals")
    if isinstance(totals, dict):
        read["totals"] = {key: value for key, value in totals.items() if value is not None}
    return read or None


def _read(root: etree._Element, syntax: Syntax) -> Invoice:
    if syntax is Syntax.CII:
        return read_cii(root)
    if syntax is Syntax.ZUGFERD1:
        return read_cii(root, ZUGFERD1)
    return read_ubl(root)


# The elements that date the supply (UBL; CII and ZUGFeRD 1), with their business terms.
_DELIVERY_ELEMENTS = {
    "ActualDeliveryDate": "BT-72",
    "ActualDeliverySupplyChainEvent": "BT-72",
    "InvoicePeriod": "BG-14",
    "BillingSpecifiedPeriod": "BG-14",
}


def delivery_terms(root: etree._Element) -> tuple[str, ...]:
    """The business terms of the supply date the XML carries with a date in them: the
    normalized invoice does not keep them, the content check asks (§14 Abs. 4 Nr. 6)."""
    found: list[str] = []
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        term = _DELIVERY_ELEMENTS.get(etree.QName(element).localname)
        dated = any(ch.isdigit() for text in element.itertext() for ch in str(text))
        if term and dated and term not in found:
            found.append(term)
    return tuple(found)


def _with_hybrid_check(outcome: Outcome, pdf: bytes) -> Outcome:
    """The invoice of a hybrid PDF with its XML checked against its visible text: a
    mismatch is flagged in the result, never refused (docs/einvoice.md)."""
    result = outcome.result
    if not isinstance(result, InvoiceResult):
        return outcome
    check = check_pdf_hybrid(pdf, result.invoice)
    return outcome if check is None else Outcome(replace(result, hybrid_check=check))


def _other_document(root: etree._Element) -> Outcome:
    qname = etree.QName(root)
    return Outcome(NonInvoiceXml(root_element=qname.localname, root_namespace=qname.namespace))

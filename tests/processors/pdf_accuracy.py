"""How well a PDF invoice is read, field by field, against a known invoice (issue 36).

The expected side is a normalized `Invoice` (processors/invoice_model.py): the embedded
XML of a hybrid, or the truth a generator printed. The read side is whatever the public
entry `processors.pipeline.read_document` returns for the PDF sent as
`supplier_invoice` (or `auto`), so the measurement holds while the reader changes.

Twelve fields (the issue's table) are compared normalized: amounts to two places, ISO
dates, text case- and whitespace-folded, VAT ids and IBANs without spaces. Each is
`exact`, `wrong` or `missing`; a field the expected invoice does not carry is not
counted. A wrong value is `flagged` when the result marks that field `low` (per-field
evidence, when the result carries it) or the invoice `needsReview`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import Any

from processors.base import (
    CompanyProfile,
    DocumentType,
    Outcome,
    ProcessingContext,
    ProcessingError,
    ResultType,
)
from processors.invoice_model import Invoice
from processors.pipeline import read_document
from processors.results.invoice import InvoiceResult

COMPANY = CompanyProfile(name="Accuracy Measurement")


class Verdict(StrEnum):
    EXACT = "exact"
    WRONG = "wrong"
    MISSING = "missing"


def _text(value: object) -> str | None:
    if value is None:
        return None
    folded = " ".join(str(value).split()).casefold()
    return folded or None


def _compact(value: object) -> str | None:
    if value is None:
        return None
    return re.sub(r"\s+", "", str(value)).upper() or None


def _amount(value: object) -> str | None:
    if value is None:
        return None
    try:
        return str(Decimal(str(value)).quantize(Decimal("0.01")))
    except InvalidOperation:
        return str(value)


def _date(value: object) -> str | None:
    if value is None:
        return None
    return value.isoformat() if isinstance(value, date) else str(value)


def _iban(invoice: Invoice) -> str | None:
    return next((m.payee_iban for m in invoice.payment_means if m.payee_iban), None)


@dataclass(frozen=True, slots=True)
class Field:
    bt: str  # the EN 16931 business term
    name: str  # the key a reader's evidence names the field by
    label: str
    value: Callable[[Invoice], object]
    normalize: Callable[[object], str | None]


FIELDS: tuple[Field, ...] = (
    Field("BT-1", "number", "invoice number", lambda i: i.number, _text),
    Field("BT-2", "issueDate", "issue date", lambda i: i.issue_date, _date),
    Field("BT-5", "currency", "currency", lambda i: i.currency, _compact),
    Field("BT-27", "seller.name", "seller name", lambda i: i.seller.name, _text),
    Field("BT-31", "seller.vatId", "seller VAT id", lambda i: i.seller.vat_id, _compact),
    Field("BT-44", "buyer.name", "buyer name", lambda i: i.buyer.name, _text),
    Field("BT-109", "totals.net", "net total", lambda i: i.totals.net, _amount),
    Field("BT-110", "totals.vat", "VAT total", lambda i: i.totals.vat, _amount),
    Field("BT-112", "totals.gross", "gross total", lambda i: i.totals.gross, _amount),
    Field("BT-115", "totals.amountDue", "amount due", lambda i: i.totals.amount_due, _amount),
    Field("BT-84", "payeeIban", "payee IBAN", _iban, _compact),
    Field("BT-9", "dueDate", "due date", lambda i: i.due_date, _date),
)


@dataclass(frozen=True, slots=True)
class FieldScore:
    field: Field
    verdict: Verdict
    expected: str
    got: str | None
    flagged: bool  # `low` on the field or `needsReview` on the invoice


@dataclass(frozen=True, slots=True)
class DocumentScore:
    name: str
    kind: str  # the result type read, or the failure code
    fields: tuple[FieldScore, ...]
    needs_review: bool = False

    @property
    def taken_for_invoice(self) -> bool:
        return self.kind == str(ResultType.INVOICE)

    def of(self, verdict: Verdict) -> list[FieldScore]:
        return [score for score in self.fields if score.verdict is verdict]


def read_pdf(
    pdf: bytes, document_type: DocumentType = DocumentType.SUPPLIER_INVOICE
) -> Outcome | str:
    """The reader's outcome through the public entry, or the failure code."""
    context = ProcessingContext(document_type, "measured.pdf", COMPANY)
    try:
        return read_document(pdf, context)
    except ProcessingError as error:
        return str(error.code)


def score_document(name: str, expected: Invoice, outcome: Outcome | str) -> DocumentScore:
    """Each of the twelve fields the expected invoice carries, against what was read."""
    if isinstance(outcome, str):
        kind, got, review, low = outcome, None, False, frozenset[str]()
    else:
        kind = str(outcome.result_type)
        got = outcome.result.invoice if isinstance(outcome.result, InvoiceResult) else None
        data = outcome.data if got is not None else {}
        review, low = needs_review(data), low_fields(data)
    scores = []
    for each in FIELDS:
        want = each.normalize(each.value(expected))
        if want is None:
            continue
        value = each.normalize(each.value(got)) if got is not None else None
        verdict = (
            Verdict.MISSING if value is None else Verdict.EXACT if value == want else Verdict.WRONG
        )
        scores.append(FieldScore(each, verdict, want, value, review or each.name in low))
    return DocumentScore(name, kind, tuple(scores), review)


def measure_pdf(
    name: str,
    pdf: bytes,
    expected: Invoice,
    document_type: DocumentType = DocumentType.SUPPLIER_INVOICE,
) -> DocumentScore:
    return score_document(name, expected, read_pdf(pdf, document_type))


def needs_review(data: Mapping[str, Any]) -> bool:
    checks = data.get("checks")
    return isinstance(checks, Mapping) and bool(checks.get("needsReview"))


# Evidence keys a reader may use for a field, besides `Field.name`.
_ALIASES = {
    "number": ("invoiceNumber",),
    "issueDate": ("date",),
    "seller.name": ("seller", "sellerName"),
    "seller.vatId": ("sellerVatId", "vatId"),
    "buyer.name": ("buyer", "buyerName"),
    "totals.net": ("net",),
    "totals.vat": ("vat",),
    "totals.gross": ("gross",),
    "totals.amountDue": ("amountDue",),
    "payeeIban": ("iban", "paymentMeans.payeeIban"),
}


def low_fields(data: Mapping[str, Any]) -> frozenset[str]:
    """The fields the result marks `low`. Tolerant of the evidence's shape while it is
    being built: `evidence` as a mapping of field to {"confidence": ...} or a list of
    {"field": ..., "confidence": ...}, at the top level or inside `invoice`/`checks`;
    absent evidence marks nothing."""
    found: set[str] = set()
    for holder in (data, data.get("invoice"), data.get("checks")):
        if isinstance(holder, Mapping):
            found.update(_low_in(holder.get("evidence")))
    names = {alias: f.name for f in FIELDS for alias in (f.name, f.bt, *_ALIASES.get(f.name, ()))}
    return frozenset(names[key] for key in found if key in names)


def _low_in(evidence: object) -> Iterable[str]:
    if isinstance(evidence, Mapping):
        entries: Iterable[tuple[object, object]] = evidence.items()
    elif isinstance(evidence, list):
        entries = ((e.get("field"), e) for e in evidence if isinstance(e, Mapping))
    else:
        return ()
    return [
        str(key)
        for key, entry in entries
        if isinstance(entry, Mapping) and str(entry.get("confidence", "")).lower() == "low"
    ]


@dataclass(slots=True)
class Tally:
    """Counts over many documents: per field exact/wrong/missing, wrong values left
    unflagged, documents taken for invoices."""

    documents: list[DocumentScore] = field(default_factory=list)

    def add(self, score: DocumentScore) -> None:
        self.documents.append(score)

    def count(self, verdict: Verdict, bt: str | None = None) -> int:
        return sum(
            1
            for d in self.documents
            for s in d.fields
            if s.verdict is verdict and bt in (None, s.field.bt)
        )

    def values(self, bt: str | None = None) -> int:
        return sum(1 for d in self.documents for s in d.fields if bt in (None, s.field.bt))

    def unflagged(self, bt: str | None = None) -> int:
        return sum(
            1
            for d in self.documents
            for s in d.fields
            if s.verdict is Verdict.WRONG and not s.flagged and bt in (None, s.field.bt)
        )

    def exact_share(self, bt: str | None = None) -> float:
        return self.count(Verdict.EXACT, bt) / max(self.values(bt), 1)

    @property
    def taken(self) -> int:
        return sum(d.taken_for_invoice for d in self.documents)

    def taken_only(self) -> Tally:
        return Tally([d for d in self.documents if d.taken_for_invoice])

    def summary(self) -> dict[str, Any]:
        """The numbers as JSON: per field and in all."""
        per_field = {
            f.bt: {
                "field": f.label,
                "values": self.values(f.bt),
                **{v.value: self.count(v, f.bt) for v in Verdict},
                "wrongUnflagged": self.unflagged(f.bt),
            }
            for f in FIELDS
        }
        return {
            "documents": len(self.documents),
            "takenForInvoice": self.taken,
            "values": self.values(),
            **{v.value: self.count(v) for v in Verdict},
            "wrongUnflagged": self.unflagged(),
            "exactShare": round(self.exact_share(), 4),
            "exactShareTaken": round(self.taken_only().exact_share(), 4),
            "fields": per_field,
        }


# --- invoice or not ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Classified:
    """A document sent as `auto`: what it is and what the reader took it for."""

    name: str
    invoice: bool
    kind: str  # the result type, or the failure code

    @property
    def taken_for_invoice(self) -> bool:
        return self.kind == str(ResultType.INVOICE)


def classify_pdf(name: str, pdf: bytes, invoice: bool) -> Classified:
    outcome = read_pdf(pdf, DocumentType.AUTO)
    return Classified(
        name, invoice, outcome if isinstance(outcome, str) else str(outcome.result_type)
    )


def boundary_summary(classified: Iterable[Classified]) -> dict[str, Any]:
    """Invoices taken for invoices and other documents taken for invoices, with the
    documents taken wrongly."""
    items = list(classified)
    invoices = [c for c in items if c.invoice]
    others = [c for c in items if not c.invoice]
    return {
        "invoices": len(invoices),
        "invoicesTaken": sum(c.taken_for_invoice for c in invoices),
        "others": len(others),
        "othersTaken": sum(c.taken_for_invoice for c in others),
        "wrong": [f"{c.name} -> {c.kind}" for c in items if c.taken_for_invoice != c.invoice],
    }

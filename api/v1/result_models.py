"""The results API's models, derived from the frozen result types (processors/results/)
at import: one pydantic model per dataclass, a field per field under the key the result
stores it with, so the OpenAPI document describes exactly what `to_dict()` writes and
the two cannot drift. A body is the typed result's `to_dict()` validated by its model
and dumped again (keys the result leaves out stay out): what does not fit is an error
in the tests, never a silent change on the wire.

Amounts are decimal strings (`Decimal` never leaves as a float), dates ISO 8601. The
invoice's fields carry their EN 16931 business term in their description
(api/v1/invoice_terms.py).
"""

from __future__ import annotations

import dataclasses
import types
import uuid
from datetime import date
from decimal import Decimal
from enum import Enum
from typing import Annotated, Any, Literal, Union, get_args, get_origin, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, PlainSerializer, WithJsonSchema, create_model

from api.v1.invoice_terms import term_description
from processors.json_fields import field_key, may_be_omitted
from processors.results import BankStatementResult, InvoiceResult, PaymentFile
from processors.results.other_document import FiledPaymentFile, FiledPdf, FiledXml, NonInvoiceXml

DECIMAL_PATTERN = r"^-?[0-9]+(\.[0-9]+)?$"

DecimalText = Annotated[
    Decimal,
    PlainSerializer(lambda value: format(value, "f"), return_type=str),
    WithJsonSchema(
        {"type": "string", "format": "decimal", "pattern": DECIMAL_PATTERN, "examples": ["119.00"]}
    ),
]

# A class met under two paths with different business terms gets a model per path.
_NAMES_BY_PATH = {
    "invoice.seller": "Seller",
    "invoice.buyer": "Buyer",
    "invoice.seller.address": "SellerAddress",
    "invoice.buyer.address": "BuyerAddress",
}


class DataModel(BaseModel):
    """A result's data: keys as stored; unknown keys are ignored so that older clients
    read newer results (fields are added freely within a version)."""

    model_config = ConfigDict(populate_by_name=True, frozen=True)


_models: dict[str, tuple[type[Any], type[DataModel]]] = {}


def model_of(cls: type[Any], path: str = "", name: str | None = None) -> type[DataModel]:
    """The model of a result dataclass met at `path` (the JSON path of its data)."""
    name = name or _NAMES_BY_PATH.get(path, cls.__name__)
    known = _models.get(name)
    if known is not None:
        assert known[0] is cls, f"two result classes would be the model {name}"
        return known[1]
    hints = get_type_hints(cls)
    fields: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        key = field_key(f)
        where = f"{path}.{key}" if path else key
        annotation = _annotation(hints[f.name], where)
        info = Field(alias=key, description=term_description(where))
        if may_be_omitted(f):
            info = Field(default=None, alias=key, description=term_description(where))
        # A name BaseModel has (`schema`) is taken with a trailing underscore.
        fields[f.name + "_" if hasattr(BaseModel, f.name) else f.name] = (annotation, info)
    model = create_model(name, __base__=DataModel, __doc__=_doc(cls), **fields)
    _models[name] = (cls, model)
    return model


def _doc(cls: type[Any]) -> str:
    """The class's own docstring's first paragraph (not the one dataclass makes up)."""
    doc = (cls.__doc__ or "").strip()
    if not doc or doc.startswith(f"{cls.__name__}("):
        return cls.__name__
    return doc.split("\n\n")[0]


def _annotation(hint: Any, path: str) -> Any:
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        (inner,) = [arg for arg in get_args(hint) if arg is not type(None)]
        return _annotation(inner, path) | None
    if origin is tuple:
        return list[_annotation(get_args(hint)[0], path)]  # type: ignore[misc]
    if dataclasses.is_dataclass(hint):
        return model_of(hint, path)  # type: ignore[arg-type]
    if hint is Decimal:
        return DecimalText
    if hint in (date, str, int, bool, float) or (isinstance(hint, type) and issubclass(hint, Enum)):
        return hint
    if hint is Any or origin is dict:
        return dict[str, Any]
    raise TypeError(f"{path}: no wire type for {hint!r}")


InvoiceData = model_of(InvoiceResult, name="InvoiceData")
BankStatementData = model_of(BankStatementResult, name="BankStatementData")
PaymentFileData = model_of(PaymentFile, name="PaymentFileData")
OTHER_DOCUMENT_SHAPES = (FiledPdf, FiledXml, NonInvoiceXml, FiledPaymentFile)
OtherDocumentData = Union[tuple(model_of(shape) for shape in OTHER_DOCUMENT_SHAPES)]  # type: ignore[valid-type]  # noqa: UP007


class ResultBase(BaseModel):
    """What every result carries besides its data."""

    model_config = ConfigDict(frozen=True)

    id: uuid.UUID
    schemaVersion: int = Field(
        description="The version of this representation; `Accept: application/json;"
        " version=N` asks for one. New fields come within a version, a rename or removal"
        " is a new one."
    )
    changeSequence: int = Field(
        description="Grows with every change of the company's results (the listing's order)."
    )
    createdAt: str = Field(description="ISO 8601 UTC with `Z`.")
    updatedAt: str = Field(description="When it last changed: ISO 8601 UTC with `Z`.")
    url: str = Field(description="Opens the result in the web application.")
    original: str = Field(description="The original file: GET /v1/results/{id}/original.")


class AccountWarningOut(BaseModel):
    """A warning about the bank account a supplier invoice asks to be paid into
    (docs/checks.md): `new_iban` (never seen for the supplier, while others were) or
    `foreign_iban` (another country than the supplier's), and the accountant's decision."""

    model_config = ConfigDict(frozen=True)

    id: uuid.UUID
    iban: str
    reason: Literal["new_iban", "foreign_iban"]
    supplierCountry: str | None
    knownIbans: list[str] = Field(description="The supplier's IBANs seen before.")
    decision: Literal["confirmed", "dismissed"] | None = Field(description="null: open.")
    decidedAt: str | None = Field(description="ISO 8601 UTC with `Z`.")
    createdAt: str


class PaymentMatchOut(BaseModel):
    """A confirmed statement transaction matched to an invoice (docs/checks.md): the
    part of its amount paying the invoice, the score (0-100) and its reasons, and
    whether the accountant accepted it."""

    model_config = ConfigDict(frozen=True)

    id: uuid.UUID
    statementId: uuid.UUID
    position: int = Field(description="The transaction's index in the statement, from 0.")
    invoiceId: uuid.UUID
    amount: DecimalText
    score: int
    reasons: list[str]
    status: Literal["proposed", "accepted", "rejected"]
    decidedAt: str | None = Field(description="ISO 8601 UTC with `Z`.")
    createdAt: str


class VatConfirmationOut(BaseModel):
    """The online confirmation of a party's foreign EU VAT id by eVatR or VIES
    (docs/checks.md), kept as proof: the service's status code, its request id and
    time, and the comparison of name, city, postcode and street (A match, B mismatch,
    C not asked, D not given by the member state)."""

    model_config = ConfigDict(frozen=True)

    party: Literal["seller", "buyer"]
    service: Literal["evatr", "vies"]
    vatId: str
    confirmed: Literal["valid", "invalid", "unanswered"]
    status: str = Field(description="eVatR `evatr-NNNN`; VIES `valid`, `invalid` or its error.")
    requestedAt: str = Field(description="The time the service gave for its answer.")
    requestId: str | None
    matches: dict[str, Literal["A", "B", "C", "D"]] = Field(
        description="Keys name, city, postalCode, street."
    )
    validFrom: str | None
    validTo: str | None
    answeredAt: str = Field(description="When it was kept; ISO 8601 UTC with `Z`.")
    cached: bool = Field(description="An earlier answer to the same question, reused.")


class ApprovalOut(BaseModel):
    """An invoice approved in the web application: by whom (the user's e-mail; null
    once the user is deleted) and when. A withdrawn approval is null again."""

    model_config = ConfigDict(frozen=True)

    by: str | None
    at: str = Field(description="ISO 8601 UTC with `Z`.")


class CorrectionOut(BaseModel):
    """A field of a PDF invoice corrected in the web application: the value before (as
    extracted, or as the previous correction set it) and after, who (e-mail) and when.
    `data` carries the corrected values; the first correction of a field holds the
    value as extracted in `old`."""

    model_config = ConfigDict(frozen=True)

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
    ]
    old: str | None
    new: str | None
    by: str | None
    at: str = Field(description="ISO 8601 UTC with `Z`.")


class AnnotationOut(BaseModel):
    """A note added to an invoice in the web application (an e-invoice's XML is the
    original and is not edited): the text, who (e-mail; null once the user is deleted)
    and when."""

    model_config = ConfigDict(frozen=True)

    text: str
    by: str | None
    at: str = Field(description="ISO 8601 UTC with `Z`.")


class ReclassificationOut(BaseModel):
    """An upload behind this result read again as another kind of document in the web
    application (an other document as an invoice, or back): what it had been read as
    (`fromType`, a result type), what it was read as then (`toType`, a documentType), who
    (the user's e-mail; null once the user is deleted) and when."""

    model_config = ConfigDict(frozen=True)

    uploadId: uuid.UUID
    fromType: str
    toType: str
    by: str | None
    at: str = Field(description="ISO 8601 UTC with `Z`.")


RECLASSIFIED = "How the uploads behind the result were reclassified, oldest first."


class InvoiceResultOut(ResultBase):
    """An invoice: the normalized invoice (EN 16931 terms in the descriptions), its
    direction, how it was read (`validation` of an e-invoice, or `classification` and
    `checks` of a PDF's text, with `needsReview`), and a hybrid's `hybridCheck`. Beside
    the data: its approval, corrections and annotations, the warnings about its bank account, the
    payments matched to it and the online confirmations of its foreign VAT ids."""

    type: Literal["invoice"]
    data: InvoiceData  # type: ignore[valid-type]
    approval: ApprovalOut | None = Field(
        default=None, description="The approval in force, as approved in the web application."
    )
    corrections: list[CorrectionOut] = Field(
        default_factory=list,
        description="Corrections of a PDF invoice's fields, oldest first; `data` has them applied.",
    )
    annotations: list[AnnotationOut] = Field(
        default_factory=list, description="Notes added to the invoice, oldest first."
    )
    accountWarnings: list[AccountWarningOut] = Field(default_factory=list)
    paymentMatches: list[PaymentMatchOut] = Field(default_factory=list)
    vatConfirmations: list[VatConfirmationOut] = Field(default_factory=list)
    reclassifications: list[ReclassificationOut] = Field(
        default_factory=list, description=RECLASSIFIED
    )


class BankStatementResultOut(ResultBase):
    """A bank statement: account, period, balances, transactions (with `confirmed`, as
    confirmed in the web application) and whether the balances reconcile."""

    type: Literal["bank_statement"]
    data: BankStatementData  # type: ignore[valid-type]
    paymentMatches: list[PaymentMatchOut] = Field(
        default_factory=list, description="Invoices matched to its confirmed transactions."
    )


class PaymentFileResultOut(ResultBase):
    """A SEPA payment file: its group header with the control sum, the checks, and
    every payment (transfer or direct debit)."""

    type: Literal["payment_file"]
    data: PaymentFileData  # type: ignore[valid-type]


class OtherDocumentResultOut(ResultBase):
    """A document filed, not booked: what kind of file it is, and why it was filed
    (`reason`) when a processor looked at it and declined."""

    type: Literal["other_document"]
    data: OtherDocumentData  # type: ignore[valid-type]
    reclassifications: list[ReclassificationOut] = Field(
        default_factory=list, description=RECLASSIFIED
    )


ResultOut = Annotated[
    InvoiceResultOut | BankStatementResultOut | PaymentFileResultOut | OtherDocumentResultOut,
    Field(discriminator="type"),
]
RESULT_MODELS: dict[str, type[ResultBase]] = {
    "invoice": InvoiceResultOut,
    "bank_statement": BankStatementResultOut,
    "payment_file": PaymentFileResultOut,
    "other_document": OtherDocumentResultOut,
}


class ResultChange(BaseModel):
    """One entry of the listing: a result as its last change left it."""

    id: uuid.UUID
    type: Literal["invoice", "bank_statement", "payment_file", "other_document"]
    changeSequence: int
    updatedAt: str
    deleted: bool = Field(description="Deleted in the web application; `result` is null.")
    result: ResultOut | None


class ResultPage(BaseModel):
    items: list[ResultChange]
    nextCursor: str = Field(
        description="Pass as `cursor` for the changes after this page; keep it to ask"
        " again later, also when `hasMore` is false."
    )
    hasMore: bool

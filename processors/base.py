"""The processor contract: what every document processor takes, returns and raises.

A processor is pure. It gets the file's bytes and a frozen context, and returns a
frozen `Outcome` carrying a typed result (processors/results/) or raises
`ProcessingError` carrying one of the spec's failure codes.
Anything else it raises is a bug and ends as `processing_failed` upstream.
What reading one document came to, as a reading process sends it back and the recorder
books it, is a `Reading`: the `Outcome`, or a `Failure`. Both pickle as they are (enums
stay enums); a result made by other code than the receiver's shows in its `version`.
Every exception the processors define, in one tree: `processors/errors.py`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Protocol


class DocumentType(StrEnum):
    AUTO = "auto"
    SUPPLIER_INVOICE = "supplier_invoice"
    CUSTOMER_INVOICE = "customer_invoice"
    BANK_STATEMENT = "bank_statement"
    OTHER_DOCUMENT = "other_document"


class FailureCode(StrEnum):
    UNSUPPORTED_FILE_TYPE = "unsupported_file_type"
    FILE_TOO_LARGE = "file_too_large"
    INVALID_E_INVOICE = "invalid_e_invoice"
    PASSWORD_PROTECTED = "password_protected"
    NOT_A_BANK_STATEMENT = "not_a_bank_statement"
    NO_TRANSACTIONS_FOUND = "no_transactions_found"
    UNREADABLE_DOCUMENT = "unreadable_document"
    PROCESSING_FAILED = "processing_failed"


class ResultType(StrEnum):
    INVOICE = "invoice"
    OTHER_DOCUMENT = "other_document"
    BANK_STATEMENT = "bank_statement"
    PAYMENT_FILE = "payment_file"


class FileKind(StrEnum):
    """What the bytes are, by content (never by file name)."""

    PDF = "pdf"
    XML = "xml"
    ZIP = "zip"
    IMAGE = "image"
    OFFICE = "office"
    EMPTY = "empty"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class CompanyProfile:
    """The company's master data; decides the direction of an invoice."""

    name: str
    vat_ids: tuple[str, ...] = ()
    tax_number: str | None = None
    ibans: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ProcessingContext:
    document_type: DocumentType
    file_name: str
    company: CompanyProfile
    # The Tesseract binary for scanned pages (a name on PATH or a path); set by the caller
    # from its settings, since processors read no settings themselves.
    ocr_command: str = "tesseract"


class DocumentResult(Protocol):
    """A frozen, versioned result type (processors/results/): one per `ResultType`."""

    RESULT_TYPE: ClassVar[ResultType]
    VERSION: ClassVar[int]

    def to_dict(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class Outcome:
    """A successful read: the typed result, and `data`, its JSON form as stored with it.
    Both are made where the result is made (a reading process) and travel with it: the
    JSON form costs thousands of Python calls per document (an invoice: 2,800-4,400),
    which belong to the reader's CPU, not to the process that books the result.
    `version`: the result type's version in the process that made it, so a receiver
    running other code sees it (`current`)."""

    result: DocumentResult
    version: int = field(init=False)
    data: dict[str, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "version", self.result.VERSION)
        object.__setattr__(self, "data", self.result.to_dict())

    @property
    def current(self) -> bool:
        """Whether this process's code makes results of this version."""
        return self.version == type(self.result).VERSION

    @property
    def result_type(self) -> ResultType:
        return self.result.RESULT_TYPE


class ProcessingError(Exception):
    """A document-level failure with one of the spec's failure codes."""

    def __init__(
        self, code: FailureCode, message: str, details: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        # What a reader of the failure may want beyond the message (JSON-ready).
        self.details: dict[str, Any] = dict(details or {})


@dataclass(frozen=True, slots=True)
class Failure:
    """A read that failed: one of the spec's failure codes, the message for the user and
    what a reader of the failure may want beyond it (JSON-ready)."""

    code: FailureCode
    message: str
    details: dict[str, Any] | None = None

    @classmethod
    def of(cls, error: ProcessingError) -> Failure:
        return cls(error.code, error.message, error.details or None)


# What reading one document came to.
Reading = Outcome | Failure


class Declined(Exception):
    """Raised by `process` when a closer look shows the file is not this processor's
    kind (a PDF that carries no e-invoice). The registry hands the file to the
    next-best processor; it is never a document failure."""


class Processor(Protocol):
    """One kind of document. The registry asks every processor for a score and
    hands the file to the highest non-zero one (paperless-ngx's parser model)."""

    name: str

    def score(self, kind: FileKind, head: bytes, context: ProcessingContext) -> int:
        """0 when this processor cannot take the file; higher wins. `head` is the
        first few KiB of the file, enough for a root element or magic bytes."""
        ...

    def process(self, data: bytes, context: ProcessingContext) -> Outcome: ...

"""Other documents: files filed, not booked. How a file was filed decides what is
stored (the keys of the first two are snake_case, as they always were):
- a PDF no specific processor took (`FiledPdf`): kind, size, page count, title;
- an XML file no specific processor took (`FiledXml`): the same, and its root element;
- XML that is not an e-invoice (`NonInvoiceXml`, from the e-invoice processor): a
  reason and the root element;
- a SEPA payment file sent as an invoice (`FiledPaymentFile`, decisions.md): a reason
  and the payment file."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from processors.base import FileKind, ResultType
from processors.json_fields import ResultShapeError, from_json, json_key, to_json
from processors.results.payment_file import PaymentFile
from processors.results.versions import check_version

SEPA_REASON = "SEPA payment file"
NOT_AN_EINVOICE_REASON = "XML that is not an e-invoice"


class _Filed:
    RESULT_TYPE: ClassVar[ResultType] = ResultType.OTHER_DOCUMENT
    VERSION: ClassVar[int] = 1
    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        result = to_json(self)
        assert isinstance(result, dict)
        return result


@dataclass(frozen=True, slots=True, kw_only=True)
class FiledPdf(_Filed):
    kind: FileKind = FileKind.PDF
    size: int
    page_count: int = field(metadata=json_key("page_count"))
    title: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class FiledXml(_Filed):
    kind: FileKind = FileKind.XML
    size: int
    # An XML file has no pages and no title; both keys are stored, as null.
    page_count: int | None = field(default=None, metadata=json_key("page_count"))
    title: str | None = None
    root_namespace: str | None = field(metadata=json_key("root_namespace"))
    root_element: str | None = field(metadata=json_key("root_element"))


@dataclass(frozen=True, slots=True, kw_only=True)
class NonInvoiceXml(_Filed):
    reason: str = NOT_AN_EINVOICE_REASON
    root_element: str
    root_namespace: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class FiledPaymentFile(_Filed):
    reason: str = SEPA_REASON
    payment_file: PaymentFile


OtherDocument = FiledPdf | FiledXml | NonInvoiceXml | FiledPaymentFile


def other_document_from_dict(data: Mapping[str, Any]) -> OtherDocument:
    """The kind of filing, told by the keys only it stores."""
    check_version(_Filed, data)
    if "paymentFile" in data:
        return from_json(FiledPaymentFile, data)
    if "rootElement" in data:
        return from_json(NonInvoiceXml, data)
    if data.get("kind") == FileKind.XML:
        return from_json(FiledXml, data)
    if data.get("kind") == FileKind.PDF:
        return from_json(FiledPdf, data)
    raise ResultShapeError(f"other document: no known shape has the keys {sorted(data)}")

"""What a processor read, as frozen types: one per result type, each with `to_dict()`
(the JSON stored with the result, in the shape stored since the start) and
`from_dict()` (reads back every shape stored so far; processors/results/versions.py).

- invoice.py: `InvoiceResult` (the invoice itself: processors/invoice_model.py)
- statement.py: `BankStatementResult`
- payment_file.py: `PaymentFile`
- other_document.py: `OtherDocument`, one of four ways a file is filed
- source.py, findings.py: pieces the kinds share
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from processors.base import ResultType
from processors.results.invoice import InvoiceResult
from processors.results.other_document import OtherDocument, other_document_from_dict
from processors.results.payment_file import PaymentFile
from processors.results.statement import BankStatementResult

AnyResult = InvoiceResult | BankStatementResult | PaymentFile | OtherDocument

__all__ = [
    "AnyResult",
    "BankStatementResult",
    "InvoiceResult",
    "OtherDocument",
    "PaymentFile",
    "result_from_dict",
]


def result_from_dict(result_type: ResultType | str, data: Mapping[str, Any]) -> AnyResult:
    """The typed result of a stored row (its `type` and `data`)."""
    match ResultType(result_type):
        case ResultType.INVOICE:
            return InvoiceResult.from_dict(data)
        case ResultType.BANK_STATEMENT:
            return BankStatementResult.from_dict(data)
        case ResultType.PAYMENT_FILE:
            return PaymentFile.from_dict(data)
        case ResultType.OTHER_DOCUMENT:
            return other_document_from_dict(data)

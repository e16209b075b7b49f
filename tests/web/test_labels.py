"""Every value of an enum the pages name has its label, in api/web/labels.py."""

from __future__ import annotations

from api.web import labels
from processors.base import DocumentType, ResultType
from processors.invoice_model import InvoiceType
from processors.results.payment_file import PaymentKind


def test_every_enum_member_has_a_label() -> None:
    assert set(labels.DOCUMENT_TYPE_LABELS) == set(DocumentType)
    assert set(labels.RESULT_TYPE_LABELS) == set(ResultType)
    assert set(labels.INVOICE_TYPE_LABELS) == set(InvoiceType)
    assert set(labels.PAYMENT_KIND_LABELS) == set(PaymentKind)
    invoice_types = {DocumentType.SUPPLIER_INVOICE, DocumentType.CUSTOMER_INVOICE}
    assert set(labels.DIRECTION_LABELS) == invoice_types

"""Every value of an enum the pages name has its label, in api/web/labels.py."""

from __future__ import annotations

from api.web import labels
from processors.base import DocumentType, ResultType
from processors.invoice_model import InvoiceType
from processors.results.findings import Level
from processors.results.payment_file import PaymentKind
from storage.states import BatchStatus, UploadStatus


def test_every_enum_member_has_a_label() -> None:
    assert set(labels.DOCUMENT_TYPE_LABELS) == set(DocumentType)
    assert set(labels.RESULT_TYPE_LABELS) == set(ResultType)
    assert set(labels.INVOICE_TYPE_LABELS) == set(InvoiceType)
    assert set(labels.PAYMENT_KIND_LABELS) == set(PaymentKind)
    invoice_types = {DocumentType.SUPPLIER_INVOICE, DocumentType.CUSTOMER_INVOICE}
    assert set(labels.DIRECTION_LABELS) == invoice_types
    assert set(labels.UPLOAD_STATUS_LABELS) == set(UploadStatus)
    assert set(labels.BATCH_STATUS_LABELS) == set(BatchStatus)
    assert set(labels.LEVEL_LABELS) == set(Level)


def test_the_label_filter_knows_every_value_a_page_shows_as_stored() -> None:
    shown = {*DocumentType, *UploadStatus, *BatchStatus, *Level}
    assert {str(value) for value in shown} <= set(labels.VALUE_LABELS)

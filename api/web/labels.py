"""What the pages call a value: one dictionary per enum or code list, keyed by it, each
label an English msgid translated where it is shown (api/web/i18n.py).
tests/web/test_labels.py checks that every enum member has its label."""

from __future__ import annotations

from api.web.i18n import N_
from processors.base import DocumentType, ResultType
from processors.invoice_model import InvoiceType
from processors.results.findings import Level
from processors.results.payment_file import PaymentKind
from storage.states import BatchStatus, UploadStatus

DOCUMENT_TYPE_LABELS = {
    DocumentType.AUTO: N_("Automatic"),
    DocumentType.SUPPLIER_INVOICE: N_("Supplier invoice"),
    DocumentType.CUSTOMER_INVOICE: N_("Customer invoice"),
    DocumentType.BANK_STATEMENT: N_("Bank statement"),
    DocumentType.OTHER_DOCUMENT: N_("Other document"),
}
RESULT_TYPE_LABELS = {
    ResultType.INVOICE: N_("Invoice"),
    ResultType.OTHER_DOCUMENT: N_("Other document"),
    ResultType.BANK_STATEMENT: N_("Bank statement"),
    ResultType.PAYMENT_FILE: N_("Payment file"),
}
INVOICE_TYPE_LABELS = {
    InvoiceType.INVOICE: N_("Invoice"),
    InvoiceType.CREDIT_NOTE: N_("Credit note"),
    InvoiceType.CORRECTED_INVOICE: N_("Corrected invoice"),
}
# An invoice's direction is one of the two invoice document types.
DIRECTION_LABELS = {
    DocumentType.SUPPLIER_INVOICE: N_("Supplier invoice (received)"),
    DocumentType.CUSTOMER_INVOICE: N_("Customer invoice (issued)"),
}
PAYMENT_KIND_LABELS = {
    PaymentKind.CREDIT_TRANSFER: N_("Credit transfer"),
    PaymentKind.DIRECT_DEBIT: N_("Direct debit"),
}
# UNTDID 4461, the payment means codes invoices use most.
PAYMENT_MEANS_LABELS = {
    "1": N_("Not defined"),
    "10": N_("Cash"),
    "20": N_("Cheque"),
    "30": N_("Credit transfer"),
    "31": N_("Debit transfer"),
    "42": N_("Payment to bank account"),
    "48": N_("Bank card"),
    "49": N_("Direct debit"),
    "57": N_("Standing agreement"),
    "58": N_("SEPA credit transfer"),
    "59": N_("SEPA direct debit"),
    "97": N_("Clearing between partners"),
    "ZZZ": N_("Mutually defined"),
}
# UNCL 5305, the VAT category codes of EN 16931.
VAT_CATEGORY_LABELS = {
    "S": N_("Standard rate"),
    "Z": N_("Zero rated"),
    "E": N_("Exempt"),
    "AE": N_("Reverse charge"),
    "K": N_("Intra-community supply"),
    "G": N_("Export outside the EU"),
    "O": N_("Not subject to VAT"),
    "L": N_("Canary Islands IGIC"),
    "M": N_("Ceuta and Melilla IPSI"),
}
UPLOAD_STATUS_LABELS = {
    UploadStatus.QUEUED: N_("Queued"),
    UploadStatus.PROCESSING: N_("Processing"),
    UploadStatus.COMPLETED: N_("Completed"),
    UploadStatus.FAILED: N_("Failed"),
    UploadStatus.DELETED: N_("Deleted"),
}
BATCH_STATUS_LABELS = {
    BatchStatus.PROCESSING: N_("Processing"),
    BatchStatus.COMPLETED: N_("Completed"),
    BatchStatus.COMPLETED_WITH_ERRORS: N_("Completed with errors"),
    BatchStatus.FAILED: N_("Failed"),
}
# Validation findings' levels (processors/results/findings.py Level).
LEVEL_LABELS = {
    Level.FATAL: N_("fatal"),
    Level.ERROR: N_("error"),
    Level.WARNING: N_("warning"),
    Level.INFORMATION: N_("information"),
}
# The `label` filter's words for the values pages show as they are stored.
VALUE_LABELS: dict[str, str] = {
    **{str(key): label for key, label in DOCUMENT_TYPE_LABELS.items()},
    **{str(key): label for key, label in UPLOAD_STATUS_LABELS.items()},
    **{str(key): label for key, label in BATCH_STATUS_LABELS.items()},
    **{str(key): label for key, label in LEVEL_LABELS.items()},
}

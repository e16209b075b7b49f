"""What the pages call a value: one dictionary per enum or code list, keyed by it.
tests/web/test_labels.py checks that every enum member has its label."""

from __future__ import annotations

from processors.base import DocumentType, ResultType
from processors.invoice_model import InvoiceType
from processors.results.payment_file import PaymentKind

DOCUMENT_TYPE_LABELS = {
    DocumentType.AUTO: "Automatic",
    DocumentType.SUPPLIER_INVOICE: "Supplier invoice",
    DocumentType.CUSTOMER_INVOICE: "Customer invoice",
    DocumentType.BANK_STATEMENT: "Bank statement",
    DocumentType.OTHER_DOCUMENT: "Other document",
}
RESULT_TYPE_LABELS = {
    ResultType.INVOICE: "Invoice",
    ResultType.OTHER_DOCUMENT: "Other document",
    ResultType.BANK_STATEMENT: "Bank statement",
    ResultType.PAYMENT_FILE: "Payment file",
}
INVOICE_TYPE_LABELS = {
    InvoiceType.INVOICE: "Invoice",
    InvoiceType.CREDIT_NOTE: "Credit note",
    InvoiceType.CORRECTED_INVOICE: "Corrected invoice",
}
# An invoice's direction is one of the two invoice document types.
DIRECTION_LABELS = {
    DocumentType.SUPPLIER_INVOICE: "Supplier invoice (received)",
    DocumentType.CUSTOMER_INVOICE: "Customer invoice (issued)",
}
PAYMENT_KIND_LABELS = {
    PaymentKind.CREDIT_TRANSFER: "Credit transfer",
    PaymentKind.DIRECT_DEBIT: "Direct debit",
}
# UNTDID 4461, the payment means codes invoices use most.
PAYMENT_MEANS_LABELS = {
    "1": "Not defined",
    "10": "Cash",
    "20": "Cheque",
    "30": "Credit transfer",
    "31": "Debit transfer",
    "42": "Payment to bank account",
    "48": "Bank card",
    "49": "Direct debit",
    "57": "Standing agreement",
    "58": "SEPA credit transfer",
    "59": "SEPA direct debit",
    "97": "Clearing between partners",
    "ZZZ": "Mutually defined",
}
# UNCL 5305, the VAT category codes of EN 16931.
VAT_CATEGORY_LABELS = {
    "S": "Standard rate",
    "Z": "Zero rated",
    "E": "Exempt",
    "AE": "Reverse charge",
    "K": "Intra-community supply",
    "G": "Export outside the EU",
    "O": "Not subject to VAT",
    "L": "Canary Islands IGIC",
    "M": "Ceuta and Melilla IPSI",
}

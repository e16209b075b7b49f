"""E-invoices: UBL, CII (EN 16931, XRechnung, Factur-X / ZUGFeRD 2.x), ZUGFeRD 1.0, and
PDF/A-3 files carrying one. Validated like KoSIT's validator, read into the normalized
`processors.invoice_model.Invoice`."""

from processors.einvoice.findings import (
    Finding,
    InvalidEInvoiceError,
    Level,
    NotAnEInvoiceError,
)
from processors.einvoice.processor import EInvoiceProcessor
from processors.einvoice.rules import RulesNotInstalledError, rules_dir

__all__ = [
    "EInvoiceProcessor",
    "Finding",
    "InvalidEInvoiceError",
    "Level",
    "NotAnEInvoiceError",
    "RulesNotInstalledError",
    "rules_dir",
]

"""Every exception the processors define, in one tree (as httpx's `_exceptions.py`).

The classes stay in the modules that raise them; this module documents the tree and
re-exports each class, so `from processors.errors import OverLimit` works too.

* ProcessingError (base) - a document-level failure carrying a spec failure code; the
  pipeline records it on the upload
  + IntakeRejected (pipeline) - failed the intake checks; no processor read the file
  + NoProcessorFound (registry) - no processor takes this kind as this documentType
  + OverLimit (pdf_limits) - the document is over a reading limit
  + InvalidEInvoiceError (einvoice.findings) - the e-invoice failed validation
* Declined (base) - not this processor's kind; the registry tries the next one
  + NotAnEInvoiceError (einvoice.findings) - a PDF without embedded invoice XML
* ArchiveRejected (archive) - the whole ZIP is refused (intake answers 422, unpack fails
  the batch)
* SourceUnreadable (archive) - the archive's bytes could not be fetched; the work waits
* NotReadableZip (zipsafe) - no end record, or a central directory not where it says;
  archive and sniff turn it into their own refusal
  + DirectoryTooLarge (zipsafe) - the directory is over its bounds and is not parsed
* XmlRejectedError (xmlsafe) - bytes the hardened parser will not read; readers turn it
  into a ProcessingError
  + UnsafeXmlError (xmlsafe) - DOCTYPE, too large, too deep
  + MalformedXmlError (xmlsafe) - not well-formed
  + XmlEncodingError (xmlsafe) - the declared encoding is invalid, unknown or not the
    bytes' own
* SchemaError (sepa_messages, a ValueError) - a SEPA file fails its message's ISO
  schema; sepa.py turns it into a ProcessingError
* ResultShapeError (json_fields, a ValueError) - stored result data that does not fit
  its type (processors/results/)
* UnreadablePdfError (einvoice.pdf_attachment) - a PDF that cannot be opened
* UnknownProfileError (einvoice.profiles, a ValueError) - an e-invoice profile not known
* RulesNotInstalledError (einvoice.rules, a RuntimeError) - the validation rules are
  missing: run scripts/install_rules.py
* OcrUnavailable (ocr) - Tesseract or a language model is not installed
* OcrFailed (ocr) - Tesseract ran and failed on an image

Lines read `* Name (module) - why` for a root (its base is `Exception` unless named) and
`+ Name (module) - why` for a subclass of the root above it. tests/processors/
test_errors.py walks every module under processors/ and fails on a class not listed here.
"""

from processors.archive import ArchiveRejected, SourceUnreadable
from processors.base import Declined, ProcessingError
from processors.einvoice.findings import InvalidEInvoiceError, NotAnEInvoiceError
from processors.einvoice.pdf_attachment import UnreadablePdfError
from processors.einvoice.profiles import UnknownProfileError
from processors.einvoice.rules import RulesNotInstalledError
from processors.json_fields import ResultShapeError
from processors.ocr import OcrFailed, OcrUnavailable
from processors.pdf_limits import OverLimit
from processors.pipeline import IntakeRejected
from processors.registry import NoProcessorFound
from processors.sepa_messages import SchemaError
from processors.xmlsafe import (
    MalformedXmlError,
    UnsafeXmlError,
    XmlEncodingError,
    XmlRejectedError,
)
from processors.zipsafe import DirectoryTooLarge, NotReadableZip

__all__ = [
    "ArchiveRejected",
    "Declined",
    "DirectoryTooLarge",
    "IntakeRejected",
    "InvalidEInvoiceError",
    "MalformedXmlError",
    "NoProcessorFound",
    "NotAnEInvoiceError",
    "NotReadableZip",
    "OcrFailed",
    "OcrUnavailable",
    "OverLimit",
    "ProcessingError",
    "ResultShapeError",
    "RulesNotInstalledError",
    "SchemaError",
    "SourceUnreadable",
    "UnknownProfileError",
    "UnreadablePdfError",
    "UnsafeXmlError",
    "XmlEncodingError",
    "XmlRejectedError",
]

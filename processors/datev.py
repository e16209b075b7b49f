"""DATEV XML (ledger import, document archive): recognised and refused."""

from __future__ import annotations

from lxml import etree

from processors.base import (
    FailureCode,
    FileKind,
    Outcome,
    ProcessingContext,
    ProcessingError,
)
from processors.xmlsafe import XmlRejectedError, parse_xml, peek_root

DATEV_NAMESPACE_PREFIX = "http://xml.datev.de/"
SCORE_DATEV = 100  # refused whatever documentType the client sent

REFUSAL_MESSAGE = (
    "DATEV XML files (ledger or document archive exports) are not supported; "
    "upload the invoices themselves as PDF or e-invoice XML."
)


def is_datev_namespace(namespace: str | None) -> bool:
    return bool(namespace) and str(namespace).startswith(DATEV_NAMESPACE_PREFIX)


class DatevProcessor:
    name = "datev"

    def score(self, kind: FileKind, head: bytes, context: ProcessingContext) -> int:
        if kind is not FileKind.XML:
            return 0
        root = peek_root(head)
        return SCORE_DATEV if root is not None and is_datev_namespace(root.namespace) else 0

    def process(self, data: bytes, context: ProcessingContext) -> Outcome:
        try:
            root = parse_xml(data).getroot()
        except XmlRejectedError as exc:
            raise ProcessingError(FailureCode.UNSUPPORTED_FILE_TYPE, str(exc)) from exc
        if is_datev_namespace(etree.QName(root).namespace):
            raise ProcessingError(FailureCode.UNSUPPORTED_FILE_TYPE, REFUSAL_MESSAGE)
        raise ValueError("DatevProcessor was given XML that is not DATEV")

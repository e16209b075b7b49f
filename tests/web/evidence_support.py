"""An invoice result with evidence, its boxes found by the geometry layer on a DIN 5008
page (tests/processors/layout_docs.py), stored with that page as its original."""

from __future__ import annotations

import re
import uuid
from dataclasses import replace
from datetime import date
from decimal import Decimal

from processors.base import DocumentType, FileKind
from processors.invoice_model import DirectionDecision, Invoice, InvoiceType, Party, Totals
from processors.pdf_layout.document import read_layout
from processors.pdf_layout.pairs import value_of
from processors.results.evidence import Confidence, EvidenceField, FieldEvidence, PageSize
from processors.results.invoice import InvoiceResult
from processors.results.source import ReadMethod, Source
from storage.db import Database
from storage.models import Result, Upload
from storage.objectstore import ObjectStore
from tests.processors.layout_docs import din_form_b
from tests.web.support import seed_upload

INVOICE = Invoice(
    number="RE-2024-17",
    invoice_type=InvoiceType.INVOICE,
    type_code="380",
    issue_date=date(2024, 3, 5),
    currency="EUR",
    seller=Party(name="Beispiel Handel GmbH"),
    buyer=Party(name="Kunden AG Mitte"),
    totals=Totals(gross=Decimal("1469.06")),
)
LABELS = {
    EvidenceField.NUMBER: r"Rechnungsnummer:",
    EvidenceField.ISSUE_DATE: r"Datum:",
    EvidenceField.GROSS_TOTAL: r"Gesamtbetrag",
}
LOW_REASON = "net + VAT does not make the gross"


def evidence() -> tuple[FieldEvidence, ...]:
    (page,) = read_layout(din_form_b(), 1)
    size = PageSize(page.width, page.height)
    found = []
    for field, label in LABELS.items():
        value = value_of(page, re.compile(label))
        assert value is not None, label
        low = field is EvidenceField.GROSS_TOTAL
        confidence = Confidence.LOW if low else Confidence.HIGH
        reason = LOW_REASON if low else None
        found.append(FieldEvidence(field, 1, value.value_box.rounded(), confidence, reason, size))
    return tuple(found)


def seed_invoice_with_evidence(
    database: Database, store: ObjectStore, company_id: uuid.UUID, with_evidence: bool = True
) -> uuid.UUID:
    """The result id of a completed upload of the DIN 5008 page, read with evidence."""
    decision = DirectionDecision(DocumentType.SUPPLIER_INVOICE, False, False, None, "test")
    result = InvoiceResult.of(INVOICE, decision, Source(FileKind.PDF, method=ReadMethod.TEXT))
    if with_evidence:
        result = replace(result, evidence=evidence())
    upload_id = seed_upload(database, company_id, status="completed", result_type="invoice")
    with database.session() as session:
        upload = session.get_one(Upload, upload_id)
        stored = session.get_one(Result, upload.result_id)
        stored.data = result.to_dict()
        assert upload.object_key is not None
        writer = store.open_writer(upload.object_key)
        writer.write(din_form_b())
        writer.commit()
        session.commit()
        return stored.id

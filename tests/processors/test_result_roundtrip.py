"""Typed results (processors/results/) against the JSON stored with results.

Over the whole corpus and a few generated documents: every result that completes reads
back from its JSON as the same value, and writes the same JSON again, key order
included (results are stored as JSON text). `result_shapes.json` holds the key paths
of the results stored before results were typed (recorded from those processors over
the same documents): a renamed or dropped key fails here, not as a blank on a page.
"""

from __future__ import annotations

import dataclasses
import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from processors.base import CompanyProfile, DocumentType, Outcome, ProcessingContext
from processors.base import ProcessingError as ReadFailed
from processors.json_fields import ResultShapeError, from_json, to_json
from processors.other_document import OtherDocumentProcessor
from processors.pipeline import read_document
from processors.registry import Registry
from processors.results import AnyResult, result_from_dict
from processors.results.evidence import (
    Box,
    Confidence,
    EvidenceField,
    FieldEvidence,
    PageSize,
)
from processors.results.invoice import InvoiceChecks, InvoiceResult
from processors.results.other_document import (
    FiledPaymentFile,
    FiledPdf,
    FiledXml,
    NonInvoiceXml,
    other_document_from_dict,
)
from processors.results.payment_file import PaymentFile
from processors.results.source import OcrSummary
from testkit.generated_docs import (
    SAMPLE_INVOICE,
    SAMPLE_STATEMENT,
    english_statement,
    german_invoice,
    german_statement,
)
from tests.processors.conftest import CORPUS, manifest_rows, row_id
from tests.processors.scans import GRADE, scan

SHAPES = json.loads((Path(__file__).with_name("result_shapes.json")).read_text())
# Keys today's processors write that no recorded document carries.
NOT_RECORDED = {
    "invoice": {
        "checks.ocr",
        "checks.placeholders",
        # A hybrid PDF's XML checked against its text (issue 18, part 1).
        "hybridCheck",
        "hybridCheck.fields",
        "hybridCheck.fields[].field",
        "hybridCheck.fields[].agreement",
        "hybridCheck.fields[].xmlValue",
        "hybridCheck.fields[].textValue",
        "hybridCheck.mismatches",
        # Where each field of a PDF was printed (issue 36).
        "evidence",
        "evidence[].field",
        "evidence[].page",
        "evidence[].box",
        "evidence[].box.x0",
        "evidence[].box.y0",
        "evidence[].box.x1",
        "evidence[].box.y1",
        "evidence[].confidence",
        "evidence[].reason",
        "evidence[].pageSize",
        "evidence[].pageSize.width",
        "evidence[].pageSize.height",
        # The parties' tax ids checked offline (issue 42, part 2).
        "taxIds",
        "taxIds[].party",
        "taxIds[].kind",
        "taxIds[].value",
        "taxIds[].verdict",
        "taxIds[].country",
        "taxIds[].regions",
        # The mandatory items of §14 UStG / §33 UStDV (issue 42, part 1).
        "contentCheck",
        "contentCheck.regime",
        "contentCheck.items",
        "contentCheck.items[].item",
        "contentCheck.items[].status",
        "contentCheck.items[].reference",
        "contentCheck.items[].where",
    }
}
COMPANY = CompanyProfile(name="Muster GmbH", vat_ids=("DE123456789",))
REPORT_XML = b'<?xml version="1.0"?><Report xmlns="urn:example:report"><a/></Report>'


def _corpus_cases() -> list[Any]:
    """Every corpus file, as `auto`; bank statements as bank statements; SEPA files also
    as a supplier invoice (filed as an other document)."""
    manifest = CORPUS / "manifest.jsonl"
    lines = manifest.read_text().splitlines() if manifest.exists() else []
    cases = []
    for row in (json.loads(line) for line in lines if line):
        types = [DocumentType.AUTO]
        if row["expected"] == "bank_statement":
            types = [DocumentType.BANK_STATEMENT]
        if row["expected"] in ("accept_sepa", "pain008"):
            types.append(DocumentType.SUPPLIER_INVOICE)
        cases += [pytest.param(row["file"], t, id=f"{row_id(row)}:{t}") for t in types]
    return cases


def _read(data: bytes, document_type: DocumentType, registry: Registry | None = None) -> Outcome:
    return read_document(data, ProcessingContext(document_type, "upload", COMPANY), registry)


def assert_round_trip(outcome: Outcome) -> None:
    result: Any = outcome.result
    stored = json.dumps(outcome.data)  # what the results table keeps
    again = result_from_dict(outcome.result_type, json.loads(stored))
    assert again == result
    assert json.dumps(again.to_dict()) == stored
    assert pickle.loads(pickle.dumps(outcome)) == outcome  # crosses the reading process
    assert_recorded_shape(again, json.loads(stored))


def assert_recorded_shape(result: AnyResult, data: dict[str, Any]) -> None:
    shape = _shape_name(result)
    recorded = SHAPES[shape]
    found = _paths(data)
    allowed = set(recorded["always"]) | set(recorded["sometimes"]) | NOT_RECORDED.get(shape, set())
    assert found <= allowed, f"keys not stored before: {sorted(found - allowed)}"
    assert set(recorded["always"]) <= found, (
        f"keys missing: {sorted(set(recorded['always']) - found)}"
    )


def _shape_name(result: AnyResult) -> str:
    filed = {
        FiledPdf: "pdf",
        FiledXml: "xml",
        NonInvoiceXml: "non_invoice_xml",
        FiledPaymentFile: "payment_file",
    }
    kind = filed.get(type(result))  # type: ignore[call-overload]
    return f"other_document/{kind}" if kind else result.RESULT_TYPE.value


def _paths(value: Any, prefix: str = "") -> set[str]:
    found: set[str] = set()
    if isinstance(value, dict):
        for key, inner in value.items():
            path = f"{prefix}.{key}" if prefix else key
            found |= {path} | _paths(inner, path)
    elif isinstance(value, list):
        for inner in value:
            found |= _paths(inner, prefix + "[]")
    return found


@pytest.mark.parametrize(("name", "document_type"), _corpus_cases())
def test_corpus_results_round_trip(name: str, document_type: DocumentType) -> None:
    try:
        outcome = _read((CORPUS / name).read_bytes(), document_type)
    except ReadFailed:
        return  # no result to store
    assert_round_trip(outcome)


GENERATED = {
    "text_invoice": (lambda: german_invoice(SAMPLE_INVOICE), DocumentType.AUTO),
    "statement": (lambda: german_statement(SAMPLE_STATEMENT), DocumentType.BANK_STATEMENT),
    "scanned_statement": (
        lambda: scan(english_statement(SAMPLE_STATEMENT), GRADE["g0-clean"]),
        DocumentType.BANK_STATEMENT,
    ),
    "xml_not_an_invoice": (lambda: REPORT_XML, DocumentType.AUTO),
}


@pytest.mark.parametrize("name", GENERATED)
def test_generated_results_round_trip(name: str) -> None:
    make, document_type = GENERATED[name]
    assert_round_trip(_read(make(), document_type))


def test_an_invoice_with_evidence_round_trips() -> None:
    outcome = _read(german_invoice(SAMPLE_INVOICE), DocumentType.AUTO)
    assert isinstance(outcome.result, InvoiceResult)
    evidence = (
        FieldEvidence(EvidenceField.NUMBER, 1, Box(400.5, 120.0, 460.0, 131.2), Confidence.HIGH),
        FieldEvidence(
            EvidenceField.GROSS_TOTAL,
            2,
            Box(480.0, 610.3, 540.1, 621.0),
            Confidence.LOW,
            "net + VAT does not make the gross",
            PageSize(595.3, 841.9),
        ),
    )
    result = dataclasses.replace(outcome.result, evidence=evidence)
    assert_round_trip(Outcome(result))
    stored = result.to_dict()["evidence"]
    assert stored[0] == {
        "field": "number",
        "page": 1,
        "box": {"x0": 400.5, "y0": 120.0, "x1": 460.0, "y1": 131.2},
        "confidence": "high",
    }
    assert result.evidence_by_field[EvidenceField.GROSS_TOTAL].reason is not None


def test_xml_filed_by_the_fallback_round_trips() -> None:
    outcome = _read(REPORT_XML, DocumentType.AUTO, Registry([OtherDocumentProcessor()]))
    assert isinstance(outcome.result, FiledXml)
    assert_round_trip(outcome)


# --- shapes stored by earlier versions ----------------------------------------------


def test_checks_before_template_flags_read_back_and_write_the_same() -> None:
    stored = {
        "totals": "incomplete",
        "totalsExplained": "net + VAT = gross",
        "vatBreakdownRows": 0,
        "confidence": "low",
        "needsReview": True,
        "ocr": "low_confidence",
    }
    checks = from_json(InvoiceChecks, stored)
    assert (checks.ocr, checks.template, checks.placeholders) == ("low_confidence", None, None)
    assert to_json(checks) == stored


def test_an_ocr_summary_before_review_advice_reads_back() -> None:
    stored = {"pages": 1, "words": 40, "meanConfidence": 91.5, "recognisedRate": 0.9}
    summary = from_json(OcrSummary, {**stored, "seconds": 2.5, "pagesNotRead": 0})
    assert summary.review_advised is None
    assert "reviewAdvised" not in to_json(summary)


def test_a_payment_file_before_variants_and_warnings_reads_back(corpus: Path) -> None:
    sepa = next(row for row in manifest_rows("accept_sepa"))
    data = _read((corpus / sepa["file"]).read_bytes(), DocumentType.AUTO).data
    older = {**data, "validation": {"xsd": "passed", "schema": None, "structure": "checked"}}
    validation = PaymentFile.from_dict(older).validation
    assert (validation.variant, validation.warnings) == (None, ())


def test_a_newer_version_than_this_code_knows_is_refused() -> None:
    with pytest.raises(ResultShapeError, match="version 2"):
        other_document_from_dict({"version": 2, "kind": "pdf", "size": 1, "page_count": 1})


def test_a_missing_required_key_is_refused_not_read_as_none() -> None:
    with pytest.raises(ResultShapeError, match="'size' is missing"):
        other_document_from_dict({"kind": "pdf", "page_count": 1, "title": None})
    with pytest.raises(ResultShapeError, match="no known shape"):
        other_document_from_dict({})

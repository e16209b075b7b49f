"""The results API's schemas are the typed results' own: every business term names a
field that exists, with an id of the EN 16931 semantic model, and amounts are strings."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from pydantic import BaseModel, TypeAdapter

from api.v1.invoice_terms import TERMS, term_description
from api.v1.result_models import RESULT_MODELS, InvoiceData, PaymentFileData
from processors.base import DocumentType, ProcessingContext
from processors.einvoice.business_terms import term
from processors.pipeline import read_document
from processors.results.evidence import Box, Confidence, EvidenceField, FieldEvidence
from testkit.generated_docs import SAMPLE_INVOICE, german_invoice
from testkit.samples import corpus_file
from tests.processors.test_result_roundtrip import COMPANY


def _field(model: type[BaseModel], path: str) -> Any:
    """The field info at a JSON path of the model (through lists and optionals)."""
    head, _, rest = path.partition(".")
    (info,) = [f for f in model.model_fields.values() if f.alias == head]
    if not rest:
        return info
    return _field(_model_in(info.annotation), rest)


def _model_in(annotation: Any) -> type[BaseModel]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()):
        if (found := _model_in_or_none(arg)) is not None:
            return found
    raise AssertionError(f"no model in {annotation!r}")


def _model_in_or_none(annotation: Any) -> type[BaseModel] | None:
    try:
        return _model_in(annotation)
    except AssertionError:
        return None


def test_every_business_term_names_a_field_and_a_known_term() -> None:
    for path, term_id in TERMS.items():
        assert term(term_id) is not None, term_id
        info = _field(InvoiceData, path)
        assert info.description == term_description(path)
        assert f"({term_id})" in info.description


def test_the_invoice_schema_says_bt_ids_and_amounts_are_strings() -> None:
    schema = InvoiceData.model_json_schema(mode="serialization", by_alias=True)
    totals = schema["$defs"]["Totals"]["properties"]["gross"]
    assert totals["description"] == "Invoice total amount with VAT (BT-112)"
    assert {"type": "string", "format": "decimal"}.items() <= totals["anyOf"][0].items()
    control_sum = PaymentFileData.model_json_schema(by_alias=True)["properties"]["controlSum"]
    assert control_sum["type"] == "string"


def test_evidence_is_in_the_invoice_schema_as_the_result_stores_it() -> None:
    schema = InvoiceData.model_json_schema(mode="serialization", by_alias=True)
    assert "evidence" not in schema.get("required", [])  # left out when not recorded
    evidence = schema["$defs"]["FieldEvidence"]
    assert {"field", "page", "box", "confidence"} <= set(evidence["required"])


# --- what the processors make is what the schema says ------------------------------------

_SAMPLES = {
    "e_invoice": ("accept", ".xml", DocumentType.AUTO),
    "payment_file": ("accept_sepa", ".xml", DocumentType.AUTO),
    "sepa_filed_as_other": ("accept_sepa", ".xml", DocumentType.SUPPLIER_INVOICE),
    "statement": ("bank_statement", ".pdf", DocumentType.BANK_STATEMENT),
    "plain_pdf": ("plain_pdf", ".pdf", DocumentType.AUTO),
}


def _served(result: Any) -> None:
    """The API's model reads the stored JSON and writes it back unchanged."""
    stored = result.to_dict()
    data = RESULT_MODELS[result.RESULT_TYPE.value].model_fields["data"].annotation
    served = TypeAdapter(data).validate_python(stored)
    assert TypeAdapter(data).dump_python(
        served, mode="json", by_alias=True, exclude_unset=True
    ) == json.loads(json.dumps(stored))


@pytest.mark.parametrize("sample", _SAMPLES)
def test_corpus_results_are_served_as_stored(sample: str) -> None:
    expected, suffix, document_type = _SAMPLES[sample]
    _, content = corpus_file(expected, suffix)
    outcome = read_document(content, ProcessingContext(document_type, "upload", COMPANY))
    _served(outcome.result)


def test_a_text_invoice_with_evidence_is_served_as_stored() -> None:
    outcome = read_document(
        german_invoice(SAMPLE_INVOICE), ProcessingContext(DocumentType.AUTO, "upload", COMPANY)
    )
    box = Box(400.5, 120.0, 460.0, 131.2)
    evidence = (FieldEvidence(EvidenceField.NUMBER, 1, box, Confidence.LOW, "faint"),)
    _served(dataclasses.replace(outcome.result, evidence=evidence))

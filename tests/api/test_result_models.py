"""The results API's schemas are the typed results' own: every business term names a
field that exists, with an id of the EN 16931 semantic model, and amounts are strings."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from api.v1.invoice_terms import TERMS, term_description
from api.v1.result_models import InvoiceData, PaymentFileData
from processors.einvoice.business_terms import term


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

"""Validation findings: stored with an e-invoice's result, carried by its failure."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from processors.json_fields import json_key, to_json


class Level(StrEnum):
    FATAL = "fatal"  # XSD errors, unreadable structure, unknown profile
    ERROR = "error"
    WARNING = "warning"
    INFORMATION = "information"

    @property
    def fails(self) -> bool:
        return self in (Level.FATAL, Level.ERROR)


@dataclass(frozen=True, slots=True)
class Finding:
    rule_id: str = field(metadata=json_key("id"))
    level: Level
    text: str
    location: str | None = None
    stage: str = ""  # which artefact reported it: "xsd:...", "schematron:..."
    # The EN 16931 business terms it concerns (BT-/BG- ids) and what is wrong and what to
    # ask the sender for, in English and German (processors/einvoice/business_terms.py).
    # Results stored before lack them: the web application looks them up when shown.
    business_terms: tuple[str, ...] = ()
    explanation_en: str = ""
    explanation_de: str = ""

    def to_dict(self) -> dict[str, object]:
        result = to_json(self)
        assert isinstance(result, dict)
        return result

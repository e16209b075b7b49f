"""A reading process compiles every validation artefact when it starts, so the first
document of each kind is read as fast as the later ones."""

from __future__ import annotations

from processors.einvoice import rules
from processors.einvoice.profiles import every_artefact
from processors.sepa import compile_schemas


def test_every_artefact_a_plan_may_name_exists() -> None:
    names = every_artefact()
    assert len(names) == len(set(names)) >= 17
    for name in names:
        assert rules.artefact(name).is_file()


def test_every_sepa_schema_compiles() -> None:
    assert compile_schemas() == 8  # pain.001 .03/.09/.10/.11 and pain.008 .02/.08/.09/.10

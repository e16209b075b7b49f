"""Fixtures for processor tests: the shared real-world corpus (skipped when absent)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from processors.base import CompanyProfile, DocumentType, ProcessingContext

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
MANIFEST = CORPUS / "manifest.jsonl"


def manifest_rows(*expected: str) -> list[dict[str, Any]]:
    """Manifest rows with one of the `expected` outcomes; [] when the corpus is absent."""
    if not MANIFEST.is_file():
        return []
    rows = (json.loads(line) for line in MANIFEST.read_text(encoding="utf-8").splitlines() if line)
    return [row for row in rows if row["expected"] in expected]


def row_id(row: dict[str, Any]) -> str:
    return f"{row['expected']}:{row['file']}"


def rules_installed() -> bool:
    from processors.einvoice.rules import RulesNotInstalledError, rules_dir

    try:
        rules_dir()
    except RulesNotInstalledError:
        return False
    return True


@pytest.fixture
def corpus() -> Iterator[Path]:
    if not MANIFEST.is_file():
        pytest.skip(f"shared corpus not found at {CORPUS}")
    yield CORPUS


@pytest.fixture
def requires_rules() -> None:
    if not rules_installed():
        pytest.skip("e-invoice rules not installed: run scripts/install_rules.py")


def context(
    document_type: DocumentType = DocumentType.AUTO, company: CompanyProfile | None = None
) -> ProcessingContext:
    return ProcessingContext(document_type, "upload", company or CompanyProfile(name="Nobody GmbH"))

"""Documents for pipeline tests, taken from ../shared/corpus by their labels."""

from __future__ import annotations

import io
import json
from functools import cache
from pathlib import Path

import pytest
from pypdf import PdfWriter

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


@cache
def _manifest() -> list[dict[str, str]]:
    path = CORPUS / "manifest.jsonl"
    if not path.exists():
        pytest.skip("../shared/corpus is not available")
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def corpus_file(expected: str, suffix: str = "", index: int = 0) -> tuple[str, bytes]:
    rows = [
        row
        for row in _manifest()
        if row["expected"] == expected and row["file"].lower().endswith(suffix)
    ]
    row = rows[index]
    return Path(row["file"]).name, (CORPUS / row["file"]).read_bytes()


def blank_pdf(text: str = "") -> bytes:
    writer = PdfWriter()
    writer.add_blank_page(width=200, height=200)
    writer.add_metadata({"/Title": text or "blank"})
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()

"""The importer's values: limits, the files to send, the batches planned, result rows."""

from __future__ import annotations

import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from docintake_client.errors import ProblemError
from docintake_client.models import Batch

MIB = 1024 * 1024
DOCUMENT_TYPES = (
    "auto",
    "supplier_invoice",
    "customer_invoice",
    "bank_statement",
    "other_document",
)


@dataclass(frozen=True, slots=True)
class ImportLimits:
    max_files: int = 100
    max_batch_bytes: int = 200 * MIB
    max_file_bytes: int = 50 * MIB


@dataclass(frozen=True, slots=True)
class ImportOptions:
    paths: tuple[Path, ...]
    results: Path  # the base name: RESULTS.csv, RESULTS.parquet, RESULTS.state.jsonl
    document_type: str = "auto"
    parallel: int = 4
    limits: ImportLimits = field(default_factory=ImportLimits)
    max_poll_seconds: float = 30.0


@dataclass(frozen=True, slots=True)
class Document:
    """One file to send: a loose file, or an entry of a local ZIP archive."""

    path: str  # relative, '/'-separated; for a ZIP entry: "archive.zip/entry/name"
    size: int
    digest: str  # sha256 of the content
    source: Path
    entry: str | None = None

    @property
    def key(self) -> str:
        return f"{self.path}\0{self.digest}"

    def read(self) -> bytes:
        if self.entry is None:
            return self.source.read_bytes()
        with zipfile.ZipFile(self.source) as archive:
            return archive.read(self.entry)


@dataclass(frozen=True, slots=True)
class Plan:
    """One batch: its members, and the local archive sent as it is (or None: repacked)."""

    external_id: str
    documents: tuple[Document, ...]
    archive: Path | None = None

    def name_in_archive(self, document: Document) -> str:
        return document.entry if self.archive is not None and document.entry else document.path

    @property
    def size(self) -> int:
        return sum(document.size for document in self.documents)


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the results file: a file and what became of it."""

    path: str
    upload_id: str | None
    status: str
    result_url: str | None
    error_code: str | None
    error_message: str | None


@dataclass(frozen=True, slots=True)
class Discovery:
    loose: tuple[Document, ...]
    archives: tuple[Plan, ...]  # local ZIPs within the limits, sent as they are
    refused: tuple[Row, ...]  # reported locally, never sent


@dataclass(frozen=True, slots=True)
class ImportEvent:
    kind: Literal["sent", "resumed", "polled", "finished", "refused"]
    plan: Plan
    batch: Batch | None = None
    problem: ProblemError | None = None

"""Choosing a processor by score."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from processors.base import (
    CompanyProfile,
    DocumentType,
    FailureCode,
    FileKind,
    Outcome,
    ProcessingContext,
    ResultType,
)
from processors.other_document import OtherDocumentProcessor
from processors.registry import NoProcessorFound, Registry, default_registry

CONTEXT = ProcessingContext(DocumentType.AUTO, "file", CompanyProfile(name="Muster GmbH"))


@dataclass
class FixedScore:
    name: str
    fixed: int
    kinds: frozenset[FileKind] = frozenset({FileKind.PDF, FileKind.XML})

    def score(self, kind: FileKind, head: bytes, context: ProcessingContext) -> int:
        return self.fixed if kind in self.kinds else 0

    def process(self, data: bytes, context: ProcessingContext) -> Outcome:
        return Outcome(ResultType.OTHER_DOCUMENT, {"by": self.name})


def test_highest_score_wins() -> None:
    registry = Registry([FixedScore("low", 1), FixedScore("high", 10), FixedScore("mid", 5)])
    assert registry.choose(FileKind.PDF, b"%PDF-", CONTEXT).name == "high"


def test_tie_goes_to_the_processor_registered_first() -> None:
    registry = Registry([FixedScore("first", 5), FixedScore("second", 5)])
    assert registry.choose(FileKind.XML, b"<a/>", CONTEXT).name == "first"


def test_zero_and_negative_scores_never_win() -> None:
    registry = Registry([FixedScore("zero", 0), FixedScore("negative", -3)])
    with pytest.raises(NoProcessorFound) as raised:
        registry.choose(FileKind.PDF, b"%PDF-", CONTEXT)
    assert raised.value.code is FailureCode.UNSUPPORTED_FILE_TYPE


def test_processor_that_does_not_take_the_kind_is_skipped() -> None:
    registry = Registry(
        [FixedScore("xml-only", 50, frozenset({FileKind.XML})), FixedScore("any", 1)]
    )
    assert registry.choose(FileKind.PDF, b"%PDF-", CONTEXT).name == "any"
    assert registry.choose(FileKind.XML, b"<a/>", CONTEXT).name == "xml-only"


def test_names_must_be_unique() -> None:
    with pytest.raises(ValueError, match="unique"):
        Registry([FixedScore("same", 1), FixedScore("same", 2)])


def test_default_registry_falls_back_to_other_documents() -> None:
    registry = default_registry()
    assert any(isinstance(p, OtherDocumentProcessor) for p in registry.processors)
    for kind in (FileKind.PDF, FileKind.XML):
        assert isinstance(registry.choose(kind, b"", CONTEXT), OtherDocumentProcessor)
    with pytest.raises(NoProcessorFound):
        registry.choose(FileKind.IMAGE, b"\x89PNG", CONTEXT)


def test_specific_processor_outscores_the_fallback() -> None:
    registry = Registry([OtherDocumentProcessor(), FixedScore("einvoice", 10)])
    assert registry.choose(FileKind.XML, b"<Invoice/>", CONTEXT).name == "einvoice"

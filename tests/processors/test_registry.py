"""Choosing a processor by score."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from processors.base import (
    CompanyProfile,
    Declined,
    DocumentType,
    FailureCode,
    FileKind,
    Outcome,
    ProcessingContext,
    ResultType,
)
from processors.other_document import OtherDocumentProcessor
from processors.registry import NoProcessorFound, Registry, default_registry
from processors.results.other_document import FiledPdf

CONTEXT = ProcessingContext(DocumentType.AUTO, "file", CompanyProfile(name="Muster GmbH"))


@dataclass
class FixedScore:
    name: str
    fixed: int
    kinds: frozenset[FileKind] = frozenset({FileKind.PDF, FileKind.XML})

    def score(self, kind: FileKind, head: bytes, context: ProcessingContext) -> int:
        return self.fixed if kind in self.kinds else 0

    def process(self, data: bytes, context: ProcessingContext) -> Outcome:
        # The processor's name as the title: the tests tell who read the file.
        return Outcome(FiledPdf(size=len(data), page_count=1, title=self.name))


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


def test_default_registry_ends_with_the_fallback() -> None:
    registry = default_registry()
    names = [p.name for p in registry.processors]
    assert names[-1] == "other_document"
    assert {"einvoice", "sepa", "datev"} <= set(names)
    assert isinstance(
        registry.candidates(FileKind.PDF, b"%PDF-", CONTEXT)[-1], OtherDocumentProcessor
    )
    with pytest.raises(NoProcessorFound):
        registry.choose(FileKind.IMAGE, b"\x89PNG", CONTEXT)


@dataclass
class Decliner(FixedScore):
    def process(self, data: bytes, context: ProcessingContext) -> Outcome:
        raise Declined("not mine after all")


def test_a_declining_processor_passes_the_file_on() -> None:
    registry = Registry([Decliner("picky", 10), FixedScore("next", 5), FixedScore("last", 1)])

    outcome = registry.process(b"%PDF-", FileKind.PDF, b"%PDF-", CONTEXT)

    assert outcome.result == FiledPdf(size=5, page_count=1, title="next")


def test_a_pdf_without_an_e_invoice_is_declined_and_filed_as_other_document() -> None:
    import io

    from pypdf import PdfWriter

    buffer = io.BytesIO()
    writer = PdfWriter()
    writer.add_blank_page(width=200, height=200)
    writer.write(buffer)

    outcome = default_registry().process(buffer.getvalue(), FileKind.PDF, b"%PDF-", CONTEXT)

    assert outcome.result_type is ResultType.OTHER_DOCUMENT


def test_specific_processor_outscores_the_fallback() -> None:
    registry = Registry([OtherDocumentProcessor(), FixedScore("einvoice", 10)])
    assert registry.choose(FileKind.XML, b"<Invoice/>", CONTEXT).name == "einvoice"

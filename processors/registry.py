"""Picks the processor for a file: every processor scores it, the highest non-zero wins.

Modelled on paperless-ngx's parser registry. Scores in use (docs/processors.md):
- 1: the fallback, `OtherDocumentProcessor` (any PDF or XML)
- 10 and up: processors for one document format (e-invoices, SEPA, bank statements);
  a processor that recognises the root element or embedded file scores higher than one
  that merely accepts the kind.
On a tie the processor registered first wins, so the order of `default_registry` is a
deliberate tie-breaker, never a hidden priority.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from processors.bank_statement import BankStatementProcessor
from processors.base import (
    Declined,
    FailureCode,
    FileKind,
    Outcome,
    ProcessingContext,
    ProcessingError,
    Processor,
)
from processors.datev import DatevProcessor
from processors.einvoice.processor import EInvoiceProcessor
from processors.other_document import OtherDocumentProcessor
from processors.pdf_invoices import PdfTextInvoiceProcessor
from processors.sepa import SepaProcessor


class NoProcessorFound(ProcessingError):
    """No registered processor takes this file; nothing has read it yet."""

    def __init__(self, kind: FileKind, context: ProcessingContext) -> None:
        super().__init__(
            FailureCode.UNSUPPORTED_FILE_TYPE,
            f"No reader takes this {kind.value.upper()} file "
            f"as documentType {context.document_type.value!r}.",
        )


class Registry:
    def __init__(self, processors: Iterable[Processor]) -> None:
        self._processors = tuple(processors)
        names = [processor.name for processor in self._processors]
        duplicates = sorted({name for name in names if names.count(name) > 1})
        if duplicates:
            raise ValueError(f"processor names must be unique: {duplicates}")

    @property
    def processors(self) -> tuple[Processor, ...]:
        return self._processors

    def candidates(
        self, kind: FileKind, head: bytes, context: ProcessingContext
    ) -> list[Processor]:
        """Every processor that takes the file, best score first (ties: registration order)."""
        scored = [
            (processor.score(kind, head, context), processor) for processor in self._processors
        ]
        ranked = sorted(
            ((score, index, p) for index, (score, p) in enumerate(scored) if score > 0),
            key=lambda item: (-item[0], item[1]),
        )
        if not ranked:
            raise NoProcessorFound(kind, context)
        return [processor for _, _, processor in ranked]

    def choose(self, kind: FileKind, head: bytes, context: ProcessingContext) -> Processor:
        return self.candidates(kind, head, context)[0]

    def process(
        self, data: bytes, kind: FileKind, head: bytes, context: ProcessingContext
    ) -> Outcome:
        """Hand the file to the best processor; one that declines passes it on."""
        candidates = self.candidates(kind, head, context)
        for processor in candidates[:-1]:
            try:
                return processor.process(data, context)
            except Declined:
                continue
        return candidates[-1].process(data, context)


@lru_cache(maxsize=1)
def default_registry() -> Registry:
    # Specific processors first; the fallback takes what they decline or do not score.
    return Registry(
        [
            DatevProcessor(),
            SepaProcessor(),
            EInvoiceProcessor(),
            BankStatementProcessor(),
            PdfTextInvoiceProcessor(),
            OtherDocumentProcessor(),
        ]
    )

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

from processors.base import FailureCode, FileKind, ProcessingContext, ProcessingError, Processor
from processors.other_document import OtherDocumentProcessor


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

    def choose(self, kind: FileKind, head: bytes, context: ProcessingContext) -> Processor:
        best: Processor | None = None
        best_score = 0
        for processor in self._processors:
            score = processor.score(kind, head, context)
            if score > best_score:
                best, best_score = processor, score
        if best is None:
            raise NoProcessorFound(kind, context)
        return best


def default_registry() -> Registry:
    # Specific processors go before the fallback; they outscore it anyway.
    return Registry([OtherDocumentProcessor()])

"""The documents of the throughput benchmark and their floor.

Documents: distinct corpus files, spread over the whole corpus, and variants of them
with different bytes (a comment appended after the end: `%...` after a PDF's %%EOF, an
XML comment after the root element) so that no two uploads share content and every
one is read, with the same outcome as its original.

The floor: the project's own `read_document` over exactly those bytes in one warm
process (after `warm_up` and a first pass over the originals), its CPU time divided by
the cores. Per document, so the floor of any part of the run is the sum of its own.
Each document's floor is the median of `FLOOR_PASSES` passes over all documents: one
pass over the same documents moves by a tenth from the pass before on a quiet machine
(21.7-25.8 ms a document in five passes), a spike on one document in one pass (the
machine's other tenants, a garbage collection) is not the document's cost. Measured
right before each phase instead, the floors of the same 800 documents came out 22.8
and 30.6 ms a document six minutes apart, while the reading processes spent 30.8 and
28.9 ms on them: that added noise instead of taking it away.
"""

from __future__ import annotations

import contextlib
import os
import statistics
import time
from dataclasses import dataclass

from bench.pipeline import _corpus_files
from flows.reader_process import warm_up
from processors.base import CompanyProfile, DocumentType, ProcessingContext, ProcessingError
from processors.pipeline import read_document

CORES = os.cpu_count() or 1
FLOOR_PASSES = 3
Document = tuple[str, bytes]
# The context every floor is read in, and the reading processes beside it.
CONTEXT = ProcessingContext(DocumentType.AUTO, "x", CompanyProfile("Bench GmbH"))
UTF16_NEWLINE = {b"\xff\xfe": "\n".encode("utf-16-le"), b"\xfe\xff": "\n".encode("utf-16-be")}


def originals(count: int) -> list[Document]:
    """`count` distinct corpus files, every n-th of all, so each kind is in the mix as
    often as in the corpus."""
    every = _corpus_files(10_000)
    step = max(1, len(every) // count)
    return every[::step][:count]


def variant(data: bytes, number: int) -> bytes:
    """Different bytes, same document (a trailing comment, or newlines in UTF-16)."""
    if b"%PDF" in data[:1024]:
        return data + b"\n%docintake bench variant " + str(number).encode() + b"\n"
    if data[:2] in UTF16_NEWLINE:
        return data + UTF16_NEWLINE[data[:2]] * (number + 1)
    return data + b"\n<!-- docintake bench variant " + str(number).encode() + b" -->\n"


def variants(files: list[Document], number: int) -> list[Document]:
    return [(f"v{number:03d}-{name}", variant(data, number)) for name, data in files]


def _read(data: bytes, context: ProcessingContext) -> None:
    with contextlib.suppress(ProcessingError):  # a refused document costs its CPU too
        read_document(data, context)


@dataclass
class Floor:
    """CPU seconds per document name, in one warm process."""

    cpu_seconds: dict[str, float]

    @classmethod
    def measure(cls, warming: list[Document], documents: list[Document], passes: int = 1) -> Floor:
        warm_up()
        for _, data in warming:
            _read(data, CONTEXT)
        measured = [one_pass(documents, CONTEXT) for _ in range(passes)]
        return cls({name: statistics.median(cpu[name] for cpu in measured) for name in measured[0]})

    def cpu(self, documents: list[Document]) -> float:
        """The processors' own CPU seconds for these documents."""
        return sum(self.cpu_seconds[name] for name, _ in documents)

    def seconds(self, documents: list[Document]) -> float:
        """The floor's wall time for these documents: their CPU over the cores."""
        return self.cpu(documents) / CORES

    def per_second(self, documents: list[Document]) -> float:
        return len(documents) / self.seconds(documents)

    def mean_ms(self) -> float:
        return round(1000 * sum(self.cpu_seconds.values()) / len(self.cpu_seconds), 2)


def one_pass(documents: list[Document], context: ProcessingContext) -> dict[str, float]:
    """CPU seconds of each document, read once in this process."""
    cpu = {}
    for name, data in documents:
        started = time.process_time()
        _read(data, context)
        cpu[name] = time.process_time() - started
    return cpu

"""The per-document time limit holds whatever code it interrupts, PDF text extraction
included (its code catches broad exceptions; the limit must pass through them)."""

from __future__ import annotations

import signal
from collections.abc import Iterator

import pytest
from fpdf import FPDF

from flows.reader_process import ReaderLimits, _on_alarm, read_in_child
from processors.base import CompanyProfile, DocumentType, Failure, ProcessingContext

# The alarm lands wherever the read is, a weakref callback of a garbage collection
# included: Python then reports it as unraisable (the reader still fails the document,
# flows/reader_process._Alarm). That report is expected here, not a fault.
pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")


@pytest.fixture
def alarm_handler() -> Iterator[None]:
    previous = signal.signal(signal.SIGALRM, _on_alarm)  # as in every reading process
    yield
    signal.signal(signal.SIGALRM, previous)


def _long_text_pdf(pages: int) -> bytes:
    """Pages of dense text: nearly all the reading time goes to text extraction."""
    document = FPDF()
    document.set_font("Helvetica", size=7)
    line = "Rechnung 2024-0042 Betrag 1.234,56 EUR USt 19 % IBAN DE89370400440532013000 " * 2
    for _ in range(pages):
        document.add_page()
        for _ in range(90):
            document.cell(0, 3, line, new_x="LMARGIN", new_y="NEXT")
    return bytes(document.output())


@pytest.mark.parametrize("document_type", [DocumentType.AUTO, DocumentType.BANK_STATEMENT])
def test_a_long_pdf_over_the_limit_fails_processing_failed(
    alarm_handler: None, document_type: DocumentType
) -> None:
    context = ProcessingContext(document_type, "long.pdf", CompanyProfile("Acme GmbH"))
    outcome = read_in_child(_long_text_pdf(150), context, ReaderLimits(time_limit=0.05))
    assert isinstance(outcome, Failure) and outcome.code == "processing_failed", outcome
    assert "took longer than" in outcome.message


def test_a_limit_that_passes_as_it_is_armed_fails_the_document_not_its_process(
    alarm_handler: None,
) -> None:
    """On a loaded machine a short limit can pass before reading begins; the alarm is
    then the document's time limit, never an exception that ends its reading process
    (which would be charged as a process death and read the document again)."""
    context = ProcessingContext(DocumentType.AUTO, "long.pdf", CompanyProfile("Acme GmbH"))
    document = _long_text_pdf(1)
    for _ in range(50):
        outcome = read_in_child(document, context, ReaderLimits(time_limit=1e-6))
        assert isinstance(outcome, Failure) and outcome.code == "processing_failed", outcome
        assert "took longer than" in outcome.message

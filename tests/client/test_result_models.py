"""The client's result models are generated from the OpenAPI document and cannot drift
(regenerated here and compared); against the real stack they read every result type,
page through the listing, and fetch the original file."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from unittest.mock import MagicMock

import pytest

from api.app import create_app
from docintake_client import (
    BankStatementResultOut,
    DocintakeClient,
    InvoiceResultOut,
    OtherDocumentResultOut,
    PaymentFileResultOut,
    ProblemError,
    Upload,
)
from scripts.generate_client_models import TARGET, render
from testkit.samples import blank_pdf, corpus_file
from tests.client.support import Stack


def test_the_models_are_what_the_openapi_document_says() -> None:
    generated = render(create_app(MagicMock()).openapi())
    assert TARGET.read_text() == generated, (
        "the OpenAPI document changed: run scripts/generate_client_models.py"
    )


@pytest.fixture
def client(stack: Stack) -> Iterator[DocintakeClient]:
    with stack.client() as docintake:
        yield docintake


def _read(client: DocintakeClient, content: bytes, name: str, document_type: str = "auto") -> str:
    done: Upload = client.wait(client.upload(content, document_type, file_name=name), timeout=60)
    assert done.status == "completed" and done.result is not None, done
    return done.result.id


def test_every_result_type_as_its_model(client: DocintakeClient) -> None:
    name, invoice_xml = corpus_file("accept", ".xml")
    invoice = client.result(_read(client, invoice_xml, name))
    assert isinstance(invoice, InvoiceResultOut) and invoice.schema_version == 1
    assert isinstance(invoice.data.invoice.totals.gross, Decimal)
    assert isinstance(invoice.data.invoice.issue_date, date)
    assert invoice.data.validation is not None

    statement_name, statement = corpus_file("bank_statement", ".pdf")
    read = client.result(_read(client, statement, statement_name, "bank_statement"))
    assert isinstance(read, BankStatementResultOut)
    assert all(t.confirmed is False for t in read.data.transactions)

    sepa_name, sepa = corpus_file("accept_sepa", ".xml")
    payments = client.result(_read(client, sepa, sepa_name))
    assert isinstance(payments, PaymentFileResultOut)
    assert isinstance(payments.data.control_sum, Decimal)

    other = client.result(_read(client, blank_pdf("a note"), "note.pdf"))
    assert isinstance(other, OtherDocumentResultOut)


def test_pages_of_the_listing_and_the_original(client: DocintakeClient) -> None:
    ids = [_read(client, blank_pdf(f"note {n}"), f"note-{n}.pdf") for n in range(3)]
    pages = list(client.results(page_size=2))
    assert [len(page.items) for page in pages] == [2, 1]
    assert [item.id for page in pages for item in page.items] == ids
    assert next(client.results(cursor=pages[-1].next_cursor)).items == ()
    assert [i.id for p in client.results(type="invoice") for i in p.items] == []

    original = client.original(ids[0])
    assert original.content == blank_pdf("note 0")
    assert original.content_type == "application/pdf" and original.file_name == "note-0.pdf"
    with pytest.raises(ProblemError) as missing:
        client.result("00000000-0000-0000-0000-000000000000")
    assert missing.value.status == 404

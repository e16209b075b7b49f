from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from processors.base import (
    DocumentType,
    FailureCode,
    FileKind,
    ProcessingError,
    ResultType,
)
from processors.sepa import SepaProcessor
from tests.processors.conftest import context, manifest_rows, row_id

ROWS = manifest_rows("accept_sepa", "pain008")


@pytest.mark.parametrize("row", ROWS, ids=row_id)
def test_sepa_corpus_is_a_payment_file(row: dict[str, Any], corpus: Path) -> None:
    data = (corpus / row["file"]).read_bytes()
    processor = SepaProcessor()
    assert processor.score(FileKind.XML, data[:4096], context()) > 0
    outcome = processor.process(data, context())
    assert outcome.result_type is ResultType.PAYMENT_FILE
    payment_file = outcome.data
    assert payment_file["kind"] == (
        "direct_debit" if row["expected"] == "pain008" else "credit_transfer"
    )
    assert payment_file["messageType"] == row["category"].removeprefix("sepa:")
    assert payment_file["messageId"]
    assert payment_file["numberOfTransactions"] == len(payment_file["payments"]) > 0
    for payment in payment_file["payments"]:
        assert payment["amount"] and payment["iban"] and payment["endToEndId"]


@pytest.mark.parametrize(
    "document_type", [DocumentType.SUPPLIER_INVOICE, DocumentType.CUSTOMER_INVOICE]
)
def test_sent_as_invoice_becomes_other_document(document_type: DocumentType) -> None:
    outcome = SepaProcessor().process(_pain001(), context(document_type))
    assert outcome.result_type is ResultType.OTHER_DOCUMENT
    assert outcome.data["paymentFile"]["numberOfTransactions"] == 1


def test_not_taken_as_other_document_or_bank_statement() -> None:
    for document_type in (DocumentType.OTHER_DOCUMENT, DocumentType.BANK_STATEMENT):
        assert SepaProcessor().score(FileKind.XML, _pain001(), context(document_type)) == 0


def test_control_sum_mismatch_is_refused() -> None:
    with pytest.raises(ProcessingError, match="control sum") as caught:
        SepaProcessor().process(_pain001(control_sum="99.00"), context())
    assert caught.value.code is FailureCode.UNREADABLE_DOCUMENT


def test_transaction_count_mismatch_is_refused() -> None:
    with pytest.raises(ProcessingError, match="transactions"):
        SepaProcessor().process(_pain001(count="2"), context())


def test_fields_are_read() -> None:
    payment = SepaProcessor().process(_pain001(), context()).data["payments"][0]
    assert payment == {
        "paymentInfoId": "P1",
        "requestedDate": "2024-01-02",
        "endToEndId": "E2E-1",
        "amount": "12.50",
        "currency": "EUR",
        "name": "Supplier AG",
        "iban": "DE02120300000000202051",
        "bic": "BYLADEM1001",
        "remittanceInformation": "Invoice 42",
        "mandateId": None,
        "ownName": "Us GmbH",
        "ownIban": "DE89370400440532013000",
    }


def _pain001(control_sum: str = "12.50", count: str = "1") -> bytes:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03"><CstmrCdtTrfInitn>
<GrpHdr><MsgId>M1</MsgId><CreDtTm>2024-01-01T10:00:00</CreDtTm><NbOfTxs>{count}</NbOfTxs>
<CtrlSum>{control_sum}</CtrlSum><InitgPty><Nm>Us GmbH</Nm></InitgPty></GrpHdr>
<PmtInf><PmtInfId>P1</PmtInfId><PmtMtd>TRF</PmtMtd><ReqdExctnDt>2024-01-02</ReqdExctnDt>
<Dbtr><Nm>Us GmbH</Nm></Dbtr><DbtrAcct><Id><IBAN>DE89370400440532013000</IBAN></Id></DbtrAcct>
<DbtrAgt><FinInstnId><BIC>COBADEFFXXX</BIC></FinInstnId></DbtrAgt>
<CdtTrfTxInf><PmtId><EndToEndId>E2E-1</EndToEndId></PmtId>
<Amt><InstdAmt Ccy="EUR">12.50</InstdAmt></Amt>
<CdtrAgt><FinInstnId><BIC>BYLADEM1001</BIC></FinInstnId></CdtrAgt><Cdtr><Nm>Supplier AG</Nm></Cdtr>
<CdtrAcct><Id><IBAN>DE02120300000000202051</IBAN></Id></CdtrAcct>
<RmtInf><Ustrd>Invoice 42</Ustrd></RmtInf></CdtTrfTxInf></PmtInf>
</CstmrCdtTrfInitn></Document>""".encode()

"""Payments matched to invoices end to end (issue 42, part 4): a supplier invoice and a
bank statement go in through the /v1 API and the pipeline's own steps; confirming the
transaction proposes the invoice, shown on both pages and in the results API; the
accountant accepts it and the invoice reads "paid on ... (statement ..., line ...)".
The same API answer carries the invoice's bank account warnings (part 3)."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import date
from typing import Any

from fastapi.testclient import TestClient

from api.deps import Services
from storage.db import Database
from storage.repositories import payment_matches
from testkit.generated_docs import (
    SAMPLE_INVOICE,
    SAMPLE_STATEMENT,
    Booking,
    german_invoice,
    german_statement,
)
from tests.web.results_helpers import result_id, send_and_read
from tests.web.support import Account, session_csrf
from tests.web.test_page_audit import audit


def _send(
    client: TestClient, account: Account, services: Services, name: str, data: bytes, kind: str
) -> uuid.UUID:
    body: dict[str, Any] = send_and_read(
        client, account.headers, services, name, data, documentType=kind
    )
    return result_id(body)


def test_a_confirmed_payment_is_proposed_accepted_and_shown_as_paid(
    web_client: TestClient, account: Account, services: Services, database: Database
) -> None:
    invoice_pdf = german_invoice(replace(SAMPLE_INVOICE, seller_vat_id="DE136695976"))
    booking = Booking(
        date(2024, 3, 20),
        date(2024, 3, 20),
        -SAMPLE_INVOICE.gross,
        "Beispiel Handel GmbH",
        ("Rechnung RE-2024-O815",),
    )
    statement_pdf = german_statement(
        replace(
            SAMPLE_STATEMENT, bookings=(booking,), start=date(2024, 3, 1), end=date(2024, 3, 31)
        )
    )
    invoice = _send(web_client, account, services, "inv.pdf", invoice_pdf, "supplier_invoice")
    statement = _send(web_client, account, services, "st.pdf", statement_pdf, "bank_statement")
    assert "open" in web_client.get(f"/app/invoices/{invoice}").text

    csrf = session_csrf(web_client, database)
    confirmed = web_client.post(
        f"/app/bank-imports/{statement}/confirm", data={"one": "0", "csrf_token": csrf}
    )
    assert confirmed.status_code == 200
    assert (
        "RE-2024-0815" in confirmed.text and 'formaction="/app/payment-matches/' in confirmed.text
    )
    assert audit(confirmed.text, csrf) == []

    with database.read_session() as session:
        (ref,) = payment_matches.matches_of_invoice(session, invoice)
    page = web_client.get(f"/app/invoices/{invoice}")
    assert "Proposed payments" in page.text and "invoice number in the reference" in page.text
    assert audit(page.text, csrf) == []
    api = web_client.get(f"/v1/results/{invoice}", headers=account.headers).json()
    assert api["paymentMatches"][0]["status"] == "proposed"
    assert api["paymentMatches"][0]["statementId"] == str(statement)
    assert api["accountWarnings"] == []

    accepted = web_client.post(
        f"/app/payment-matches/{ref.row.id}",
        data={"decision": "accepted", "csrf_token": csrf},
        follow_redirects=False,
    )
    assert accepted.status_code == 303
    shown = web_client.get(f"/app/invoices/{invoice}").text
    assert "paid on" in shown
    assert f"statement {SAMPLE_STATEMENT.number}, line 1" in shown
    listed = web_client.get("/v1/results?type=bank_statement", headers=account.headers).json()
    (item,) = [i for i in listed["items"] if i["id"] == str(statement)]
    assert item["result"]["paymentMatches"][0]["status"] == "accepted"
    assert "Mandatory items (§14 UStG)" in shown and "§14 Abs. 4 Satz 1 Nr. 6 UStG" in shown
    assert "Date of supply or service, or the period" in shown
    data = {"language": "de", "next": f"/app/invoices/{invoice}", "csrf_token": csrf}
    german = web_client.post("/app/language", data=data).text
    assert "Pflichtangaben (§14 UStG)" in german and "bezahlt am" in german
    assert "Zeitpunkt der Lieferung oder Leistung bzw. Leistungszeitraum" in german
    assert f"Kontoauszug {SAMPLE_STATEMENT.number}, Zeile 1" in german
    assert audit(german, csrf) == []


def test_another_companys_match_is_not_found(
    web_client: TestClient, account: Account, database: Database
) -> None:
    csrf = session_csrf(web_client, database)
    answer = web_client.post(
        f"/app/payment-matches/{uuid.uuid4()}", data={"decision": "accepted", "csrf_token": csrf}
    )
    assert answer.status_code == 404

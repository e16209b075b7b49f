"""The online VAT id confirmation on the invoice page, in English and German, and in the
result's JSON (issue 42, part 2): answered by the local eVatR stand-in
(tests/support/vat_services.py), kept as proof, shown with its comparison."""

from __future__ import annotations

import uuid

from fastapi.testclient import TestClient

from flows import vat_confirm
from processors.base import CompanyProfile, DocumentType, ProcessingContext
from processors.pipeline import read_document
from storage.db import Database
from storage.repositories import results as result_repo
from storage.repositories import users
from storage.settings import Settings
from testkit.generated_docs import SAMPLE_INVOICE, german_invoice
from tests.support.vat_services import vat_services
from tests.web.support import Account, section_of


def _booked_foreign_invoice(database: Database, account: Account) -> uuid.UUID:
    context = ProcessingContext(
        DocumentType.SUPPLIER_INVOICE, "upload", CompanyProfile(name="Kunde Digital KG")
    )
    data = read_document(german_invoice(SAMPLE_INVOICE), context).data
    # the reader takes the seller's details as printed; an Austrian supplier's are set here
    data["invoice"]["seller"] |= {
        "vatId": "ATU13585627",
        "address": {"lines": ["Am Graben 2"], "city": "Wien", "postalCode": "1010"},
    }
    with database.session() as session:
        result = result_repo.book_result(session, account.company_id, "ab" * 32, "invoice", data)
        session.commit()
        return result.id


def test_the_confirmation_is_shown_in_both_languages_and_carried_in_the_json(
    web_client: TestClient, account: Account, database: Database, settings: Settings
) -> None:
    result_id = _booked_foreign_invoice(database, account)
    with vat_services() as server:
        configured = settings.model_copy(
            update={
                "vat_confirm_service": "evatr",
                "vat_confirm_endpoint": server.evatr,
                "vat_confirm_own_vat_id": "DE136695976",
            }
        )
        assert vat_confirm.confirm_result(database, configured, result_id) == 1

    page = web_client.get(f"/app/invoices/{result_id}")
    assert page.status_code == 200
    shown = section_of(page.text, "vat-confirmations")
    assert "VAT ids confirmed online" in shown and "ATU13585627" in shown
    assert "BZSt eVatR (qualified)" in shown and "evatr-0000" in shown
    assert "request evatr-req-0001" in shown and 'data-confirmed="valid"' in shown
    # the generated invoice's name and address are not the registered ones
    assert "does not match" in shown

    with database.session() as session:
        users.set_language(session, account.user_id, "de")
        session.commit()
    german = section_of(web_client.get(f"/app/invoices/{result_id}").text, "vat-confirmations")
    assert "Online bestätigte USt-IdNr." in german and "Anfrage evatr-req-0001" in german
    assert "stimmt nicht" in german and "BZSt eVatR (qualifiziert)" in german

    answered = web_client.get(f"/v1/results/{result_id}", headers=account.headers).json()
    (proof,) = answered["vatConfirmations"]
    assert (proof["party"], proof["service"], proof["confirmed"]) == ("seller", "evatr", "valid")
    assert proof["status"] == "evatr-0000" and proof["requestId"] == "evatr-req-0001"
    assert proof["answeredAt"].endswith("Z") and proof["cached"] is False
    assert set(proof["matches"]) == {"name", "city", "postalCode", "street"}

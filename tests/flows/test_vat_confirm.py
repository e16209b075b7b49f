"""The online confirmation of foreign VAT ids (issue 42, part 2): the real client against
a local server of the eVatR and VIES interfaces (tests/support/vat_services.py), one
recorded answer per result code; the proof kept with the result; the cache."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from flows import vat_confirm
from flows.vat_confirm_http import ask
from processors.vat_confirmation import Confirmed, VatQuery, VatService
from storage.db import Database
from storage.repositories import results as result_repo
from storage.repositories import vat_confirmations
from storage.settings import Settings
from tests.conftest import Tenant
from tests.support.vat_services import ANSWERED_AT, vat_services

OWN = "DE136695976"
ALPEN = VatQuery("ATU 1358 5627", "Alpen Handel GmbH", "Wien", "1010", "Ring 1")


@pytest.mark.parametrize(
    ("vat_id", "status", "confirmed"),
    [
        ("ATU13585627", "evatr-0000", Confirmed.VALID),
        ("FR40303265045", "evatr-2001", Confirmed.INVALID),  # not issued (HTTP 404)
        ("IE6388047V", "evatr-2002", Confirmed.INVALID),  # valid only from gueltigAb
        ("BE0411905847", "evatr-2006", Confirmed.INVALID),  # was valid gueltigAb..gueltigBis
        ("DK13585628", "evatr-0011", Confirmed.UNANSWERED),  # not now (HTTP 503)
        ("ESX2482300W", "evatr-2008", Confirmed.VALID),  # valid, qualified part special
        ("PL8567346215", "evatr-2007", Confirmed.UNANSWERED),  # member state's data failed
        ("DE136695976", "evatr-0006", Confirmed.UNANSWERED),  # a German id may not be asked
    ],
)
def test_evatr_each_result_code_is_read(vat_id: str, status: str, confirmed: Confirmed) -> None:
    with vat_services() as server:
        answer = ask(VatService.EVATR, server.evatr, OWN, VatQuery(vat_id, "X", "Y"), 5)
    assert (answer.status, answer.confirmed) == (status, confirmed)
    assert answer.request_id is not None and answer.requested_at == ANSWERED_AT


def test_evatr_qualified_compares_name_place_postcode_street() -> None:
    with vat_services() as server:
        answer = ask(VatService.EVATR, server.evatr, OWN, ALPEN, 5)
        (path, sent), *_ = server.requests
    assert path == "/app/v1/abfrage"
    assert sent == {
        "anfragendeUstid": OWN,
        "angefragteUstid": "ATU13585627",
        "firmenname": "Alpen Handel GmbH",
        "ort": "Wien",
        "plz": "1010",
        "strasse": "Ring 1",
    }
    assert answer.confirmed is Confirmed.VALID and answer.status == "evatr-0000"
    # the street as printed differs from the registered one: B
    assert answer.matches == {"name": "A", "city": "A", "postalCode": "A", "street": "B"}
    json = answer.as_json()
    assert json["requestId"] == "evatr-req-0001" and json["requestedAt"] == ANSWERED_AT


def test_evatr_without_name_and_place_is_a_simple_confirmation_and_own_id_checked() -> None:
    with vat_services() as server:
        simple = ask(VatService.EVATR, server.evatr, OWN, VatQuery("ATU13585627"), 5)
        not_german = ask(VatService.EVATR, server.evatr, "ATU13585627", ALPEN, 5)
    assert (simple.status, simple.confirmed, simple.matches) == ("evatr-0003", Confirmed.VALID, {})
    assert (not_german.status, not_german.confirmed) == ("evatr-0004", Confirmed.UNANSWERED)


def test_vies_answers_valid_invalid_and_unavailable() -> None:
    with vat_services() as server:
        valid = ask(VatService.VIES, server.vies, OWN, ALPEN, 5)
        invalid = ask(VatService.VIES, server.vies, OWN, VatQuery("FR40303265045", "F"), 5)
        down = ask(VatService.VIES, server.vies, OWN, VatQuery("PL8567346215"), 5)
        (_, sent), *_ = server.requests
    assert sent["countryCode"] == "AT" and sent["vatNumber"] == "U13585627"
    assert sent["requesterMemberStateCode"] == "DE" and sent["requesterNumber"] == "136695976"
    assert valid.confirmed is Confirmed.VALID and valid.request_id == "WAPIAAAA00000001"
    assert valid.matches == {"name": "A", "city": "A", "postalCode": "A", "street": "B"}
    assert invalid.confirmed is Confirmed.INVALID and invalid.matches == {}
    assert (down.confirmed, down.status) == (Confirmed.UNANSWERED, "MS_UNAVAILABLE")


def test_no_service_listening_is_unanswered_not_an_error() -> None:
    with vat_services() as server:
        gone = server.evatr
    answer = ask(VatService.EVATR, gone, OWN, ALPEN, 2)
    assert answer.confirmed is Confirmed.UNANSWERED and answer.status.startswith("no answer")


def _invoice(seller_vat_id: str) -> dict[str, Any]:
    seller = {
        "name": "Alpen Handel GmbH",
        "vatId": seller_vat_id,
        "address": {"lines": ["Ringstrasse 1"], "city": "Wien", "postalCode": "1010"},
    }
    return {"invoice": {"seller": seller, "buyer": {"name": "Acme GmbH", "vatId": "DE123456789"}}}


def _book(database: Database, tenant: Tenant, data: dict[str, Any]) -> uuid.UUID:
    with database.session() as session:
        result = result_repo.book_result(
            session, tenant.company_id, uuid.uuid4().hex * 2, "invoice", data
        )
        session.commit()
        return result.id


def _configured(settings: Settings, endpoint: str, **more: Any) -> Settings:
    update = {"vat_confirm_service": "evatr", "vat_confirm_endpoint": endpoint}
    update |= {"vat_confirm_own_vat_id": OWN} | more
    return settings.model_copy(update=update)


def test_off_by_default_asks_nothing(
    database: Database, tenant: Tenant, settings: Settings
) -> None:
    assert settings.vat_confirm_service == "off"
    result_id = _book(database, tenant, _invoice("ATU13585627"))
    assert vat_confirm.confirm_result(database, settings, result_id) == 0


def test_the_answer_is_kept_with_the_result_and_the_same_question_is_cached(
    database: Database, tenant: Tenant, settings: Settings
) -> None:
    with vat_services() as server:
        configured = _configured(settings, server.evatr)
        first = _book(database, tenant, _invoice("ATU13585627"))
        second = _book(database, tenant, _invoice("ATU 135 856 27"))
        assert vat_confirm.confirm_result(database, configured, first) == 1
        assert vat_confirm.confirm_result(database, configured, second) == 1
        assert len(server.requests) == 1  # the buyer's German id is not asked; cached
        uncached = configured.model_copy(update={"vat_confirm_cache_hours": 0})
        vat_confirm.confirm_result(database, uncached, second)
        assert len(server.requests) == 2
    with database.read_session() as session:
        (proof,) = vat_confirmations.confirmations_of(session, first)
        cached, fresh = sorted(
            vat_confirmations.confirmations_of(session, second), key=lambda c: c["cached"]
        )[::-1]
    assert proof["party"] == "seller" and proof["status"] == "evatr-0000"
    assert proof["requestId"] == "evatr-req-0001" and proof["requestedAt"] == ANSWERED_AT
    assert proof["matches"] == {"name": "A", "city": "A", "postalCode": "A", "street": "A"}
    assert cached["cached"] and cached["requestId"] == "evatr-req-0001"
    assert not fresh["cached"] and fresh["requestId"] == "evatr-req-0002"


def test_an_unanswered_question_is_kept_but_asked_again(
    database: Database, tenant: Tenant, settings: Settings
) -> None:
    with vat_services() as server:
        configured = _configured(settings, server.evatr)
        for _ in range(2):
            result_id = _book(database, tenant, _invoice("DK13585628"))
            vat_confirm.confirm_result(database, configured, result_id)
        assert len(server.requests) == 2
    with database.read_session() as session:
        (kept,) = vat_confirmations.confirmations_of(session, result_id)
    assert kept["confirmed"] == "unanswered" and kept["status"] == "evatr-0011"


def test_invalid_offline_or_german_ids_are_not_asked(
    database: Database, tenant: Tenant, settings: Settings
) -> None:
    with vat_services() as server:
        configured = _configured(settings, server.evatr)
        for vat_id in ("ATU13585626", "DE136695976", "CHE-123.456.788"):
            result_id = _book(database, tenant, _invoice(vat_id))
            assert vat_confirm.confirm_result(database, configured, result_id) == 0
        assert server.requests == []


def test_trouble_never_fails_the_document(
    database: Database, tenant: Tenant, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker's hook (flows/work.py) logs whatever goes wrong and carries on."""

    def broken(*_: object) -> int:
        raise RuntimeError("database gone")

    monkeypatch.setattr(vat_confirm, "confirm_result", broken)
    result_id = _book(database, tenant, _invoice("ATU13585627"))
    vat_confirm.confirm_quietly(database, _configured(settings, "http://127.0.0.1:9"), result_id)

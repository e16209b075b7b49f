"""Small but visible (issue 43, parts 6 and 8): times in the company's time zone, sizes
people read, settings in users' words with VAT ids checked, the direction warning only
when it matters, and "not recognised" apart from "not on the invoice"."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from fastapi.testclient import TestClient
from lxml import html

from api.web.formats import format_date, format_datetime, format_size
from api.web.time_zones import known_time_zone, time_zone_names
from processors.base import DocumentType, FileKind
from processors.invoice_model import DirectionDecision, Invoice, InvoiceType, Party, Totals
from processors.results.evidence import Confidence
from processors.results.invoice import InvoiceChecks, InvoiceResult, TotalsCheck
from processors.results.source import ReadMethod, Source
from storage.db import Database
from storage.models import Company, Result, Upload
from storage.repositories import companies, users
from tests.web.support import Account, seed_upload, session_csrf
from tests.web.test_inbox import listed

SETTINGS_FORM = {
    "name": "Acme GmbH",
    "vat_ids": "DE136695976",
    "tax_number": "",
    "ibans": "",
    "locale": "en",
}
# 22:30 UTC on 1 July is already 2 July in Berlin (summer time, UTC+2).
LATE_EVENING = datetime(2015, 7, 1, 22, 30, tzinfo=UTC)


def _text(page: str) -> str:
    tree: Any = html.fromstring(page)
    return " ".join(tree.xpath("string(//body)").split())


def _company(database: Database, account: Account) -> Company:
    with database.read_session() as session:
        company = companies.get_company(session, account.company_id)
        assert company is not None
        return company


def _save_settings(client: TestClient, database: Database, **fields: str) -> Any:
    form = {**SETTINGS_FORM, **fields, "csrf_token": session_csrf(client, database)}
    return client.post("/app/settings", data=form, follow_redirects=False)


# --- time zone -------------------------------------------------------------------------


def test_times_are_formatted_in_the_zone_summer_and_winter() -> None:
    berlin = ZoneInfo("Europe/Berlin")
    assert format_datetime(LATE_EVENING, "de", berlin) == "02.07.2015 00:30"
    assert format_datetime(datetime(2015, 1, 9, 8, 5, tzinfo=UTC), "en", berlin) == (
        "2015-01-09 09:05"
    )
    assert format_datetime("2015-07-01T22:30:00Z", "en", berlin) == "2015-07-02 00:30"
    assert format_datetime(LATE_EVENING, "en") == "2015-07-01 22:30"  # UTC without a zone
    assert format_date(LATE_EVENING, "de", berlin) == "02.07.2015"


def test_the_zones_offered_are_region_names() -> None:
    names = time_zone_names()
    assert "Europe/Berlin" in names and "UTC" in names and "America/New_York" in names
    assert not any(name.startswith(("Etc/", "posix/")) for name in names)
    assert known_time_zone(" europe/berlin ") == "Europe/Berlin"
    assert known_time_zone("Mars/Olympus_Mons") is None


def test_every_page_shows_times_in_the_company_time_zone(
    web_client: TestClient, database: Database, account: Account
) -> None:
    upload = seed_upload(database, account.company_id, created_at=LATE_EVENING)
    assert _company(database, account).time_zone == "Europe/Berlin"  # the default
    inbox = web_client.get("/app/uploads").text
    assert "2015-07-02 00:30" in inbox and "2015-07-01 22:30" not in inbox
    assert "Times are shown in the time zone Europe/Berlin." in _text(inbox)
    assert "2015-07-02 00:30" in web_client.get(f"/app/uploads/{upload}").text

    assert _save_settings(web_client, database, time_zone="America/New_York").status_code == 303
    assert _company(database, account).time_zone == "America/New_York"
    assert "2015-07-01 18:30" in web_client.get("/app/uploads").text
    assert "2015-07-01 18:30" in web_client.get(f"/app/uploads/{upload}").text
    settings: Any = html.fromstring(web_client.get("/app/settings").text)
    assert settings.xpath('string(//select[@id="time_zone"]/option[@selected])') == (
        "America/New_York"
    )


def test_the_inbox_date_filter_takes_the_company_days(
    web_client: TestClient, database: Database, account: Account
) -> None:
    upload = seed_upload(database, account.company_id, created_at=LATE_EVENING)
    assert listed(web_client.get("/app/uploads?from=2015-07-02&to=2015-07-02").text) == [upload]
    assert listed(web_client.get("/app/uploads?from=2015-07-01&to=2015-07-01").text) == []
    _save_settings(web_client, database, time_zone="UTC")
    assert listed(web_client.get("/app/uploads?from=2015-07-01&to=2015-07-01").text) == [upload]


def test_an_unknown_time_zone_is_refused_by_name(
    web_client: TestClient, database: Database, account: Account
) -> None:
    response = _save_settings(web_client, database, time_zone="Mars/Olympus_Mons")
    assert response.status_code == 422
    assert "Not a time zone: Mars/Olympus_Mons." in _text(response.text)
    assert _company(database, account).time_zone == "Europe/Berlin"


# --- sizes -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "german", "english"),
    [
        (0, "0 Byte", "0 bytes"),
        (900, "900 Byte", "900 bytes"),
        (7_273, "7,1 KB", "7.1 KB"),
        (1_588_325, "1,5 MB", "1.5 MB"),
        (52_428_800, "50 MB", "50 MB"),
        (5 * 1024**3, "5,0 GB", "5.0 GB"),
    ],
)
def test_sizes_read_like_a_file_manager(size: int, german: str, english: str) -> None:
    assert (format_size(size, "de"), format_size(size, "en")) == (german, english)


def test_pages_show_sizes_in_megabytes_not_bytes(
    web_client: TestClient, database: Database, account: Account
) -> None:
    upload = seed_upload(database, account.company_id, size_bytes=1_588_325)
    page = _text(web_client.get(f"/app/uploads/{upload}").text)
    assert "1.5 MB" in page and "1,588,325" not in page and "bytes" not in page


# --- settings texts and VAT ids --------------------------------------------------------

DEVELOPER_WORDS = ("Worker", "cache", "prefix", "Authentication-Results", "dmarc=fail", "poll")


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("path", ["/app/settings", "/app/settings/api-keys", "/app/settings/email"])
def test_settings_speak_to_users_not_developers(
    web_client: TestClient, database: Database, account: Account, path: str, language: str
) -> None:
    with database.session() as session:
        users.set_language(session, account.user_id, language)
        session.commit()
    response = web_client.get(path)
    assert response.status_code == 200, path
    page = _text(response.text)
    for word in DEVELOPER_WORDS:
        assert word.casefold() not in page.casefold(), (path, language, word)


def test_the_master_data_hint_says_what_it_is_for_in_both_languages(
    web_client: TestClient, database: Database, account: Account
) -> None:
    english = _text(web_client.get("/app/settings").text)
    assert "sorted as incoming or outgoing" in english
    saved = _text(web_client.get("/app/settings?saved=1").text)
    assert "Documents read before keep their result." in saved
    with database.session() as session:
        users.set_language(session, account.user_id, "de")
        session.commit()
    german = _text(web_client.get("/app/settings").text)
    assert "als eingehend oder ausgehend eingeordnet" in german
    assert "Stammdaten 10 Sekunden" not in german and "Worker" not in german


@pytest.mark.parametrize("language", ["en", "de"])
def test_an_invalid_vat_id_is_refused_in_the_settings_naming_it(
    web_client: TestClient, database: Database, account: Account, language: str
) -> None:
    with database.session() as session:
        users.set_language(session, account.user_id, language)
        session.commit()
    response = _save_settings(web_client, database, vat_ids="DE136695976\nDE136695977")
    assert response.status_code == 422
    refusal = {
        "en": "Not a valid VAT ID (check digit): DE136695977",
        "de": "Keine gültige USt-IdNr. (Prüfziffer): DE136695977",
    }[language]
    assert refusal in _text(response.text)
    assert _company(database, account).vat_ids == ["DE123456789"]  # nothing saved


# --- the direction warning -------------------------------------------------------------


def _seed_invoice(
    database: Database, company_id: uuid.UUID, *, uncertain: bool, from_text: bool = False
) -> str:
    """An invoice result as the pipeline stores it; the buyer left empty."""
    invoice = Invoice(
        number="RE-77",
        invoice_type=InvoiceType.INVOICE,
        type_code="380",
        issue_date=date(2024, 3, 5),
        currency="EUR",
        seller=Party(name="Lieferant GmbH"),
        buyer=Party(),
        totals=Totals(gross=Decimal("119.00")),
    )
    reason = "neither party matches the company" if uncertain else "buyer matches the company"
    decision = DirectionDecision(DocumentType.SUPPLIER_INVOICE, uncertain, False, None, reason)
    checks = InvoiceChecks(TotalsCheck.INCOMPLETE, "", 0, Confidence.HIGH, False)
    source = Source(FileKind.PDF, method=ReadMethod.TEXT) if from_text else Source(FileKind.XML)
    result = InvoiceResult.of(invoice, decision, source, checks=checks if from_text else None)
    upload_id = seed_upload(database, company_id, status="completed", result_type="invoice")
    with database.session() as session:
        upload = session.get_one(Upload, upload_id)
        stored = session.get_one(Result, upload.result_id)
        stored.data = result.to_dict()
        session.commit()
        return f"/app/invoices/{stored.id}"


def _clear_master_data(database: Database, account: Account) -> None:
    with database.session() as session:
        companies.update_profile(
            session,
            account.company_id,
            name="Acme GmbH",
            vat_ids=[],
            tax_number=None,
            ibans=[],
            locale="de",
        )
        session.commit()


def _direction(page: str) -> Any:
    tree: Any = html.fromstring(page)
    return tree.xpath('//section[@aria-labelledby="direction"]')[0]


def test_with_master_data_an_uncertain_direction_is_warned_about(
    web_client: TestClient, database: Database, account: Account
) -> None:
    path = _seed_invoice(database, account.company_id, uncertain=True)
    page = web_client.get(path).text
    section = _direction(page)
    assert section.xpath('.//span[contains(@class, "flag-warn")]')  # "uncertain"
    assert section.xpath('.//p[@class="notice"]')
    assert "The direction is uncertain" in _text(page)  # the verdict's reason
    assert "master-data-missing" not in web_client.get("/app/uploads").text


def test_a_certain_direction_shows_no_warning(
    web_client: TestClient, database: Database, account: Account
) -> None:
    section = _direction(
        web_client.get(_seed_invoice(database, account.company_id, uncertain=False)).text
    )
    assert not section.xpath('.//p[@class="notice"]')
    assert not section.xpath('.//span[contains(@class, "flag-warn")]')


def test_without_master_data_one_inbox_notice_asks_for_it_instead(
    web_client: TestClient, database: Database, account: Account
) -> None:
    path = _seed_invoice(database, account.company_id, uncertain=True)
    _clear_master_data(database, account)
    inbox: Any = html.fromstring(web_client.get("/app/uploads").text)
    (notice,) = inbox.xpath('//p[contains(@class, "master-data-missing")]')
    assert "VAT ID, tax number or IBAN is not set" in notice.text_content()
    assert notice.xpath(".//a/@href") == ["/app/settings"]
    # The invoice does not warn: it only says that it was not checked.
    page = web_client.get(path).text
    section = _direction(page)
    assert not section.xpath('.//p[@class="notice"]')
    assert not section.xpath('.//span[contains(@class, "flag-warn")]')
    assert section.xpath('.//p[contains(@class, "direction-unchecked")]//a/@href') == [
        "/app/settings"
    ]
    assert "The direction is uncertain" not in _text(page)
    # Neither does its row in the inbox: the verdict is not "needs review" for it.
    verdict = inbox.xpath('string(//td[contains(@class, "glance-verdict")])').strip()
    assert verdict == "Valid"


# --- not on the invoice, or not recognised ----------------------------------------------


def test_an_e_invoice_without_a_buyer_says_it_is_not_on_the_invoice(
    web_client: TestClient, database: Database, account: Account
) -> None:
    path = _seed_invoice(database, account.company_id, uncertain=False)
    # The invoice page says it twice: in its parties and in the XML's preview sheet.
    pages = ((web_client.get(path).text, 2), (web_client.get(f"{path}/print").text, 1))
    for page, times in pages:
        tree: Any = html.fromstring(page)
        missing = [
            " ".join(p.text_content().split())
            for p in tree.xpath('//*[contains(@class, "party-missing")]')
        ]
        assert missing == ["Not stated on the invoice."] * times
    card: Any = html.fromstring(web_client.get(path).text)
    # No due date in the XML: the card says it is not on the invoice.
    assert (
        card.xpath('string(//section[@aria-labelledby="summary"]//span[@class="hint missing"])')
        == "not on the invoice"
    )


def test_a_pdf_whose_buyer_was_not_found_says_not_recognised(
    web_client: TestClient, database: Database, account: Account
) -> None:
    path = _seed_invoice(database, account.company_id, uncertain=False, from_text=True)
    for page in (web_client.get(path).text, web_client.get(f"{path}/print").text):
        tree: Any = html.fromstring(page)
        missing = [
            " ".join(p.text_content().split())
            for p in tree.xpath('//*[contains(@class, "party-missing")]')
        ]
        assert missing == ["Not recognised in the PDF: check the page."]
        assert "Not stated on the invoice." not in page
    card: Any = html.fromstring(web_client.get(path).text)
    assert (
        card.xpath('string(//section[@aria-labelledby="summary"]//span[@class="hint missing"])')
        == "not recognised"
    )

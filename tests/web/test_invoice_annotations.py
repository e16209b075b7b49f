"""Notes on an invoice in the web application (issue 43), through the real app in both
languages: an e-invoice read by the real pipeline takes notes, the page lists them with
who and when (in the company's time zone), the XML stays byte for byte what was sent,
and the results API carries them. Empty and too long notes are refused; another
company's invoice is not found."""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo

import pytest
from fastapi.testclient import TestClient
from lxml import html
from sqlalchemy import select

from api.deps import Services
from api.web.formats import format_datetime
from storage.approval_models import InvoiceAnnotationRow
from storage.db import Database
from storage.models import Company, Result, User
from tests.web.evidence_support import seed_invoice_with_evidence
from tests.web.results_helpers import e_invoice, result_id, send_and_read
from tests.web.support import Account, session_csrf

ZONE = "Asia/Tokyo"  # not the default: the page must use the company's zone
WORDS = {
    "en": ("Annotations", "Add a note", "by"),
    "de": ("Anmerkungen", "Anmerkung hinzufügen", "von"),
}
REFUSALS = {
    "en": ("A note needs text.", "A note has at most 2,000 characters."),
    "de": ("Eine Anmerkung braucht Text.", "Eine Anmerkung hat höchstens 2.000 Zeichen."),
}


def _speak(database: Database, account: Account, language: str) -> None:
    with database.session() as session:
        session.get_one(User, account.user_id).language = language
        session.get_one(Company, account.company_id).time_zone = ZONE
        session.commit()


def _section(client: TestClient, path: str) -> Any:
    found = html.fromstring(client.get(path).text).xpath('//section[@class="annotations"]')
    assert isinstance(found, list) and len(found) == 1
    return found[0]


def _annotate(client: TestClient, database: Database, path: str, text: str) -> Any:
    data = {"csrf_token": session_csrf(client, database), "text": text}
    return client.post(f"{path}/annotations", data=data, follow_redirects=False)


def _notes(database: Database) -> list[InvoiceAnnotationRow]:
    with database.read_session() as session:
        statement = select(InvoiceAnnotationRow).order_by(InvoiceAnnotationRow.at)
        return list(session.scalars(statement))


@pytest.mark.parametrize("language", ["en", "de"])
def test_an_e_invoice_takes_notes_with_a_trail_and_its_xml_stays(
    web_client: TestClient, account: Account, services: Services, database: Database, language: str
) -> None:
    name, content = e_invoice()
    key = result_id(send_and_read(web_client, account.headers, services, name, content))
    path = f"/app/invoices/{key}"
    with database.read_session() as session:
        extracted = session.get_one(Result, key)
        data, sequence = extracted.data, extracted.change_seq
    _speak(database, account, language)
    heading, button, by = WORDS[language]
    section = _section(web_client, path)
    assert section.xpath("string(./h2)") == heading
    assert section.xpath("string(.//form//button)") == button

    answer = _annotate(web_client, database, path, "  Skonto mit Lieferant vereinbart.\r\n2 %  ")
    assert answer.status_code == 303 and answer.headers["location"] == f"{path}#annotations"
    assert _annotate(web_client, database, path, "Zweite Notiz").status_code == 303

    first, second = _notes(database)
    assert first.text == "Skonto mit Lieferant vereinbart.\n2 %"  # trimmed, line ends kept
    items = _section(web_client, path).xpath(".//ul/li")
    assert [li.xpath("string(./p[2])") for li in items] == [second.text, first.text]
    when = format_datetime(first.at, language, ZoneInfo(ZONE))
    assert items[1].xpath("string(./p[1])").strip() == f"{when} {by} {account.email}"

    # The original is what was sent, byte for byte, on the page's and the API's download.
    assert web_client.get(f"/app/results/{key}/original").content == content
    api_original = web_client.get(f"/v1/results/{key}/original", headers=account.headers)
    assert api_original.content == content
    body = web_client.get(f"/v1/results/{key}", headers=account.headers).json()
    assert [a["text"] for a in body["annotations"]] == [first.text, second.text]  # oldest first
    assert body["annotations"][0]["by"] == account.email
    assert body["annotations"][0]["at"].endswith("Z") and body["corrections"] == []
    assert body["changeSequence"] > sequence  # a change a client paging the listing sees
    with database.read_session() as session:
        assert session.get_one(Result, key).data == data  # what was read stays


@pytest.mark.parametrize("language", ["en", "de"])
def test_an_empty_or_too_long_note_is_refused(
    web_client: TestClient,
    account: Account,
    services: Services,
    database: Database,
    language: str,
) -> None:
    key = seed_invoice_with_evidence(database, services.store, account.company_id, False)
    path = f"/app/invoices/{key}"  # a PDF invoice takes notes too
    _speak(database, account, language)
    empty, too_long = REFUSALS[language]
    for text, message in [(" \r\n\t ", empty), ("\x00", empty), ("x" * 2_001, too_long)]:
        answer = _annotate(web_client, database, path, text)
        assert answer.status_code == 400 and message in answer.text
    forged = web_client.post(f"{path}/annotations", data={"text": "no token"})
    assert forged.status_code == 403
    assert not _notes(database)
    assert _annotate(web_client, database, path, "ä" * 2_000).status_code == 303
    assert [len(note.text) for note in _notes(database)] == [2_000]


def test_another_companys_invoice_is_not_found(
    web_client: TestClient, services: Services, database: Database, other_account: Account
) -> None:
    theirs = seed_invoice_with_evidence(database, services.store, other_account.company_id)
    answer = _annotate(web_client, database, f"/app/invoices/{theirs}", "mine now")
    assert answer.status_code == 404
    assert _annotate(web_client, database, "/app/invoices/not-an-id", "x").status_code == 404
    assert not _notes(database)

"""Failures an accountant can act on (issue 43): every failure code has the catalogue's
explanation and next step, in the page's language only (the processor's English
behind a toggle); a failed upload can be downloaded and deleted."""

from __future__ import annotations

import uuid
from typing import cast

import pytest
from fastapi.testclient import TestClient
from lxml import html

from api.deps import Services
from api.web.i18n import translate, translations
from api.web.processor_texts import (
    BATCH_FAILURE_TEXTS,
    FAILURE_TEXTS,
    direction_reason,
    schema_summary,
    totals_explained,
    xml_position,
)
from flows.unpack import DMARC_FAILED
from processors.archive import ArchiveProblem
from processors.base import FailureCode
from storage.db import Database
from storage.models import Batch, Upload
from storage.repositories import users
from tests.web.language_words import (
    ALLOWED,
    ENGLISH_WORDS,
    GERMAN_WORDS,
    PROCESSOR_MESSAGE,
    elements,
    visible_text,
    words,
)
from tests.web.support import Account, csrf_in, seed_batch, seed_upload


def _set_language(database: Database, account: Account, language: str) -> None:
    with database.session() as session:
        users.set_language(session, account.user_id, language)
        session.commit()


def test_every_failure_code_has_an_explanation_and_a_next_step_in_german() -> None:
    assert set(FAILURE_TEXTS) == set(FailureCode)
    for text in FAILURE_TEXTS.values():
        for part in (text.title, text.explanation, text.next_step):
            assert translate("de", part) != part, part


@pytest.mark.parametrize(
    ("language", "foreign"), [("de", ENGLISH_WORDS), ("en", GERMAN_WORDS)], ids=["de", "en"]
)
@pytest.mark.parametrize("code", list(FailureCode))
def test_the_failed_upload_page_speaks_only_the_pages_language(
    web_client: TestClient,
    database: Database,
    account: Account,
    code: FailureCode,
    language: str,
    foreign: set[str],
) -> None:
    _set_language(database, account, language)
    upload_id = seed_upload(
        database,
        account.company_id,
        status="failed",
        file_name="rechnung.pdf",
        error_code=code.value,
        error_message=PROCESSOR_MESSAGE,
    )
    page = web_client.get(f"/app/uploads/{upload_id}").text
    shown = visible_text(page)
    leaked = (words(shown) & foreign) - ALLOWED
    assert not leaked, f"{code} in {language}: {sorted(leaked)}"
    heading = " ".join(
        elements(html.fromstring(page), '//h2[@id="error"]')[0].text_content().split()
    )
    assert code.value not in heading
    assert translate(language, FAILURE_TEXTS[code].title) in heading
    assert translate(language, FAILURE_TEXTS[code].next_step) in shown
    # The processor's words and the code are still there, behind the toggle.
    assert PROCESSOR_MESSAGE in page and f"<code>{code.value}</code>" in page

    inbox = web_client.get("/app/uploads").text
    inbox_text = visible_text(inbox)
    assert PROCESSOR_MESSAGE not in inbox
    assert translate(language, FAILURE_TEXTS[code].title) in inbox_text


def test_processor_reasons_and_checks_are_translated() -> None:
    def de(text: object) -> str:
        assert text is not None and not isinstance(text, bool)
        return translate("de", text)  # type: ignore[arg-type]

    assert de(direction_reason("neither party matches the company")) == (
        "keine Partei stimmt mit dem Unternehmen überein"
    )
    assert de(
        direction_reason("requested by client; parties: buyer matches the company by name")
    ) == (
        "beim Hochladen gewählt; die Parteien: "
        "der Käufer stimmt nach Name mit dem Unternehmen überein"
    )
    assert de(direction_reason("seller matches the company by identifier")) == (
        "der Verkäufer stimmt nach USt-IdNr., Steuernummer oder IBAN mit dem Unternehmen überein"
    )
    assert de(totals_explained("net + VAT = gross; gross - prepaid = amount due")) == (
        "Netto + USt = Brutto; Brutto - Vorauszahlung = Zahlbetrag"
    )
    assert de(schema_summary("passed")) == "bestanden"
    assert de(xml_position("line 89, column 0")) == "Zeile 89, Spalte 0"
    # Words outside the processors' grammars stay as they are, never an error.
    assert direction_reason("something new") == "something new"
    assert xml_position("/Invoice[1]") == "/Invoice[1]"


def test_finding_counts_have_german_plurals() -> None:
    german = translations("de")
    assert german.ngettext("%(num)s warning", "%(num)s warnings", 2) == "%(num)s Warnungen"
    assert german.ngettext("%(num)s warning", "%(num)s warnings", 1) == "%(num)s Warnung"


# --- download and delete ---------------------------------------------------------------


def _failed_upload_with_file(services: Services, account: Account, content: bytes) -> uuid.UUID:
    upload_id = seed_upload(
        services.db,
        account.company_id,
        status="failed",
        file_name="Rechnung März.pdf",
        error_code=FailureCode.PASSWORD_PROTECTED.value,
        error_message="The PDF is password-protected.",
    )
    writer = services.store.open_writer(f"uploads/{upload_id}")
    writer.write(content)
    writer.commit()
    return upload_id


def test_a_failed_upload_can_be_downloaded(
    web_client: TestClient, services: Services, account: Account, other_account: Account
) -> None:
    content = b"%PDF-1.7\n% encrypted, as the sender sent it\n%%EOF\n"
    upload_id = _failed_upload_with_file(services, account, content)
    page = html.fromstring(web_client.get(f"/app/uploads/{upload_id}").text)
    link = cast(list[str], page.xpath('//section[@aria-labelledby="error"]//a[@download]/@href'))
    assert link == [f"/app/uploads/{upload_id}/original"]

    got = web_client.get(link[0])
    assert got.status_code == 200 and got.content == content
    assert got.headers["content-type"] == "application/pdf"
    assert "filename*=UTF-8''Rechnung%20M%C3%A4rz.pdf" in got.headers["content-disposition"]

    theirs = seed_upload(services.db, other_account.company_id, status="failed")
    assert web_client.get(f"/app/uploads/{theirs}/original").status_code == 404
    gone = seed_upload(services.db, account.company_id, status="failed")  # bytes not stored
    assert web_client.get(f"/app/uploads/{gone}/original").status_code == 404


def test_a_failed_upload_can_be_deleted_with_the_forms_token(
    web_client: TestClient, services: Services, account: Account, other_account: Account
) -> None:
    upload_id = _failed_upload_with_file(services, account, b"%PDF-1.7\n%%EOF\n")
    page = web_client.get(f"/app/uploads/{upload_id}").text
    form = elements(html.fromstring(page), f'//form[@action="/app/uploads/{upload_id}/delete"]')
    assert form and form[0].get("method") == "post"
    url = f"/app/uploads/{upload_id}/delete"

    forged = web_client.post(url, data={"csrf_token": "forged"}, follow_redirects=False)
    assert forged.status_code == 403
    deleted = web_client.post(url, data={"csrf_token": csrf_in(page)}, follow_redirects=False)
    assert deleted.status_code == 303 and deleted.headers["location"] == f"/app/uploads/{upload_id}"
    with services.db.read_session() as session:
        upload = session.get(Upload, upload_id)
        assert upload is not None
        assert upload.status == "deleted" and upload.error_code is None
        # The bytes stay until the retention period ends (storage/retention.py).
        assert upload.object_key is not None
    after = web_client.get(f"/app/uploads/{upload_id}").text
    assert not elements(html.fromstring(after), '//form[contains(@action, "/delete")]')

    again = web_client.post(url, data={"csrf_token": csrf_in(page)}, follow_redirects=False)
    assert again.status_code == 409  # only failed uploads
    theirs = seed_upload(services.db, other_account.company_id, status="failed")
    other = web_client.post(
        f"/app/uploads/{theirs}/delete", data={"csrf_token": csrf_in(page)}, follow_redirects=False
    )
    assert other.status_code == 404


@pytest.mark.parametrize("code", sorted(BATCH_FAILURE_TEXTS))
def test_a_failed_batch_says_why_in_german(
    web_client: TestClient, database: Database, account: Account, code: str
) -> None:
    _set_language(database, account, "de")
    batch_id = seed_batch(
        database, account.company_id, [], unpack_state="failed", file_name="rechnungen.zip"
    )
    with database.session() as session:
        batch = session.get(Batch, batch_id)
        assert batch is not None
        batch.error_code, batch.error_message = code, PROCESSOR_MESSAGE
        session.commit()
    page = web_client.get(f"/app/batches/{batch_id}").text
    leaked = (words(visible_text(page)) & ENGLISH_WORDS) - ALLOWED
    assert not leaked, f"{code}: {sorted(leaked)}"
    assert translate("de", BATCH_FAILURE_TEXTS[code].next_step) in visible_text(page)


def test_the_batch_failure_codes_are_those_the_worker_sets() -> None:
    assert {problem.value for problem in ArchiveProblem} | {DMARC_FAILED} == set(
        BATCH_FAILURE_TEXTS
    )

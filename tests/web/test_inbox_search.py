"""The inbox's search and its batch choice (issue 43, part 7), in both languages on both
backends: search over supplier, number and amount, paging with it, and batches chosen by
name and date with the id still taken from the URL."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from lxml import html as lxml_html

from api.web.i18n import translate
from storage.db import Database
from storage.models import Batch, utcnow
from tests.web.support import Account, log_in, make_account, seed_batch, seed_upload
from tests.web.test_inbox import T0, link, listed


@pytest.fixture(params=("de", "en"))
def reader(
    request: pytest.FixtureRequest, client: TestClient, database: Database
) -> tuple[TestClient, Account, str]:
    language = str(request.param)
    account = make_account(database, language=language)
    assert log_in(client, account.email).status_code == 303
    return client, account, language


def _invoice(seller: str, number: str, gross: str) -> dict[str, Any]:
    totals = {"gross": gross, "net": gross}
    return {"invoice": {"seller": {"name": seller}, "number": number, "totals": totals}}


def _seed(database: Database, company: uuid.UUID, data: dict[str, Any], minute: int) -> uuid.UUID:
    return seed_upload(
        database,
        company,
        status="completed",
        result_type="invoice",
        data=data,
        created_at=T0 + timedelta(minutes=minute),
    )


def test_search_by_supplier_number_and_amount(
    reader: tuple[TestClient, Account, str], database: Database
) -> None:
    client, account, language = reader
    company = account.company_id
    mueller = _seed(database, company, _invoice("Müller Bau GmbH", "RE-2024-17", "1234.56"), 0)
    other = _seed(database, company, _invoice("Schmidt KG", "77", "10.00"), 1)
    for typed in ("1.234,56", "1234.56", "1234,56", "müller", "RE-2024-17"):
        page = client.get("/app/uploads", params={"q": typed}).text
        assert listed(page) == [mueller], typed
    assert listed(client.get("/app/uploads?q=schmidt+10").text) == [other]
    page = client.get("/app/uploads?q=nobody").text
    assert listed(page) == [] and translate(language, "No uploads.") in page
    # The search box keeps what was typed, labelled in the page's language.
    form: Any = lxml_html.fromstring(client.get("/app/uploads?q=M%C3%BCller").text)
    assert form.xpath('//input[@id="f-q"]/@value') == ["Müller"]
    assert form.xpath('//label[@for="f-q"]')[0].text_content() == translate(language, "Search")


def test_paging_keeps_the_search(
    web_client: TestClient, database: Database, account: Account
) -> None:
    company = account.company_id
    wanted = [_seed(database, company, _invoice("Alpha", f"A{i}", "5"), i * 2) for i in range(55)]
    for i in range(5):
        _seed(database, company, _invoice("Beta", f"B{i}", "5"), i * 2 + 1)
    first = web_client.get("/app/uploads?q=alpha").text
    older = link(first, "next")
    assert older is not None and "q=alpha" in older
    second = web_client.get(older).text
    assert listed(first) + listed(second) == wanted[::-1]
    newer = link(second, "prev")
    assert newer is not None and listed(web_client.get(newer).text) == listed(first)


def test_batches_are_chosen_by_name_and_date(
    reader: tuple[TestClient, Account, str], database: Database
) -> None:
    client, account, _ = reader
    archive = seed_batch(database, account.company_id, ["completed"], file_name="januar.zip")
    mail = seed_batch(database, account.company_id, ["queued"], file_name="message.eml")
    with database.session() as session:
        batch = session.get(Batch, mail)
        assert batch is not None
        batch.source_type, batch.mail_subject = "email", "Rechnungen März"
        batch.created_at = utcnow() + timedelta(seconds=1)
        session.commit()
    page: Any = lxml_html.fromstring(client.get("/app/uploads").text)
    options = page.xpath('//select[@id="f-batch"]/option')
    offered = {option.get("value"): option.text_content() for option in options}
    assert list(offered)[1:] == [str(mail), str(archive)]  # newest first, after "Any"
    assert offered[str(mail)].startswith("Rechnungen März (")
    assert offered[str(archive)].startswith("januar.zip (")
    # The id in the URL still filters, and its batch is the one selected.
    chosen = client.get(f"/app/uploads?batch={archive}").text
    assert len(listed(chosen)) == 1
    tree: Any = lxml_html.fromstring(chosen)
    assert tree.xpath('//select[@id="f-batch"]/option[@selected]/@value') == [str(archive)]


def test_another_company_s_batch_is_not_offered(
    web_client: TestClient, database: Database, other_account: Account
) -> None:
    theirs = seed_batch(database, other_account.company_id, ["completed"], file_name="x.zip")
    page = web_client.get(f"/app/uploads?batch={theirs}").text
    assert "x.zip" not in page and listed(page) == []

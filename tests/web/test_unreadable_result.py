"""A result whose stored data does not fit its type still opens: its header, the
download and the delete form, and a note instead of blank fields."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from storage.db import Database
from tests.web.support import Account, seed_upload


def test_a_result_whose_data_does_not_fit_its_type_still_opens(
    web_client: TestClient, database: Database, account: Account
) -> None:
    seed_upload(database, account.company_id, status="completed", result_type="invoice")
    inbox = web_client.get("/app/uploads").text
    path = re.search(r'href="(/app/invoices/[0-9a-f-]{36})"', inbox)
    assert path is not None

    page = web_client.get(path.group(1))

    assert page.status_code == 200
    assert "cannot be shown" in page.text and "the key &#39;invoice&#39; is missing" in page.text
    assert "Delete the result" in page.text

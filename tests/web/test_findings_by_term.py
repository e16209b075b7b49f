"""The web application shows an e-invoice's findings grouped by the EN 16931 business
term they concern, failing groups first, each finding explained in English and German;
the upload's error message names the first business term (issue 18, part 2)."""

from __future__ import annotations

from fastapi.testclient import TestClient
from lxml import html

from api.deps import Services
from api.web.result_views import findings_of
from tests.web.results_helpers import invalid_e_invoice_of_every_level, send_and_read
from tests.web.support import Account

FAILING = ("fatal", "error")


def test_upload_page_groups_findings_by_business_term(
    web_client: TestClient, account: Account, services: Services
) -> None:
    name, content = invalid_e_invoice_of_every_level()
    body = send_and_read(web_client, account.headers, services, name, content)
    assert body["error"]["code"] == "invalid_e_invoice"
    response = web_client.get(f"/app/uploads/{body['id']}")
    assert response.status_code == 200
    page = html.fromstring(response.text)
    tables = page.xpath('//section[@aria-labelledby="findings"]//table[@class="findings"]')
    assert len(tables) > 1
    captions = [" ".join(t.xpath("./caption")[0].text_content().split()) for t in tables]
    first_level = captions[0].split()[0]
    assert first_level in FAILING
    assert any("(BT-" in caption or "(BG-" in caption for caption in captions)
    for table in tables:
        for row in table.xpath("./tbody/tr"):
            (shown,) = row.xpath('./td[@class="explanation"]/p')
            assert shown.get("lang") == "en" and shown.text_content().strip()
            # The validator's English rule text is behind a toggle, not under each line.
            (rule_text,) = row.xpath('./td[@class="rule-text"]/details/p[@lang="en"]')
            assert rule_text.text_content().strip()
    # The message names the first failing finding's term as the first group does.
    first_term = tables[0].xpath('./caption/span[@class="term"]')[0].text_content()
    if "(B" in first_term:
        assert f"First: {first_term}:" in body["error"]["message"]


def test_findings_stored_before_get_their_terms_from_the_data() -> None:
    stored = [
        {"id": "BR-CO-15", "level": "error", "text": "[BR-CO-15]-...", "location": None},
        {"id": "UBL-CR-005", "level": "warning", "text": "[UBL-CR-005]-...", "location": None},
    ]
    first, second = findings_of(stored)
    assert first.business_terms[0] == "BT-112"
    assert "Invoice total amount with VAT (BT-112)" in first.explanation_en
    assert "Gesamtbetrag der Rechnung mit Umsatzsteuer" in first.explanation_de
    assert second.business_terms == () and "UUID" in second.explanation_en

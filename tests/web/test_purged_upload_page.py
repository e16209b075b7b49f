"""The upload page of a deleted upload after the retention purge: the notice says its
file and result data are gone, and the status history shows the purge."""

from __future__ import annotations

from datetime import timedelta

from fastapi.testclient import TestClient
from lxml import html

from api.deps import Services
from storage.db import Database
from storage.models import utcnow
from storage.retention import purge_deleted
from testkit.samples import blank_pdf
from tests.web.results_helpers import result_id, send_and_read
from tests.web.support import Account, session_csrf


def test_the_upload_page_shows_the_purge(
    web_client: TestClient, account: Account, services: Services, database: Database
) -> None:
    body = send_and_read(
        web_client,
        account.headers,
        services,
        "letter.pdf",
        blank_pdf("purged"),
        documentType="other_document",
    )
    delete = f"/app/results/{result_id(body)}/delete"
    csrf = session_csrf(web_client, database)
    assert web_client.post(delete, data={"csrf_token": csrf}, follow_redirects=False).is_redirect
    before = web_client.get(f"/app/uploads/{body['id']}").text
    assert "removed for good" not in before

    later = utcnow() + timedelta(days=services.settings.purge_after_days + 1)
    assert (
        purge_deleted(
            services.db, services.store, services.settings.purge_after_days, later
        ).uploads
        == 1
    )

    page = html.fromstring(web_client.get(f"/app/uploads/{body['id']}").text)
    notices = " ".join(page.xpath('//p[@class="notice"]//text()'))
    assert "was deleted" in notices and "removed for good" in notices
    history = [
        " ".join(" ".join(row.xpath(".//text()")).split())
        for row in page.xpath('//table[@class="history"]/tbody/tr')
    ]
    assert history[-2].endswith("Completed Deleted"), history
    assert history[-1].endswith("Deleted Deleted purged"), history

"""Invoices read by the real pipeline for the DATEV export's API and web tests."""

from __future__ import annotations

import uuid

from fastapi.testclient import TestClient

from api.deps import Services
from storage.datev.settings import DatevSettings
from storage.repositories import datev_exports
from tests.web.results_helpers import corpus_named, result_id, send_and_read

XRECHNUNG = "itplr-kosit+validator-configuration-xrechnung/src/test/cen-unit-test/"


def set_up_datev(services: Services, company_id: uuid.UUID) -> None:
    with services.db.session() as session:
        datev_exports.save_datev_settings(
            session, company_id, DatevSettings(consultant_number=29098, client_number=55003)
        )
        session.commit()


def read_invoices(
    client: TestClient, services: Services, headers: dict[str, str]
) -> dict[str, tuple[uuid.UUID, bytes]]:
    """Three invoices of 4 April 2016 the company issued (its VAT ID is the seller's): two
    sent as `auto`, one as `supplier_invoice`, which the parties contradict (it needs
    review)."""
    sent = {}
    for name, document_type in [
        ("cii-br-53-test-1.xml", "auto"),
        ("cii-br-65-test.xml", "auto"),
        ("cii-bt-20-cardinality-check.xml", "supplier_invoice"),
    ]:
        file_name, content = corpus_named(XRECHNUNG + name)
        body = send_and_read(
            client, headers, services, file_name, content, documentType=document_type
        )
        sent[name] = (result_id(body), content)
    return sent

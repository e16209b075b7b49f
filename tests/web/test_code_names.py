"""Unit codes and VAT categories in words (issue 43): a line's unit (UN/ECE
Recommendations 20 and 21) and VAT category are shown as names in the page's language,
one or other by the quantity; the names are data with both languages
(api/web/data/unit_codes.tsv), generated into api/web/unit_codes.py."""

from __future__ import annotations

import uuid
from datetime import date
from decimal import Decimal
from typing import cast

import pytest
from fastapi.testclient import TestClient
from lxml import html

from api.web.labels import VAT_CATEGORY_LABELS
from api.web.unit_codes import UNIT_NAMES
from api.web.unit_names import unit_name
from processors.base import DocumentType, FileKind
from processors.invoice_model import (
    DirectionDecision,
    Invoice,
    InvoiceType,
    LineItem,
    Party,
    Totals,
)
from processors.results.invoice import InvoiceResult
from processors.results.source import Source
from scripts.generate_unit_names import TARGET, module_text, read_source
from storage.db import Database
from storage.models import Result, Upload
from storage.repositories import users
from tests.web.support import Account, seed_upload

LINES = (
    LineItem("1", "Beratung", Decimal(3), "HUR", Decimal("10"), Decimal("30"), "S", Decimal("19")),
    LineItem("2", "Fachbuch", Decimal("1"), "XPP", Decimal("40"), Decimal("40"), "Z", Decimal("0")),
    LineItem("3", "Kabel", Decimal("2.5"), "MTR", Decimal("2"), Decimal("5"), "AE"),
    LineItem("4", "Sonstiges", Decimal("2"), "QQQ", Decimal("1"), Decimal("2"), "S", Decimal("19")),
)  # fmt: skip


def test_the_module_is_what_the_generator_writes_from_the_source() -> None:
    assert TARGET.read_text(encoding="utf-8") == module_text(read_source())


def test_the_codes_e_invoices_use_have_names_in_both_languages() -> None:
    for code in ("C62", "H87", "EA", "XPP", "HUR", "DAY", "KGM", "MTR", "LTR", "MON", "KWH"):
        assert code in UNIT_NAMES, code
    assert unit_name("C62", "3", "de") == "Stück" and unit_name("C62", "3", "en") == "units"
    assert unit_name("H87", "1", "en") == "piece" and unit_name("XPP", "2", "en") == "pieces"
    assert unit_name("HUR", "1", "de") == "Stunde" and unit_name("HUR", "1.5", "de") == "Stunden"
    assert unit_name("xpk", "1.000", "de") == "Packung"  # one, however it is written
    assert unit_name("QQQ", "2", "de") == "QQQ"  # unknown: the code as it is
    assert unit_name(None, "2", "de") == ""
    assert set(VAT_CATEGORY_LABELS) == {"S", "Z", "E", "AE", "K", "G", "O", "L", "M"}


def _invoice_page(client: TestClient, database: Database, account: Account, language: str) -> str:
    with database.session() as session:
        users.set_language(session, account.user_id, language)
        session.commit()
    invoice = Invoice(
        number="RE-7",
        invoice_type=InvoiceType.INVOICE,
        type_code="380",
        issue_date=date(2025, 3, 12),
        currency="EUR",
        seller=Party(name="Beispiel Handel GmbH"),
        buyer=Party(name="Muster GmbH"),
        lines=LINES,
        totals=Totals(gross=Decimal("90.10")),
    )
    decision = DirectionDecision(DocumentType.SUPPLIER_INVOICE, False, False, None, "test")
    result = InvoiceResult.of(invoice, decision, Source(FileKind.XML))
    upload_id = seed_upload(database, account.company_id, status="completed", result_type="invoice")
    with database.session() as session:
        upload = session.get_one(Upload, upload_id)
        session.get_one(Result, upload.result_id).data = result.to_dict()
        result_id: uuid.UUID | None = upload.result_id
        session.commit()
    page = client.get(f"/app/invoices/{result_id}")
    assert page.status_code == 200
    return page.text


def _line_cells(page: str) -> list[list[str]]:
    rows = cast(
        list[html.HtmlElement],
        html.fromstring(page).xpath('//section[@aria-labelledby="lines"]//tbody/tr'),
    )
    return [
        [
            " ".join(td.text_content().split())
            for td in cast(list[html.HtmlElement], row.xpath("./td"))
        ]
        for row in rows
    ]


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("de", [("3 Stunden", "Regelsteuersatz 19 %"), ("1 Stück", "Nullsatz 0 %"),
                ("2,5 Meter", "Umkehr der Steuerschuld"), ("2 QQQ", "Regelsteuersatz 19 %")]),
        ("en", [("3 hours", "Standard rate 19 %"), ("1 piece", "Zero rated 0 %"),
                ("2.5 metres", "Reverse charge"), ("2 QQQ", "Standard rate 19 %")]),
    ],
    ids=["de", "en"],
)  # fmt: skip
def test_the_line_items_show_units_and_categories_in_words(
    web_client: TestClient,
    database: Database,
    account: Account,
    language: str,
    expected: list[tuple[str, str]],
) -> None:
    cells = _line_cells(_invoice_page(web_client, database, account, language))
    assert [(row[2], row[5]) for row in cells] == expected

"""The inbox's search (issue 43) on both backends: the words a result is booked with, the
ways an amount is typed, prefixes, scoping to the company, keyset paging with a search,
and the migration's backfill of results booked before it."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from alembic import command
from sqlalchemy import Engine, text

from storage.db import Database
from storage.migrate import alembic_config
from storage.repositories.upload_views import InboxFilter, PageCursor, inbox_page
from storage.search_text import search_terms, search_text
from tests.conftest import Tenant
from tests.web.support import seed_upload

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _invoice(seller: str, number: str, gross: str, buyer: str = "Acme GmbH") -> dict[str, Any]:
    return {
        "direction": "received",
        "invoice": {
            "seller": {"name": seller},
            "buyer": {"name": buyer},
            "number": number,
            "totals": {"net": "1.00", "gross": gross, "amountDue": gross},
        },
    }


def _seed(
    database: Database, company: uuid.UUID, data: dict[str, Any], minutes: int = 0
) -> uuid.UUID:
    return seed_upload(
        database,
        company,
        status="completed",
        result_type="invoice",
        data=data,
        created_at=T0 + timedelta(minutes=minutes),
    )


def _found(database: Database, company: uuid.UUID, typed: str) -> list[uuid.UUID]:
    with database.session() as session:
        rows = inbox_page(session, company, InboxFilter(search=tuple(search_terms(typed))), 50)
    return [row.id for row in rows]


@pytest.fixture
def booked(database: Database, tenant: Tenant, other_tenant: Tenant) -> dict[str, uuid.UUID]:
    company = tenant.company_id
    ids = {
        "mueller": _seed(
            database, company, _invoice("Müller & Söhne GmbH", "RE-2024/001", "1234.56")
        ),
        "acme": _seed(database, company, _invoice("Acme Ltd", "A-77", "99", "Kunde AG"), 1),
        "dotted": _seed(database, company, _invoice("Zeta KG", "2024.01", "10.00"), 2),
    }
    # Another company's invoice with the same supplier and amount is never found.
    _seed(database, other_tenant.company_id, _invoice("Müller & Söhne GmbH", "X", "1234.56"))
    seed_upload(database, company, status="failed", created_at=T0 + timedelta(minutes=3))
    return ids


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("1.234,56", ["mueller"]),
        ("1234.56", ["mueller"]),
        ("1234,56", ["mueller"]),
        ("1,234.56", ["mueller"]),
        ("1.234", ["mueller"]),
        ("müller", ["mueller"]),
        ("MÜLL söhne", ["mueller"]),
        ("RE-2024/001", ["mueller"]),
        ("2024/001", ["mueller"]),
        ("acme 99,00", ["acme"]),  # Acme is the seller here, and the buyer of the others
        ("kunde", ["acme"]),
        ("2024.01", ["dotted"]),  # an amount, or the number's words
        ("acme", ["dotted", "acme", "mueller"]),
        ("müller 99", []),
        ("nobody", []),
        ("%", ["dotted", "acme", "mueller"]),  # no words: no search, every result-less row too
    ],
)
def test_search_finds_by_supplier_number_and_amount(
    database: Database,
    tenant: Tenant,
    booked: dict[str, uuid.UUID],
    typed: str,
    expected: list[str],
) -> None:
    found = _found(database, tenant.company_id, typed)
    if typed == "%":
        assert found[1:] == [booked[name] for name in expected]
        return
    assert found == [booked[name] for name in expected]


def test_search_text_of_an_invoice() -> None:
    words = search_text("invoice", _invoice("Müller & Söhne GmbH", "RE-2024/001", "1234.5"))
    assert words == "müller söhne gmbh acme re 2024 001 1234.50 1.00"
    assert search_text("other_document", {"title": "Müller"}) is None
    assert search_terms("1.234,56") == [(("1234.56",), ("1", "234", "56"))]


def test_keyset_paging_keeps_the_search(database: Database, tenant: Tenant) -> None:
    company = tenant.company_id
    wanted = [
        _seed(database, company, _invoice("Alpha GmbH", f"A{i}", "5.00"), i * 2) for i in range(5)
    ]
    for i in range(5):
        _seed(database, company, _invoice("Beta GmbH", f"B{i}", "5.00"), i * 2 + 1)
    search = InboxFilter(search=tuple(search_terms("alpha 5,00")))
    seen: list[uuid.UUID] = []
    cursor = None
    with database.session() as session:
        while True:
            rows = inbox_page(session, company, search, 2, older_than=cursor)
            seen += [row.id for row in rows]
            if len(rows) < 2:
                break
            cursor = PageCursor(rows[-1].created_at, rows[-1].id)
        newest = PageCursor(rows[-1].created_at, rows[-1].id) if rows else cursor
        assert newest is not None
        back = inbox_page(session, company, search, 2, newer_than=newest)
    assert seen == wanted[::-1]
    assert [row.id for row in back] == wanted[1:3][::-1]


def test_migration_backfills_the_words_of_earlier_results(fresh_engine: Engine) -> None:
    config = alembic_config(fresh_engine.url.render_as_string(hide_password=False))
    postgres = fresh_engine.dialect.name == "postgresql"
    company, result = uuid.uuid4(), uuid.uuid4()
    with fresh_engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0019")
        connection.execute(
            text(
                "INSERT INTO companies (id, name, vat_ids, ibans, locale, created_at)"
                " VALUES (:id, 'A', '[]', '[]', 'de', :at)"
            ),
            {"id": company if postgres else company.hex, "at": "2026-01-01 00:00:00"},
        )
        connection.execute(
            text(
                "INSERT INTO results (id, company_id, type, sha256, data, created_at)"
                " VALUES (:id, :company, 'invoice', :sha, :data, :at)"
            ),
            {
                "id": result if postgres else result.hex,
                "company": company if postgres else company.hex,
                "sha": "ab" * 32,
                "data": '{"invoice": {"seller": {"name": "Früher GmbH"}, "number": "7",'
                ' "totals": {"gross": "1234.5"}}}',
                "at": "2026-01-01 00:00:00",
            },
        )
        command.upgrade(config, "head")
        words = connection.execute(text("SELECT words FROM result_search")).scalar()
        assert words is not None and set(str(words).replace("'", "").split()) == {
            "früher",
            "gmbh",
            "7",
            "1234.50",
        }

"""Helpers for the web application's tests: users, signing in, CSRF tokens, screenshots."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from pathlib import Path

from fastapi.testclient import TestClient
from httpx2 import Response
from playwright.sync_api import Page

from storage.db import Database
from storage.models import utcnow
from storage.repositories import api_keys, companies, users, web_sessions

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
PASSWORD = "correct horse battery staple"
_CSRF_FIELD = re.compile(r'name="csrf_token" value="([^"]+)"')


@dataclass(frozen=True)
class Account:
    """A company with an API key and one web user."""

    company_id: uuid.UUID
    api_key: str
    user_id: uuid.UUID
    email: str
    password: str = PASSWORD

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api_key}"}


def make_user(database: Database, company_id: uuid.UUID, email: str | None = None) -> uuid.UUID:
    address = email or f"user-{uuid.uuid4().hex[:10]}@example.com"
    with database.session() as session:
        user = users.create_user(session, company_id, address, PASSWORD)
        session.commit()
    return user.id


def make_account(database: Database, name: str = "Acme GmbH", locale: str = "de") -> Account:
    email = f"user-{uuid.uuid4().hex[:10]}@example.com"
    with database.session() as session:
        company = companies.create_company(session, name, vat_ids=["DE123456789"])
        company.locale = locale
        key = api_keys.create_api_key(session, company.id)
        user = users.create_user(session, company.id, email, PASSWORD)
        session.commit()
    return Account(company.id, key.plaintext, user.id, email)


def csrf_in(html: str) -> str:
    """The CSRF token of the first form on a page."""
    found = _CSRF_FIELD.search(html)
    assert found, "no csrf_token field on the page"
    return found.group(1)


def log_in(
    client: TestClient, email: str, password: str = PASSWORD, next_path: str = ""
) -> Response:
    """Through the login form, as a browser does (the form's own CSRF cookie included)."""
    form = client.get("/app/login")
    return client.post(
        "/app/login",
        data={
            "email": email,
            "password": password,
            "csrf_token": csrf_in(form.text),
            "next": next_path,
        },
        follow_redirects=False,
    )


def session_csrf(client: TestClient, database: Database) -> str:
    """The CSRF token of the client's signed-in session, to post forms with."""
    token = client.cookies.get("docintake_session")
    assert token, "the client is not signed in"
    with database.read_session() as session:
        signed_in = web_sessions.find_signed_in(session, token, utcnow())
    assert signed_in is not None
    return signed_in.csrf_token


def screenshot(page: Page, name: str) -> Path:
    """Keeps test-artifacts/screenshots/<name>.png of the whole page."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path

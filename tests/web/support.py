"""Helpers for the web application's tests: users, signing in, CSRF tokens, screenshots."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from httpx2 import Response
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from storage.db import Database
from storage.models import Batch, Upload, utcnow
from storage.repositories import api_keys, companies, users, web_sessions
from storage.repositories.results import new_result

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


def make_account(
    database: Database, name: str = "Acme GmbH", locale: str = "de", language: str | None = "en"
) -> Account:
    """The user reads English pages unless `language` says otherwise (None: the
    company's locale decides, as for a user who never chose)."""
    email = f"user-{uuid.uuid4().hex[:10]}@example.com"
    with database.session() as session:
        company = companies.create_company(session, name, vat_ids=["DE123456789"], locale=locale)
        key = api_keys.create_api_key(session, company.id)
        user = users.create_user(session, company.id, email, PASSWORD)
        users.set_language(session, user.id, language)
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
    """Keeps test-artifacts/screenshots/<name>.png of the whole page. Chromium now and
    then answers a full-page capture with "Unable to capture screenshot" on a busy
    machine; the picture is for people, so it is tried again before the test fails."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    for attempt in range(3):
        try:
            page.screenshot(path=str(path), full_page=True)
            return path
        except PlaywrightError:
            if attempt == 2:
                raise
            page.wait_for_timeout(500)
    return path


def seed_upload(
    database: Database,
    company_id: uuid.UUID,
    *,
    status: str = "queued",
    document_type: str = "auto",
    file_name: str = "invoice.pdf",
    created_at: datetime | None = None,
    batch_id: uuid.UUID | None = None,
    position: int | None = None,
    result_type: str | None = None,
    error_code: str | None = None,
    error_message: str | None = None,
    size_bytes: int = 100,
    data: dict[str, Any] | None = None,
) -> uuid.UUID:
    """An upload row as the pipeline leaves it (with a result when `result_type` is given,
    its `data` booked as the recorder books it)."""
    upload_id = uuid.uuid4()
    with database.session() as session:
        result_id = None
        if result_type is not None:
            sha256 = upload_id.hex + upload_id.hex
            result = new_result(company_id, sha256, result_type, data or {})
            session.add(result)
            session.flush()
            result_id = result.id
        session.add(
            Upload(
                id=upload_id,
                company_id=company_id,
                batch_id=batch_id,
                position=position,
                file_name=file_name,
                document_type=document_type,
                status=status,
                sha256=upload_id.hex + upload_id.hex,
                size_bytes=size_bytes,
                object_key=f"uploads/{upload_id}",
                result_id=result_id,
                error_code=error_code,
                error_message=error_message,
                created_at=created_at or utcnow(),
            )
        )
        session.commit()
    return upload_id


def seed_batch(
    database: Database,
    company_id: uuid.UUID,
    statuses: list[str],
    unpack_state: str = "done",
    file_name: str = "documents.zip",
) -> uuid.UUID:
    """A batch whose uploads have the given statuses, in archive order."""
    batch_id = uuid.uuid4()
    with database.session() as session:
        session.add(
            Batch(
                id=batch_id,
                company_id=company_id,
                document_type="auto",
                file_name=file_name,
                sha256=batch_id.hex * 2,
                size_bytes=1000,
                object_key=f"batches/{batch_id}.zip",
                unpack_state=unpack_state,
            )
        )
        session.commit()
    for position, status in enumerate(statuses):
        seed_upload(
            database,
            company_id,
            status=status,
            batch_id=batch_id,
            position=position,
            file_name=f"file{position}.pdf",
            result_type="invoice" if status == "completed" else None,
            error_code="unreadable_document" if status == "failed" else None,
        )
    return batch_id


def section_of(page: str, heading_id: str) -> str:
    """The page's `<section aria-labelledby=heading_id ...>` as HTML text."""
    found = re.search(
        rf'<section aria-labelledby="{heading_id}"[^>]*>.*?</section>', page, re.DOTALL
    )
    assert found is not None, heading_id
    return found.group()

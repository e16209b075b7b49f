"""Sessions: expiry, the Secure flag behind https, web errors as pages, the user command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import select

from api.app import build_services, create_app
from api.deps import Services
from storage.db import Database
from storage.models import User
from storage.repositories import web_sessions
from storage.settings import Settings
from tests.web.support import Account, log_in

ROOT = Path(__file__).resolve().parents[2]


def test_an_expired_session_signs_nobody_in(
    client: TestClient, database: Database, account: Account
) -> None:
    with database.session() as session:
        expired = web_sessions.start_session(session, account.user_id, timedelta(seconds=-1))
        session.commit()
    client.cookies.set("docintake_session", expired.token)
    response = client.get("/app/uploads", follow_redirects=False)
    assert response.status_code == 303


def test_a_made_up_session_token_signs_nobody_in(client: TestClient) -> None:
    for token in ("x" * 43, "y" * 500):
        client.cookies.set("docintake_session", token)
        assert client.get("/app/uploads", follow_redirects=False).status_code == 303


def test_cookies_are_secure_when_the_public_url_is_https(
    settings: Settings, database: Database, services: Services, account: Account
) -> None:
    services.settings = settings.model_copy(update={"public_base_url": "https://docs.example"})
    with TestClient(create_app(services), base_url="https://testserver") as client:
        form = client.get("/app/login")
        assert "Secure" in form.headers["set-cookie"]
        response = log_in(client, account.email)
        assert response.status_code == 303
        assert "Secure" in response.headers["set-cookie"]


def test_errors_under_app_are_pages_and_the_api_keeps_problem_json(
    web_client: TestClient, client: TestClient
) -> None:
    missing = web_client.get("/app/no-such-page")
    assert missing.status_code == 404 and "text/html" in missing.headers["content-type"]
    assert "<h1>Not found</h1>" in missing.text
    wrong_method = web_client.delete("/app/uploads")
    assert wrong_method.status_code == 405 and "text/html" in wrong_method.headers["content-type"]
    api = web_client.get("/v1/no-such-route")
    assert api.headers["content-type"] == "application/problem+json"


def test_user_create_command(tmp_path: Path) -> None:
    env = {**os.environ, "DOCINTAKE_VAR_DIR": str(tmp_path)}
    env.pop("DOCINTAKE_DATABASE_URL", None)

    def docintake(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "api.cli", *args],
            env=env,
            input=stdin,
            capture_output=True,
            text=True,
            check=False,
            cwd=ROOT,
        )

    assert docintake("migrate").returncode == 0
    company = json.loads(
        docintake("company", "create", "--name", "Acme", "--json").stdout.splitlines()[-1]
    )
    created = docintake(
        "user",
        "create",
        "--company",
        company["companyId"],
        "--email",
        "Anna@Example.com",
        "--password",
        "s3cret-pass",
        "--json",
    )
    assert created.returncode == 0, created.stderr
    assert json.loads(created.stdout)["email"] == "anna@example.com"
    assert "s3cret-pass" not in created.stdout + created.stderr
    taken = docintake(
        "user",
        "create",
        "--company",
        company["companyId"],
        "--email",
        "anna@example.com",
        "--password",
        "-",
        stdin="other\n",
    )
    assert taken.returncode == 1 and "exists" in taken.stderr
    unknown = docintake(
        "user",
        "create",
        "--company",
        "00000000-0000-0000-0000-000000000000",
        "--email",
        "b@example.com",
        "--password",
        "x",
    )
    assert unknown.returncode == 1

    services = build_services(Settings(var_dir=tmp_path, _env_file=None))  # type: ignore[call-arg]
    with services.db.read_session() as session:
        stored = session.scalars(select(User.password_hash)).one()
    assert stored.startswith("$argon2id$") and "s3cret-pass" not in stored
    with TestClient(create_app(services)) as client:
        assert log_in(client, "anna@example.com", "s3cret-pass").status_code == 303

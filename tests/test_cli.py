"""The docintake command, run as a user runs it."""

from __future__ import annotations

import json
import os
import re
import smtplib
import socket
import subprocess
import sys
import time
from pathlib import Path

from fastapi.testclient import TestClient

from api.app import build_services, create_app
from storage.settings import Settings
from tests.web.support import log_in


def _docintake(var_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DOCINTAKE_VAR_DIR": str(var_dir)}
    env.pop("DOCINTAKE_DATABASE_URL", None)
    return subprocess.run(
        [sys.executable, "-m", "api.cli", *args],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        cwd=Path(__file__).parent.parent,
    )


def test_company_and_keys_lifecycle(tmp_path: Path) -> None:
    assert _docintake(tmp_path, "migrate").returncode == 0
    created = _docintake(
        tmp_path,
        "company",
        "create",
        "--name",
        "Acme",
        "--vat-id",
        "DE123456789",
        "--iban",
        "DE89370400440532013000",
        "--json",
    )
    assert created.returncode == 0, created.stderr
    company = json.loads(created.stdout.strip().splitlines()[-1])
    assert set(company) == {"companyId", "apiKey", "intakeAddress"}
    token, domain = company["intakeAddress"].split("@")
    assert domain == "mail.localhost" and len(token) == 24 and token.isalnum()

    second = json.loads(
        _docintake(
            tmp_path, "apikey", "create", "--company", company["companyId"], "--json"
        ).stdout.splitlines()[-1]
    )
    listed = json.loads(
        _docintake(tmp_path, "apikey", "list", "--company", company["companyId"], "--json").stdout
    )
    assert len(listed) == 2 and all(company["apiKey"] not in json.dumps(k) for k in listed)

    app = create_app(build_services(Settings(var_dir=tmp_path, _env_file=None)))  # type: ignore[call-arg]
    with TestClient(app) as client:
        path = "/v1/uploads/00000000-0000-0000-0000-000000000000"
        for key in (company["apiKey"], second["apiKey"]):
            assert client.get(path, headers={"Authorization": f"Bearer {key}"}).status_code == 404

        revoked = _docintake(
            tmp_path,
            "apikey",
            "revoke",
            "--company",
            company["companyId"],
            second["apiKeyId"],
            "--json",
        )
        assert revoked.returncode == 0, revoked.stderr
        response = client.get(path, headers={"Authorization": f"Bearer {second['apiKey']}"})
        assert response.status_code == 401
    again = _docintake(
        tmp_path, "apikey", "revoke", "--company", company["companyId"], second["apiKeyId"]
    )
    assert again.returncode == 1


def test_demo_company_prints_a_key_and_a_web_login_once(tmp_path: Path) -> None:
    assert _docintake(tmp_path, "migrate").returncode == 0
    first = _docintake(tmp_path, "demo-company")
    assert first.returncode == 0, first.stderr
    key = re.search(r"API key \(shown once\): (\S+)", first.stdout)
    login = re.search(r"web app login \(shown once\): (\S+) / (\S+)", first.stdout)
    assert key and login, first.stdout
    email, password = login.groups()
    assert email == "demo@example.com"

    again = _docintake(tmp_path, "demo-company")
    assert again.returncode == 0 and again.stdout == ""

    app = create_app(build_services(Settings(var_dir=tmp_path, _env_file=None)))  # type: ignore[call-arg]
    with TestClient(app) as client:
        path = "/v1/uploads/00000000-0000-0000-0000-000000000000"
        headers = {"Authorization": f"Bearer {key.group(1)}"}
        assert client.get(path, headers=headers).status_code == 404
        assert log_in(client, email, "wrong password").status_code == 401
        signed_in = log_in(client, email, password)
        assert signed_in.status_code == 303
        inbox = client.get(signed_in.headers["location"])
        assert inbox.status_code == 200 and email in inbox.text


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _smtp_when_listening(port: int, server: subprocess.Popen[bytes]) -> smtplib.SMTP:
    deadline = time.monotonic() + 60
    while True:
        try:
            return smtplib.SMTP("127.0.0.1", port, timeout=10)
        except OSError:
            assert server.poll() is None and time.monotonic() < deadline, "no SMTP server"
            time.sleep(0.2)


def test_mail_serves_the_intake_addresses_of_the_companies_made(tmp_path: Path) -> None:
    assert _docintake(tmp_path, "migrate").returncode == 0
    created = _docintake(tmp_path, "company", "create", "--name", "Mail GmbH", "--json")
    address = json.loads(created.stdout.strip().splitlines()[-1])["intakeAddress"]
    port = _free_port()
    env = {**os.environ, "DOCINTAKE_VAR_DIR": str(tmp_path), "DOCINTAKE_MAIL_PORT": str(port)}
    env.pop("DOCINTAKE_DATABASE_URL", None)
    server = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "mail"],
        env=env,
        cwd=Path(__file__).parent.parent,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        with _smtp_when_listening(port, server) as client:
            client.ehlo()
            client.mail("sender@example.com")
            assert client.rcpt(address)[0] == 250
            assert client.rcpt("nobody@" + address.split("@")[1])[0] == 550
    finally:
        server.terminate()
        assert server.wait(30) == 0

"""The Postfix example of docs/email.md: its transport points at `docintake mail`."""

from __future__ import annotations

import re
from pathlib import Path

from storage.settings import Settings

EXAMPLES = Path(__file__).parents[1] / "docs" / "examples" / "postfix"


def _main_cf() -> dict[str, str]:
    """main.cf's parameters, continuation lines joined (Postfix's own rules)."""
    parameters: dict[str, str] = {}
    name = None
    for line in (EXAMPLES / "main.cf").read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line[0].isspace() and name is not None:
            parameters[name] += " " + line.strip()
            continue
        name, _, value = (part.strip() for part in line.partition("="))
        parameters[name] = value
    return parameters


def test_the_transport_hands_the_intake_domain_to_docintake_mail() -> None:
    settings = Settings()
    lines = [
        line.split()
        for line in (EXAMPLES / "transport").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    domain = _main_cf()["relay_domains"]
    assert [domain, f"smtp:[{settings.mail_host}]:{settings.mail_port}"] in lines


def test_main_cf_uses_the_transport_and_refuses_unknown_addresses_in_the_dialogue() -> None:
    parameters = _main_cf()
    assert parameters["transport_maps"] == "hash:/etc/postfix/transport"
    assert "reject_unverified_recipient" in parameters["smtpd_recipient_restrictions"]
    assert parameters["unverified_recipient_reject_code"] == "550"
    assert int(parameters["message_size_limit"]) <= Settings().max_message_bytes
    assert re.fullmatch(r"[a-z0-9.-]+", parameters["relay_domains"])

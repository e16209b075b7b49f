"""IMAP polling's configuration, without a server: the production target policy and the
deployment in prefect.yaml (docs/email.md)."""

from __future__ import annotations

import ssl
from pathlib import Path

import pytest
import yaml

from flows.imap_client import ImapConnector, ImapTrouble
from flows.imap_poll import poll_mailboxes
from flows.webhook_http import TargetPolicy
from storage.repositories.imap_mailboxes import MailboxSettings


def test_a_private_address_is_not_reached_in_production(tmp_path: Path) -> None:
    connector = ImapConnector(
        tls=ssl.create_default_context(),
        policy=TargetPolicy(allow_loopback=False, allow_private=False),
    )
    wanted = MailboxSettings("127.0.0.1", 993, "tls", "u", "p", "INBOX", "mark_read", None)
    with pytest.raises(ImapTrouble, match="loopback"), connector.session(wanted):
        pass


def test_prefect_yaml_polls_every_minute_one_run_at_a_time() -> None:
    config = yaml.safe_load((Path(__file__).parents[2] / "prefect.yaml").read_text())
    (declared,) = [entry for entry in config["deployments"] if entry["name"] == "poll-mailboxes"]

    assert declared["entrypoint"] == "flows/imap_poll.py:poll_mailboxes"
    assert poll_mailboxes.name == "poll-mailboxes"
    assert declared["schedules"] == [{"interval": 60}]
    assert declared["concurrency_limit"] == 1

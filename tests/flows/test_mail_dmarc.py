"""A company that refuses mail failing DMARC (docs/email.md): refused in the SMTP
dialogue when every recipient refuses it, else (and for IMAP) its batch fails with
dmarc_failed when unpacked. Mail that passes, or a company that takes all, is read."""

from __future__ import annotations

import smtplib
import uuid
from email.message import EmailMessage
from email.policy import SMTP

import pytest
from sqlalchemy import select

from flows.unpack import DMARC_FAILED
from flows.work import WorkerEnv
from processors.email_message import dmarc_failed, first_field
from storage.db import Database
from storage.models import Batch, Company
from storage.repositories import mail_addresses
from storage.settings import Settings
from tests.conftest import Tenant, make_tenant
from tests.flows import test_mail_intake as intake
from tests.support.pipeline import run_claimed_batch

FAILED = "mx.docintake.example; spf=pass; dmarc=fail (p=none) header.from=lieferant.example"
# The SMTP server and the company's intake address, as in the SMTP tests.
smtp, address = intake.smtp, intake.address
_batches, _invoice_mail, _send = intake._batches, intake._invoice_mail, intake._send


def _refusing(db: Database, company_id: uuid.UUID, refuse: bool = True) -> None:
    with db.session() as session:
        company = session.get(Company, company_id)
        assert company is not None
        company.refuse_dmarc_fail = refuse
        session.commit()


def _failing_mail(to: str) -> EmailMessage:
    message = _invoice_mail(to)
    message.replace_header("Authentication-Results", FAILED)
    return message


@pytest.mark.parametrize(
    ("value", "failed"),
    [
        (FAILED, True),
        ("mx.example; DMARC=FAIL header.from=a.example", True),
        ("mx.example; dmarc=pass header.from=a.example", False),
        ("mx.example; dkim=fail; dmarc=none", False),
        ("mx.example; x-dmarc=failure", False),
        (None, False),
    ],
)
def test_the_dmarc_verdict_is_read_from_authentication_results(
    value: str | None, failed: bool
) -> None:
    assert dmarc_failed(value) is failed


def test_the_first_authentication_results_is_found_by_a_line_scan() -> None:
    raw = (
        b"Received: from a\r\nAuthentication-Results: mx.ours;\r\n\tdmarc=fail\r\n"
        b"Authentication-Results: mx.theirs; dmarc=pass\r\nSubject: x\r\n\r\n"
        b"Authentication-Results: in the body; dmarc=pass\r\n"
    )
    assert first_field(raw, b"authentication-results") == "mx.ours; dmarc=fail"
    assert first_field(b"Subject: x\r\n\r\nbody", b"authentication-results") is None


def test_refused_in_the_dialogue_when_the_company_refuses(
    env: WorkerEnv, company: Tenant, smtp: Settings, address: str
) -> None:
    _refusing(env.db, company.company_id)

    with pytest.raises(smtplib.SMTPDataError) as refused:
        _send(smtp, address, _failing_mail(address))

    assert refused.value.smtp_code == 550 and b"DMARC" in refused.value.smtp_error
    assert _batches(env) == 0
    _send(smtp, address, _invoice_mail(address))  # dmarc=pass: taken
    assert _batches(env) == 1


def test_a_company_that_takes_all_reads_mail_failing_dmarc(
    env: WorkerEnv, company: Tenant, smtp: Settings, address: str
) -> None:
    _send(smtp, address, _failing_mail(address))

    _, counts = run_claimed_batch(env)

    assert counts == {"completed": 2}


def test_among_other_recipients_the_refusing_company_s_batch_fails(
    env: WorkerEnv, company: Tenant, smtp: Settings, address: str
) -> None:
    other = make_tenant(env.db, "Other AG")
    with env.db.session() as session:
        token = mail_addresses.current_token(
            session, other.company_id, mail_addresses.token_box(smtp)
        )
        session.commit()
    other_address = mail_addresses.intake_address(token, smtp)
    _refusing(env.db, company.company_id)
    raw = _failing_mail(address).as_bytes(policy=SMTP)
    with smtplib.SMTP(smtp.mail_host, smtp.mail_port, timeout=30) as client:
        client.sendmail("bounce@lieferant.example", [address, other_address], raw)

    outcomes = [run_claimed_batch(env) for _ in range(2)]

    with env.db.read_session() as session:
        batches = {b.company_id: b for b in session.scalars(select(Batch))}
    refused, taken = batches[company.company_id], batches[other.company_id]
    assert refused.unpack_state == "failed" and refused.error_code == DMARC_FAILED
    assert refused.mail_subject == "Rechnung 2026-0042"  # its head is recorded
    assert not env.store.exists(refused.object_key)
    assert taken.unpack_state == "done"
    assert sorted(sum(counts.values()) for _, counts in outcomes) == [0, 2]

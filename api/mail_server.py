"""`docintake mail`: the SMTP endpoint of e-mail intake (docs/email.md), on aiosmtpd.

It answers RCPT with 550 for any address that is not a company's current (or recently
rotated) intake address, so unknown mail is refused in the dialogue and never bounced
later; SIZE is announced and a message over the limit gets 552. An accepted message is
stored raw and becomes a pending batch: nothing of it is parsed here (MIME is read in
the reading processes, flows/unpack_mail.py). Store or database trouble answers 451:
the sending MTA tries again later.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import uuid
from dataclasses import dataclass

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from processors.email_message import dmarc_failed, first_field
from storage.db import Database
from storage.mail_intake import Arrival, accept_message
from storage.models import Company, utcnow
from storage.objectstore import ObjectStore
from storage.repositories import mail_addresses
from storage.settings import Settings

log = logging.getLogger(__name__)

UNKNOWN_ADDRESS = "550 5.1.1 No such intake address"
DMARC_REFUSED = "550 5.7.1 Message refused: it failed DMARC (Authentication-Results)"
TRY_AGAIN = "451 4.3.0 Cannot take the message now, try again later"


@dataclass(frozen=True, slots=True)
class Recipient:
    company_id: uuid.UUID
    document_type: str
    refuse_dmarc_fail: bool = False


class IntakeHandler:
    def __init__(self, settings: Settings, db: Database, store: ObjectStore) -> None:
        self._settings = settings
        self._db = db
        self._store = store

    def recipient(self, address: str) -> Recipient | None:
        """The company and documentType an address stands for; None if it is unknown."""
        local_part, _, domain = address.rpartition("@")
        if domain.lower() != self._settings.mail_domain.lower():
            return None
        parts = mail_addresses.split_local_part(local_part)
        if parts is None:
            return None
        token, document_type = parts
        with self._db.read_session() as session:
            company_id = mail_addresses.company_of_token(session, token, utcnow())
            company = None if company_id is None else session.get(Company, company_id)
        if company is None:
            return None
        return Recipient(company.id, document_type, company.refuse_dmarc_fail)

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        try:
            recipient = await asyncio.to_thread(self.recipient, address)
        except Exception:
            log.exception("looking up the intake address %r failed", address)
            return TRY_AGAIN
        if recipient is None:
            log.info("refused mail to %r: no such intake address", address)
            return UNKNOWN_ADDRESS
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    def _accept(self, envelope: Envelope) -> list[str] | None:
        """The batches made; None if every recipient refuses the message (DMARC)."""
        raw = envelope.original_content
        assert isinstance(raw, bytes)
        recipients = {address: self.recipient(address) for address in envelope.rcpt_tos}
        failed_dmarc = dmarc_failed(first_field(raw, b"authentication-results"))
        wanted = [r for r in recipients.values() if r is not None]
        if failed_dmarc and wanted and all(r.refuse_dmarc_fail for r in wanted):
            return None
        # A recipient that refuses among others that take it: its batch fails when it is
        # unpacked (error code dmarc_failed), as an IMAP message's does.
        received_at, batches = utcnow(), []
        for recipient in recipients.values():
            if recipient is None:  # its token was retired since RCPT
                continue
            arrival = Arrival(
                recipient.company_id,
                recipient.document_type,
                envelope.mail_from or "",
                received_at,
            )
            accepted = accept_message(self._db, self._store, arrival, raw)
            batches.append(f"{accepted.batch_id}{' (again)' if accepted.replayed else ''}")
        return batches

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        try:
            batches = await asyncio.to_thread(self._accept, envelope)
        except Exception:
            log.exception("storing a message from %r failed", envelope.mail_from)
            return TRY_AGAIN
        if batches is None:
            log.info("refused a message from %r: it failed DMARC", envelope.mail_from)
            return DMARC_REFUSED
        log.info("message from %r: batches %s", envelope.mail_from, ", ".join(batches))
        return "250 2.0.0 Message accepted"


def controller(settings: Settings, db: Database, store: ObjectStore) -> Controller:
    """The SMTP server, not started yet; `.start()` runs it on a thread of its own."""
    return Controller(
        IntakeHandler(settings, db, store),
        hostname=settings.mail_host,
        port=settings.mail_port,
        data_size_limit=settings.max_message_bytes,
        decode_data=False,
        server_hostname=settings.mail_domain,
        ident="docintake",
    )


def serve(settings: Settings, db: Database, store: ObjectStore, stop: threading.Event) -> None:
    server = controller(settings, db, store)
    server.start()
    log.info("SMTP intake on %s:%d", settings.mail_host, settings.mail_port)
    try:
        stop.wait()
    finally:
        server.stop()

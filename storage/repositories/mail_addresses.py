"""Companies' intake address tokens (docs/email.md).

A token is 120 random bits written as 24 lower-case base-32 characters: it survives
MTAs that lower-case local parts. The SMTP server finds it by its SHA-256; it is kept
sealed too, so the settings page can show the address again.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
import uuid
from datetime import datetime, timedelta

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from processors.base import DocumentType
from storage.models import MailAddress, utcnow
from storage.secret_box import SecretBox
from storage.settings import Settings

TOKEN_BYTES = 15
# A rotated token keeps working this long: mail already on its way, senders' address
# books updated at leisure.
ROTATION_GRACE = timedelta(days=7)
# The local part's `+suffix` names the documentType; no suffix reads as `auto`.
SUFFIX_TYPES = {
    "": DocumentType.AUTO,
    "supplier": DocumentType.SUPPLIER_INVOICE,
    "customer": DocumentType.CUSTOMER_INVOICE,
    "statement": DocumentType.BANK_STATEMENT,
}


def token_box(settings: Settings) -> SecretBox:
    return SecretBox(settings.secret_key.get_secret_value(), b"docintake mail tokens v1")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _new_token() -> str:
    return base64.b32encode(secrets.token_bytes(TOKEN_BYTES)).decode("ascii").lower()


def add_token(session: Session, company_id: uuid.UUID, box: SecretBox) -> str:
    """A new intake token for the company; returns it."""
    token = _new_token()
    session.add(
        MailAddress(
            id=uuid.uuid4(),
            company_id=company_id,
            token_hash=token_hash(token),
            sealed_token=box.seal(token),
        )
    )
    session.flush()
    return token


def _current(session: Session, company_id: uuid.UUID) -> MailAddress | None:
    statement = (
        select(MailAddress)
        .where(MailAddress.company_id == company_id, MailAddress.retired_at.is_(None))
        .order_by(MailAddress.created_at.desc())
        .limit(1)
    )
    return session.scalars(statement).first()


def current_token(session: Session, company_id: uuid.UUID, box: SecretBox) -> str:
    """The company's current token, made on first use (companies made before e-mail
    intake have none)."""
    address = _current(session, company_id)
    if address is None:
        return add_token(session, company_id, box)
    return box.open(address.sealed_token)


def rotate_token(session: Session, company_id: uuid.UUID, box: SecretBox) -> str:
    """A new current token; the old one works for ROTATION_GRACE more."""
    old = _current(session, company_id)
    if old is not None:
        old.retired_at = utcnow() + ROTATION_GRACE
    return add_token(session, company_id, box)


def retiring_until(session: Session, company_id: uuid.UUID, now: datetime) -> list[datetime]:
    """When the company's rotated tokens that still work stop working."""
    statement = select(MailAddress.retired_at).where(
        MailAddress.company_id == company_id, MailAddress.retired_at > now
    )
    return sorted(at for at in session.scalars(statement) if at is not None)


def revoke_tokens(session: Session, company_id: uuid.UUID, at: datetime) -> None:
    """Every token of the company stops working at `at` (the tests' way to age one)."""
    for address in session.scalars(select(MailAddress).where(MailAddress.company_id == company_id)):
        address.retired_at = at
    session.flush()


def split_local_part(local_part: str) -> tuple[str, str] | None:
    """(token, documentType) of an address's local part; None for an unknown suffix."""
    token, _, suffix = local_part.lower().partition("+")
    document_type = SUFFIX_TYPES.get(suffix)
    return None if document_type is None else (token, document_type.value)


def company_of_token(session: Session, token: str, now: datetime) -> uuid.UUID | None:
    """The company whose current (or recently rotated) token this is."""
    statement = select(MailAddress.company_id).where(
        MailAddress.token_hash == token_hash(token),
        or_(MailAddress.retired_at.is_(None), MailAddress.retired_at > now),
    )
    return session.scalars(statement).first()


def intake_address(token: str, settings: Settings) -> str:
    return f"{token}@{settings.mail_domain}"

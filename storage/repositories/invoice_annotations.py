"""Notes on an invoice (issue 43): an e-invoice's XML is the original and is never
edited, so what an accountant has to say about it is a note beside it: the text, who
and when. PDF invoices take notes too. Notes are only added, never changed, and the
results API carries them; adding one is a change of the result (its `changeSequence`,
no webhook event). Nothing here commits; the request boundary does."""

from __future__ import annotations

import unicodedata
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from processors.base import ResultType
from storage.approval_models import ANNOTATION_MAX_CHARS, InvoiceAnnotationRow
from storage.errors import ValidationFailed
from storage.models import Result, User, utcnow
from storage.result_changes import note_changed

_KEPT_CONTROLS = frozenset("\n\t")


class EmptyNote(ValidationFailed):
    """A note without text."""


class NoteTooLong(ValidationFailed):
    """A note longer than ANNOTATION_MAX_CHARS characters."""


@dataclass(frozen=True, slots=True)
class Annotation:
    """One note: `by` is the user's e-mail (None once the user is deleted)."""

    text: str
    by: str | None
    at: datetime


def note_text(raw: str) -> str:
    """The note as stored: line ends as `\\n`, other control characters (a NUL, which
    Postgres refuses) dropped, spaces around it trimmed. Raises EmptyNote or NoteTooLong."""
    text = raw.replace("\r\n", "\n").replace("\r", "\n")
    text = "".join(
        c for c in text if c in _KEPT_CONTROLS or unicodedata.category(c) != "Cc"
    ).strip()
    if not text:
        raise EmptyNote("A note needs text.")
    if len(text) > ANNOTATION_MAX_CHARS:
        raise NoteTooLong(f"A note has at most {ANNOTATION_MAX_CHARS} characters.")
    return text


def add_annotation(session: Session, result: Result, raw: str, user_id: uuid.UUID | None) -> None:
    """Add a note to the invoice; its data and its original file stay as they are.
    Raises EmptyNote or NoteTooLong for text that does not fit."""
    if result.type != ResultType.INVOICE:
        raise ValidationFailed("only invoices take notes")
    row = InvoiceAnnotationRow(
        result_id=result.id, user_id=user_id, at=utcnow(), text=note_text(raw)
    )
    session.add(row)
    note_changed(session, result)
    session.flush()


def annotations_of(
    session: Session, result_ids: Iterable[uuid.UUID]
) -> dict[uuid.UUID, list[Annotation]]:
    """The results' notes, oldest first (only results with notes are keys)."""
    wanted = list(set(result_ids))
    if not wanted:
        return {}
    statement = (
        select(InvoiceAnnotationRow, User.email)
        .outerjoin(User, User.id == InvoiceAnnotationRow.user_id)
        .where(InvoiceAnnotationRow.result_id.in_(wanted))
        .order_by(InvoiceAnnotationRow.at, InvoiceAnnotationRow.id)
    )
    found: dict[uuid.UUID, list[Annotation]] = {}
    for row, email in session.execute(statement):
        found.setdefault(row.result_id, []).append(Annotation(row.text, email, row.at))
    return found

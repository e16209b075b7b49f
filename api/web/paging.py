"""What the web's URLs carry: row ids in paths, and keyset page cursors (microseconds since
the epoch and the row id)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MICROSECOND = timedelta(microseconds=1)


def encode_cursor(created_at: datetime, row_id: uuid.UUID) -> str:
    return f"{(created_at - EPOCH) // MICROSECOND}.{row_id.hex}"


def decode_cursor(text: str | None) -> tuple[datetime, uuid.UUID] | None:
    if not text:
        return None
    micros, _, row_id = text.partition(".")
    try:
        return EPOCH + int(micros) * MICROSECOND, uuid.UUID(hex=row_id)
    except (ValueError, OverflowError):
        return None


def parse_id(raw: str) -> uuid.UUID | None:
    """A row id from a path; None for text that is no UUID (the page answers 404)."""
    try:
        return uuid.UUID(raw)
    except ValueError:
        return None

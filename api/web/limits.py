"""The caps on a form body under /app (enforced by `guard.WebGuard` before parsing).

They fit the largest real forms: the settings form (four fields of up to 10,000
characters: about 50 KB as typed, 240 KB if every character were percent-encoded
twice over) and "confirm selected" on a long bank statement (about 15 bytes a
transaction: 20,000 transactions are 300 KB)."""

from __future__ import annotations

MAX_FORM_BYTES = 1024 * 1024
MAX_FORM_FIELDS = 20_000

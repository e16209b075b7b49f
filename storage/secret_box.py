"""Secrets the service must use again (webhook signing keys), sealed at rest.

A read-only copy of the database (a backup, a replica, a leaked dump) must not be enough
to sign events as us. So what is stored is AES-256-GCM under a key derived with HKDF-SHA256
from `DOCINTAKE_SECRET_KEY`, which lives in the environment, never in the database. Each
sealing has a fresh random 96-bit nonce; the purpose is bound into the key (HKDF `info`),
so a sealed value is useless to any other part that derives a key from the same secret.

Stored form: `v1.` + URL-safe base64 of nonce || ciphertext || tag. The version names the
scheme, so a later one can be told apart from it.
"""

from __future__ import annotations

import base64
import binascii
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from storage.settings import Settings

VERSION = "v1."
NONCE_BYTES = 12
# Longest stored form of a Standard Webhooks secret (`whsec_` + 44 base64 characters):
# 4 + 4/3 x (12 + 50 + 16) = 108 characters; the column leaves room.
SEALED_LENGTH = 255


class SecretUnreadable(Exception):
    """A sealed value that this key cannot open: DOCINTAKE_SECRET_KEY changed, or the
    value was altered."""


class SecretBox:
    def __init__(self, secret_key: str, purpose: bytes) -> None:
        key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=purpose).derive(
            secret_key.encode()
        )
        self._aead = AESGCM(key)

    @classmethod
    def for_webhooks(cls, settings: Settings) -> SecretBox:
        return cls(settings.secret_key.get_secret_value(), b"docintake webhook secrets v1")

    def seal(self, plaintext: str) -> str:
        nonce = os.urandom(NONCE_BYTES)
        sealed = nonce + self._aead.encrypt(nonce, plaintext.encode(), None)
        return VERSION + base64.urlsafe_b64encode(sealed).decode("ascii")

    def open(self, stored: str) -> str:
        if not stored.startswith(VERSION):
            raise SecretUnreadable("not a sealed secret")
        try:
            sealed = base64.urlsafe_b64decode(stored.removeprefix(VERSION))
            nonce, ciphertext = sealed[:NONCE_BYTES], sealed[NONCE_BYTES:]
            return self._aead.decrypt(nonce, ciphertext, None).decode()
        except (InvalidTag, binascii.Error, ValueError) as exc:
            raise SecretUnreadable(
                "cannot open a sealed secret: DOCINTAKE_SECRET_KEY is not the one that sealed it"
            ) from exc

"""The IMAP conversation of the poller (docs/email.md, "IMAP polling"), on the standard
library's imaplib. It moves bytes only: UIDs, sizes, a message's raw bytes (fetched
with BODY.PEEK[], so fetching does not mark it read), flags and moves. No MIME is
parsed here; the reading processes do that (flows/unpack_mail.py).

The server is a company's own: its host name is resolved once and every address is
checked as a webhook target's is (flows/webhook_http.py, TargetPolicy), then the
connection goes to a checked address (no second lookup to rebind). TLS is verified
against the system's CAs (or the connector's context). A password is never sent
without TLS, but to a loopback address (a server on the same host).
"""

from __future__ import annotations

import contextlib
import imaplib
import ipaddress
import re
import socket
import ssl
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from flows.webhook_http import TargetPolicy
from storage.imap_models import AfterImport, ImapSecurity
from storage.repositories.imap_mailboxes import MailboxSettings
from storage.settings import Settings

_SIZE = re.compile(rb"RFC822\.SIZE (\d+)")


class ImapTrouble(Exception):
    """The mailbox could not be polled: its server, its settings or the network."""


def quoted(name: str) -> str:
    """A mailbox name as an IMAP quoted string."""
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


# A literal (a message's bytes) longer than this is refused whatever size the server
# announced for the message before: a hostile server cannot fill the poller's memory.
MAX_LITERAL_BYTES = 64 * 1024 * 1024


class _CheckedConnect(imaplib.IMAP4):
    """Connects to the address that was checked, whatever `host` resolves to now."""

    _address: str

    def _create_socket(self, timeout: float | None) -> socket.socket:
        return socket.create_connection((self._address, self.port), timeout)

    def read(self, size: int) -> bytes:  # imaplib reads literals, and only them, here
        if size > MAX_LITERAL_BYTES:
            raise imaplib.IMAP4.abort(f"the server sent a literal of {size} bytes")
        return super().read(size)


class _Plain(_CheckedConnect):
    def __init__(self, address: str, host: str, port: int, timeout: float) -> None:
        self._address = address
        super().__init__(host, port, timeout)


class _Tls(imaplib.IMAP4_SSL, _CheckedConnect):
    def __init__(
        self, address: str, host: str, port: int, context: ssl.SSLContext, timeout: float
    ) -> None:
        self._address = address
        super().__init__(host, port, ssl_context=context, timeout=timeout)


@dataclass(frozen=True)
class ImapConnector:
    """How the poller reaches mailboxes: the TLS context, which addresses it may reach,
    and how long one command may take."""

    tls: ssl.SSLContext
    policy: TargetPolicy
    timeout: float = 30.0

    def _address(self, host: str, port: int) -> str:
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError) as exc:
            raise ImapTrouble(f"the server {host!r} was not found: {exc}") from exc
        for *_, sockaddr in infos:
            address = ipaddress.ip_address(str(sockaddr[0]).split("%")[0])
            refusal = self.policy.refusal(address)
            if refusal is not None:
                raise ImapTrouble(f"the server {host!r} is {refusal}, which is not reached")
        return str(infos[0][4][0])

    def _open(self, wanted: MailboxSettings) -> imaplib.IMAP4:
        address = self._address(wanted.host, wanted.port)
        if wanted.security == ImapSecurity.TLS:
            return _Tls(address, wanted.host, wanted.port, self.tls, self.timeout)
        client = _Plain(address, wanted.host, wanted.port, self.timeout)
        try:
            if wanted.security == ImapSecurity.STARTTLS:
                client.starttls(self.tls)
            elif not ipaddress.ip_address(address).is_loopback:
                raise ImapTrouble("without TLS only a server on this host is reached")
        except BaseException:
            with contextlib.suppress(Exception):  # a failed handshake may have closed it
                client.shutdown()
            raise
        return client

    @contextlib.contextmanager
    def session(self, wanted: MailboxSettings) -> Iterator[ImapSession]:
        """A logged-in session with the folder selected (read-write)."""
        try:
            client = self._open(wanted)
        except (OSError, imaplib.IMAP4.error, ssl.SSLError) as exc:
            raise ImapTrouble(f"cannot connect to {wanted.host}:{wanted.port}: {exc}") from exc
        try:
            session = ImapSession(client)
            session.login(wanted.username, wanted.password)
            session.select(wanted.folder)
            yield session
        except (OSError, imaplib.IMAP4.error, ssl.SSLError) as exc:
            raise ImapTrouble(f"{wanted.host}: {exc}") from exc
        finally:
            with contextlib.suppress(Exception):
                client.logout()
            with contextlib.suppress(Exception):  # a connection LOGOUT could not end
                client.shutdown()


class ImapSession:
    def __init__(self, client: imaplib.IMAP4) -> None:
        self._client = client
        self.uidvalidity = 0
        self.exists = 0

    def _ok(self, answer: tuple[str, Sequence[object]], doing: str) -> Sequence[object]:
        status, data = answer
        if status != "OK":
            raise ImapTrouble(f"{doing}: {status} {data!r}")
        return data

    def login(self, username: str, password: str) -> None:
        try:
            self._client.login(username, password)
        except imaplib.IMAP4.error as exc:
            raise ImapTrouble(f"the server refused the login: {exc}") from exc
        self._capabilities = " ".join(
            str(item, "ascii", "replace") if isinstance(item, bytes) else str(item)
            for item in self._ok(self._client.capability(), "CAPABILITY")
        ).upper()

    def select(self, folder: str) -> None:
        data = self._ok(self._client.select(quoted(folder)), f"the folder {folder!r}")
        self.exists = int(data[0]) if isinstance(data[0], bytes) and data[0].isdigit() else 0
        _, values = self._client.response("UIDVALIDITY")
        found = values[0] if values else None
        if not isinstance(found, bytes) or not found.isdigit():
            raise ImapTrouble(f"the folder {folder!r} has no UIDVALIDITY")
        self.uidvalidity = int(found)

    def candidates(self, after_import: str) -> list[int]:
        """The UIDs to take: unread ones when messages are marked read after import,
        every one when they are moved away."""
        criterion = "UNSEEN" if after_import == AfterImport.MARK_READ else "ALL"
        data = self._ok(self._client.uid("SEARCH", criterion), "SEARCH")
        found = data[0] if data and isinstance(data[0], bytes) else b""
        return sorted(int(uid) for uid in found.split())

    def size(self, uid: int) -> int | None:
        """The message's size in bytes; None if it is gone."""
        data = self._ok(self._client.uid("FETCH", str(uid), "(RFC822.SIZE)"), "FETCH SIZE")
        for item in data:
            line = item[0] if isinstance(item, tuple) else item
            match = _SIZE.search(line) if isinstance(line, bytes) else None
            if match:
                return int(match.group(1))
        return None

    def fetch(self, uid: int) -> bytes | None:
        """The message's raw bytes, not marked read; None if it is gone."""
        data = self._ok(self._client.uid("FETCH", str(uid), "(BODY.PEEK[])"), "FETCH")
        for item in data:
            if isinstance(item, tuple) and isinstance(item[1], bytes):
                return item[1]
        return None

    def settle(self, uid: int, after_import: str, move_to: str | None) -> None:
        """What the company wants done with a taken message: flag it read, or move it."""
        if after_import == AfterImport.MOVE and move_to:
            self._move(uid, move_to)
        else:
            self._ok(self._client.uid("STORE", str(uid), "+FLAGS", "(\\Seen)"), "STORE")

    def _move(self, uid: int, folder: str) -> None:
        self._client.create(quoted(folder))  # answers NO when it exists: fine
        if "MOVE" in self._capabilities.split():
            self._ok(self._client.uid("MOVE", str(uid), quoted(folder)), "MOVE")
            return
        self._ok(self._client.uid("COPY", str(uid), quoted(folder)), "COPY")
        self._ok(self._client.uid("STORE", str(uid), "+FLAGS", "(\\Deleted)"), "STORE")
        if "UIDPLUS" in self._capabilities.split():
            self._ok(self._client.uid("EXPUNGE", str(uid)), "UID EXPUNGE")
        else:
            self._ok(self._client.expunge(), "EXPUNGE")


def default_connector(settings: Settings) -> ImapConnector:
    """The system's CAs (and DOCINTAKE_IMAP_CA_FILE's); the webhook targets' policy."""
    tls = ssl.create_default_context()
    if settings.imap_ca_file:
        tls.load_verify_locations(cafile=settings.imap_ca_file)
    return ImapConnector(tls=tls, policy=TargetPolicy.from_settings(settings))

"""One webhook attempt on the wire: Standard Webhooks signing, the target check against
server-side request forgery, and a POST to the very address that was checked.

The host is resolved when the delivery is sent, every address it resolves to is
checked, and the connection goes to the first checked address: a DNS answer that
changes between the check and the connect (rebinding) cannot redirect it. The request
still names the host: `Host` header, and for https the TLS server name (SNI) and the
certificate check. Redirects are not followed (a 3xx is a failed attempt).
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import http.client
import ipaddress
import socket
import ssl
import threading
from dataclasses import dataclass
from urllib.parse import urlsplit

from storage.settings import Environment, Settings

SIGNATURE_VERSION = "v1"
MAX_RESPONSE_BYTES = 64 * 1024
USER_AGENT = "docintake-webhooks/1.0"

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


def sign(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    """`v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` under the secret's bytes
    (the base64 after `whsec_`)."""
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{message_id}.{timestamp}.".encode() + body
    digest = hmac.new(key, signed, hashlib.sha256).digest()
    return f"{SIGNATURE_VERSION},{base64.b64encode(digest).decode('ascii')}"


def signed_headers(secret: str, message_id: str, timestamp: int, body: bytes) -> dict[str, str]:
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": sign(secret, message_id, timestamp, body),
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
    }


class TargetRefused(Exception):
    """The URL may not be sent to (scheme, or an address the policy forbids)."""


class DeliveryFailed(Exception):
    """No HTTP answer: the connection failed or the time ran out."""


@dataclass(frozen=True)
class TargetPolicy:
    """Which addresses a delivery may reach besides public ones."""

    allow_loopback: bool
    allow_private: bool

    @classmethod
    def from_settings(cls, settings: Settings) -> TargetPolicy:
        """Production: public addresses only, unless the setting allows the others.
        Development and tests: loopback too, so a local receiver works with `make run`."""
        allowed = settings.webhook_allow_private_targets
        production = settings.environment is Environment.PRODUCTION
        return cls(allow_loopback=allowed or not production, allow_private=allowed)

    def refusal(self, address: IPAddress) -> str | None:
        """Why the address may not be reached, or None."""
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        if address.is_loopback:
            return None if self.allow_loopback or self.allow_private else "a loopback address"
        if address.is_global and not address.is_multicast:
            return None
        if self.allow_private:
            return None
        return "a private, link-local or reserved address"


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str  # with the query
    addresses: tuple[str, ...]  # the checked addresses, tried in this order

    @property
    def host_header(self) -> str:
        default = 443 if self.scheme == "https" else 80
        return self.host if self.port == default else f"{self.host}:{self.port}"


def resolve(url: str, policy: TargetPolicy) -> Target:
    """Resolve the URL's host now and check every address it has."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise TargetRefused("only http and https URLs with a host are sent to")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        infos = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except (OSError, ValueError) as exc:
        raise DeliveryFailed(f"cannot resolve {parts.hostname}: {exc}") from exc
    addresses = [ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in infos]
    for address in addresses:
        reason = policy.refusal(address)
        if reason is not None:
            raise TargetRefused(f"{parts.hostname} resolves to {address}, {reason}")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    checked = tuple(dict.fromkeys(str(address) for address in addresses))
    return Target(parts.scheme, parts.hostname, port, path, checked)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """TLS to a given address, with the host's name for SNI and the certificate check."""

    def __init__(
        self, address: str, port: int, server_name: str, context: ssl.SSLContext, timeout: float
    ) -> None:
        super().__init__(address, port, timeout=timeout, context=context)
        self._server_name = server_name
        self._tls = context

    def connect(self) -> None:
        raw = socket.create_connection((self.host, self.port), self.timeout)
        self.sock = self._tls.wrap_socket(raw, server_hostname=self._server_name)


def post(
    target: Target,
    headers: dict[str, str],
    body: bytes,
    timeout: float,
    tls: ssl.SSLContext | None = None,
) -> int:
    """POST the body; returns the status code. The whole exchange has `timeout` seconds:
    a receiver that answers byte by byte is cut off too."""
    connection = _connect(target, timeout, tls)
    deadline = threading.Timer(timeout, _cut, [connection])
    deadline.start()
    try:
        connection.request("POST", target.path, body, {**headers, "Host": target.host_header})
        response = connection.getresponse()
        response.read(MAX_RESPONSE_BYTES)
        return response.status
    except (OSError, http.client.HTTPException) as exc:
        if not deadline.is_alive():
            raise DeliveryFailed(f"no answer within {timeout:g} s") from exc
        raise DeliveryFailed(f"{type(exc).__name__}: {exc}") from exc
    finally:
        deadline.cancel()
        connection.close()


def _connect(
    target: Target, timeout: float, tls: ssl.SSLContext | None
) -> http.client.HTTPConnection:
    """A connection to the first checked address that accepts one."""
    problems = []
    for address in target.addresses:
        connection: http.client.HTTPConnection
        if target.scheme == "https":
            context = tls or ssl.create_default_context()
            connection = _PinnedHTTPSConnection(address, target.port, target.host, context, timeout)
        else:
            connection = http.client.HTTPConnection(address, target.port, timeout=timeout)
        try:
            connection.connect()
            return connection
        except OSError as exc:
            connection.close()
            problems.append(f"{address}: {exc}")
    raise DeliveryFailed("cannot connect: " + "; ".join(problems))


def _cut(connection: http.client.HTTPConnection) -> None:
    sock = connection.sock
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)

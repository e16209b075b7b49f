"""One webhook attempt on the wire: Standard Webhooks signing, the target check against
server-side request forgery, and a POST to the very address that was checked.

The host is resolved when the delivery is sent, every address it resolves to is
checked, and the connection goes to the first checked address: a DNS answer that
changes between the check and the connect (rebinding) cannot redirect it. The request
still names the host: `Host` header, and for https the TLS server name (SNI) and the
certificate check. Redirects are not followed (a 3xx is a failed attempt).

One deadline covers the whole attempt: the lookup, the connection to each address in
turn, the TLS handshake, sending and the answer. The sender's lease is longer than it
(flows/webhook_sender.py), so an attempt never outlives its claim.
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
import time
from collections.abc import Sequence
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


def signed_headers(
    secrets: Sequence[str], message_id: str, timestamp: int, body: bytes
) -> dict[str, str]:
    """One `v1,` signature per secret, space-separated (after a rotation: the new
    secret's, then the previous one's), as Standard Webhooks lets a receiver accept any."""
    signatures = " ".join(sign(secret, message_id, timestamp, body) for secret in secrets)
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": signatures,
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
    }


class TargetRefused(Exception):
    """The URL may not be sent to (scheme, or an address the policy forbids)."""


class DeliveryFailed(Exception):
    """No HTTP answer: the connection failed or the time ran out."""


class Deadline:
    """The one time bound of an attempt."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.at = time.monotonic() + seconds

    def remaining(self) -> float:
        """Seconds left; `DeliveryFailed` once there are none."""
        left = self.at - time.monotonic()
        if left <= 0:
            raise DeliveryFailed(self.exceeded)
        return left

    @property
    def exceeded(self) -> str:
        return f"no answer within {self.seconds:g} s"


# The resolver, at the one place the sender resolves (a test puts a slow one here).
getaddrinfo = socket.getaddrinfo


# Cloud metadata and similar host services: refused even where private targets are
# allowed, since they hand out credentials to whoever asks from inside the network.
# IPv4 and IPv6 link-local (169.254/16 with AWS, GCP, Azure, OpenStack, DigitalOcean and
# Oracle's 169.254.169.254, ECS's 169.254.170.2, EKS's 169.254.170.23; fe80::/10), AWS's
# IPv6 endpoints, Alibaba's, Oracle's older one and Azure's WireServer.
ALWAYS_REFUSED = tuple(
    ipaddress.ip_network(network)
    for network in (
        "169.254.0.0/16",
        "fe80::/10",
        "fd00:ec2::254/128",
        "fd00:ec2::23/128",
        "100.100.100.200/32",
        "192.0.0.192/32",
        "168.63.129.16/32",
    )
)
# Its addresses carry an IPv4 address in their last 32 bits, which the gateway then
# reaches: `is_global` says nothing of that one (nor for 6to4 and IPv4-compatible).
NAT64 = ipaddress.ip_network("64:ff9b::/96")
# Called global by Python 3.11, though only local networks route them: local-use NAT64
# (RFC 8215) and the deprecated site-local prefix.
NOT_GLOBAL_V6 = tuple(ipaddress.ip_network(n) for n in ("64:ff9b:1::/48", "fec0::/10"))


def embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address leads to: IPv4-mapped, NAT64, 6to4 or
    IPv4-compatible (`::a.b.c.d`, deprecated but still routed by some stacks)."""
    last_32_bits = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address in NAT64:
        return last_32_bits
    if address.sixtofour is not None:
        return address.sixtofour
    if int(address) >> 32 == 0 and int(address) > 1:  # not :: nor ::1
        return last_32_bits
    return None


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
        """Why the address may not be reached, or None. An IPv6 address that leads to an
        IPv4 one is refused when either is."""
        if isinstance(address, ipaddress.IPv6Address):
            embedded = embedded_ipv4(address)
            if embedded is not None:
                reason = self.refusal(embedded)
                if reason is not None or address.ipv4_mapped is not None:
                    return reason
            elif any(address in network for network in NOT_GLOBAL_V6):
                return None if self.allow_private else "a private or site-local address"
        if any(address in network for network in ALWAYS_REFUSED):
            return "a link-local or cloud metadata address"
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


def send(
    url: str,
    policy: TargetPolicy,
    headers: dict[str, str],
    body: bytes,
    timeout: float,
    tls: ssl.SSLContext | None = None,
) -> int:
    """One attempt, all of it within `timeout` seconds: the status code of the answer."""
    deadline = Deadline(timeout)
    return post(resolve(url, policy, deadline), headers, body, deadline, tls)


def resolve(url: str, policy: TargetPolicy, deadline: Deadline) -> Target:
    """Resolve the URL's host now and check every address it has."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise TargetRefused("only http and https URLs with a host are sent to")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as exc:
        raise DeliveryFailed(f"cannot resolve {parts.hostname}: {exc}") from exc
    infos = _lookup(parts.hostname, port, deadline)
    addresses = [ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in infos]
    for address in addresses:
        reason = policy.refusal(address)
        if reason is not None:
            raise TargetRefused(f"{parts.hostname} resolves to {address}, {reason}")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    checked = tuple(dict.fromkeys(str(address) for address in addresses))
    return Target(parts.scheme, parts.hostname, port, path, checked)


AddressInfo = list[tuple[object, object, object, object, tuple[object, ...]]]


def _lookup(host: str, port: int, deadline: Deadline) -> AddressInfo:
    """`getaddrinfo` has no timeout: it runs in a thread of its own, waited for until the
    deadline. One left behind ends on the resolver's own timeouts (resolv.conf)."""
    answer: list[AddressInfo | Exception] = []

    def look_up() -> None:
        try:
            answer.append(getaddrinfo(host, port, type=socket.SOCK_STREAM))  # type: ignore[arg-type]
        except (OSError, ValueError) as exc:
            answer.append(exc)

    thread = threading.Thread(target=look_up, name="webhook-dns", daemon=True)
    thread.start()
    thread.join(deadline.remaining())
    if not answer:
        raise DeliveryFailed(f"cannot resolve {host}: {deadline.exceeded}")
    if isinstance(answer[0], Exception):
        raise DeliveryFailed(f"cannot resolve {host}: {answer[0]}") from answer[0]
    return answer[0]


def post(
    target: Target,
    headers: dict[str, str],
    body: bytes,
    deadline: Deadline,
    tls: ssl.SSLContext | None = None,
) -> int:
    """POST the body; returns the status code. A watchdog shuts the socket down at the
    deadline, so a receiver that answers byte by byte is cut off too."""
    watchdog = _Watchdog(deadline)
    connection = http.client.HTTPConnection(target.host, target.port)
    try:
        connection.sock = _connect(target, deadline, tls, watchdog)
        connection.request("POST", target.path, body, {**headers, "Host": target.host_header})
        response = connection.getresponse()
        response.read(MAX_RESPONSE_BYTES)
        return response.status
    except (OSError, ValueError, http.client.HTTPException) as exc:
        if watchdog.fired:
            raise DeliveryFailed(deadline.exceeded) from exc
        raise DeliveryFailed(f"{type(exc).__name__}: {exc}") from exc
    finally:
        watchdog.cancel()
        connection.close()


def _connect(
    target: Target, deadline: Deadline, tls: ssl.SSLContext | None, watchdog: _Watchdog
) -> socket.socket:
    """A socket to the first checked address that accepts one, TLS done for https."""
    problems = []
    for address in target.addresses:
        try:
            raw = socket.create_connection((address, target.port), deadline.remaining())
        except OSError as exc:
            problems.append(f"{address}: {exc}")
            continue
        watchdog.watch(raw)
        if target.scheme != "https":
            return raw
        context = tls or ssl.create_default_context()
        try:
            wrapped = context.wrap_socket(
                raw, server_hostname=target.host, do_handshake_on_connect=False
            )
        except BaseException:
            raw.close()
            raise
        watchdog.watch(wrapped)
        try:
            wrapped.do_handshake()
        except BaseException:
            wrapped.close()
            raise
        return wrapped
    raise DeliveryFailed("cannot connect: " + "; ".join(problems))


class _Watchdog:
    """Shuts the attempt's socket down at the deadline, whatever it waits for then."""

    def __init__(self, deadline: Deadline) -> None:
        self.fired = False
        self._socket: socket.socket | None = None
        self._lock = threading.Lock()
        self._timer = threading.Timer(max(0.0, deadline.at - time.monotonic()), self._cut)
        self._timer.daemon = True
        self._timer.start()

    def watch(self, sock: socket.socket) -> None:
        with self._lock:
            self._socket = sock
            fired = self.fired
        if fired:
            _shut_down(sock)

    def cancel(self) -> None:
        self._timer.cancel()

    def _cut(self) -> None:
        with self._lock:
            self.fired = True
            sock = self._socket
        if sock is not None:
            _shut_down(sock)


def _shut_down(sock: socket.socket) -> None:
    # The plain socket's shutdown, also for a TLS socket: its own would drop the TLS
    # state under the thread that is using it.
    with contextlib.suppress(OSError):
        socket.socket.shutdown(sock, socket.SHUT_RDWR)

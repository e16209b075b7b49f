"""Where webhooks may go: only http and https, the host resolved when sending, private,
loopback and link-local addresses refused in production unless allowed; https with the
host's name for SNI and the certificate while connecting to the checked address."""

from __future__ import annotations

import datetime as dt
import ipaddress
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from sqlalchemy import Engine
from standardwebhooks import Webhook

from flows.webhook_http import Deadline, TargetPolicy, TargetRefused, resolve, sign
from storage.db import Database
from storage.settings import Environment, Settings
from testkit.webhook_receiver import new_receiver, receiving, trusting
from tests.conftest import make_tenant
from tests.flows.test_webhook_sender import (
    delivered,
    deliveries,
    endpoint,
    failed_upload,
    fast_settings,
    sending,
    wait_for,
)

REFUSED_IN_PRODUCTION = [
    "127.0.0.1",
    "::1",
    "::ffff:127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.1.1",
    "100.64.0.1",
    "fc00::1",
    "0.0.0.0",
    "::",
    "224.0.0.1",
    "240.0.0.1",
    # IPv6 forms that lead to a private IPv4 address, which `is_global` calls public.
    "64:ff9b::a00:1",  # NAT64 of 10.0.0.1
    "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
    "2002:a00:1::1",  # 6to4 of 10.0.0.1
    "2002:c0a8:101::",  # 6to4 of 192.168.1.1
    "::a00:1",  # IPv4-compatible 10.0.0.1
    "::7f00:1",  # IPv4-compatible 127.0.0.1
    "fec0::1",  # site-local
    "64:ff9b:1::a00:1",  # local-use NAT64
]
# Cloud metadata and link-local: refused even where private targets are allowed.
NEVER_ALLOWED = [
    "169.254.169.254",
    "169.254.170.2",
    "169.254.170.23",
    "169.254.1.1",
    "fe80::1",
    "fd00:ec2::254",
    "fd00:ec2::23",
    "100.100.100.200",
    "192.0.0.192",
    "168.63.129.16",
    "::ffff:169.254.169.254",
    "64:ff9b::a9fe:a9fe",  # NAT64 of 169.254.169.254
    "2002:a9fe:a9fe::",  # 6to4 of 169.254.169.254
    "::a9fe:a9fe",  # IPv4-compatible 169.254.169.254
]


def production(tmp_path: Path, **overrides: object) -> Settings:
    return fast_settings(
        tmp_path,
        environment=Environment.PRODUCTION,
        secret_key="s" * 40,
        database_url="postgresql+psycopg://docintake@db.internal/docintake",
        s3_endpoint="s3.internal:9000",
        s3_access_key="access",
        s3_secret_key="secret",
        public_base_url="https://docs.example.com",
        **overrides,
    )


@pytest.mark.parametrize("address", REFUSED_IN_PRODUCTION)
def test_production_refuses_addresses_that_are_not_public(address: str, tmp_path: Path) -> None:
    policy = TargetPolicy.from_settings(production(tmp_path))
    assert policy.refusal(ipaddress.ip_address(address)) is not None
    allowing = TargetPolicy.from_settings(production(tmp_path, webhook_allow_private_targets=True))
    assert allowing.refusal(ipaddress.ip_address(address)) is None


@pytest.mark.parametrize("address", NEVER_ALLOWED)
def test_metadata_and_link_local_addresses_are_never_allowed(address: str, tmp_path: Path) -> None:
    allowing = TargetPolicy.from_settings(production(tmp_path, webhook_allow_private_targets=True))
    assert allowing.refusal(ipaddress.ip_address(address)) is not None
    assert TargetPolicy.from_settings(fast_settings(tmp_path)).refusal(
        ipaddress.ip_address(address)
    )


PUBLIC = ["93.184.216.34", "2606:4700:4700::1111", "8.8.8.8", "64:ff9b::808:808", "2002:808:808::"]


@pytest.mark.parametrize("address", PUBLIC)
def test_public_addresses_are_allowed(address: str, tmp_path: Path) -> None:
    policy = TargetPolicy.from_settings(production(tmp_path))
    assert policy.refusal(ipaddress.ip_address(address)) is None


def test_development_allows_loopback_only(tmp_path: Path) -> None:
    policy = TargetPolicy.from_settings(fast_settings(tmp_path))
    assert policy.refusal(ipaddress.ip_address("127.0.0.1")) is None
    assert policy.refusal(ipaddress.ip_address("::1")) is None
    assert policy.refusal(ipaddress.ip_address("10.0.0.1")) is not None
    assert policy.refusal(ipaddress.ip_address("169.254.169.254")) is not None


@pytest.mark.parametrize("url", ["ftp://example.com/x", "file:///etc/passwd", "gopher://h/"])
def test_only_http_and_https(url: str, tmp_path: Path) -> None:
    with pytest.raises(TargetRefused):
        resolve(url, TargetPolicy.from_settings(fast_settings(tmp_path)), Deadline(5))


def test_names_are_resolved_and_checked_when_sending(tmp_path: Path) -> None:
    with pytest.raises(TargetRefused, match=r"localhost resolves to 127\.0\.0\.1"):
        resolve(
            "http://localhost:8000/hook",
            TargetPolicy.from_settings(production(tmp_path)),
            Deadline(5),
        )
    target = resolve("http://localhost:8000/hook?a=1", TargetPolicy(True, False), Deadline(5))
    assert target.addresses == ("127.0.0.1",)
    assert (target.host_header, target.path) == ("localhost:8000", "/hook?a=1")


def test_a_production_sender_refuses_a_loopback_receiver(
    fresh_engine: Engine, tmp_path: Path
) -> None:
    db = Database(fresh_engine)
    tenant = make_tenant(db)
    receiver = new_receiver(204)
    endpoint(db, tenant, receiver.url, production(tmp_path))
    failed_upload(db, tenant)
    with receiving(receiver), sending(db, production(tmp_path)):
        wait_for(lambda: deliveries(db)[0].attempts >= 2)
    assert receiver.requests() == []
    (refused,) = deliveries(db)
    assert refused.delivered_at is None
    assert refused.last_error is not None and refused.last_error.startswith("refused: 127.0.0.1")


def test_our_signature_is_the_reference_ones() -> None:
    secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    body = b'{"type":"upload.completed"}'
    reference = Webhook(secret).sign(
        "msg_1", dt.datetime.fromtimestamp(1700000000, dt.UTC), body.decode()
    )
    assert sign(secret, "msg_1", 1700000000, body) == reference


def _certificate(directory: Path) -> tuple[Path, Path]:
    """A self-signed certificate for `localhost`, made here (nothing is downloaded)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = dt.datetime.now(dt.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = directory / "localhost.pem", directory / "localhost.key"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


def test_https_names_the_host_while_connecting_to_the_checked_address(
    fresh_engine: Engine, tmp_path: Path
) -> None:
    db = Database(fresh_engine)
    tenant = make_tenant(db)
    certificate = _certificate(tmp_path)
    receiver = new_receiver(204)
    secret = endpoint(db, tenant, f"https://localhost:{receiver.port}/hook")
    failed_upload(db, tenant)
    tls = trusting(certificate[0])
    with receiving(receiver, certificate), sending(db, fast_settings(tmp_path), tls):
        wait_for(delivered(db))
    (request,) = receiver.requests()
    assert request.headers["host"] == f"localhost:{receiver.port}"
    Webhook(secret).verify(request.body, request.headers)

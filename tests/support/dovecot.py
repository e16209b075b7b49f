"""A real IMAP server for the tests: Dovecot from Debian's packages (dovecot-imapd), in a
directory of its own, on free loopback ports: plain IMAP with STARTTLS and IMAPS under a
certificate the test makes (its CA file is for the client's TLS context). Users and
passwords are a passwd-file; mail is Maildir under the directory.

As root (CI), Dovecot will not keep mail as root: the mail is owned by Debian's `dovecot`
user. As another user, everything runs as that user."""

from __future__ import annotations

import datetime
import ipaddress
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from testkit.seaweed import free_port

HOST_NAME = "localhost"
USERS = 200


@dataclass
class Dovecot:
    process: subprocess.Popen[bytes]
    directory: Path
    port: int
    tls_port: int
    ca_file: Path
    users: list[tuple[str, str]] = field(default_factory=list)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.directory, ignore_errors=True)

    def new_user(self) -> tuple[str, str]:
        """A mailbox of its own: (user, password). The users are made before the server
        starts (Dovecot reads a changed passwd-file at most once a second)."""
        return self.users.pop()


def dovecot_binary() -> str:
    found = shutil.which("dovecot") or "/usr/sbin/dovecot"
    if not Path(found).exists():
        raise RuntimeError("dovecot is not installed (Debian package dovecot-imapd)")
    return found


def _certificate(directory: Path) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, HOST_NAME)])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName(HOST_NAME), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = directory / "cert.pem", directory / "key.pem"
    cert_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    key_file.chmod(0o600)
    return cert_file, key_file


def _config(directory: Path, port: int, tls_port: int, cert: Path, key: Path) -> str:
    mail_user = "dovecot" if os.getuid() == 0 else pwd.getpwuid(os.getuid()).pw_name
    entry = pwd.getpwnam(mail_user)
    own_users = (
        ""
        if os.getuid() == 0
        else f"default_login_user = {mail_user}\ndefault_internal_user = {mail_user}\n"
    )
    return f"""
base_dir = {directory}/run
state_dir = {directory}/state
log_path = {directory}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = yes
ssl_cert = <{cert}
ssl_key = <{key}
auth_mechanisms = plain login
disable_plaintext_auth = no
first_valid_uid = {entry.pw_uid}
first_valid_gid = {entry.pw_gid}
{own_users}
passdb {{
  driver = passwd-file
  args = {directory}/users
}}
userdb {{
  driver = static
  args = uid={entry.pw_uid} gid={entry.pw_gid} home={directory}/home/%u
}}
mail_location = maildir:~/Maildir
namespace inbox {{
  inbox = yes
  separator = /
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {tls_port}
    ssl = yes
  }}
}}
service anvil {{
  chroot =
}}
service stats {{
  chroot =
}}
"""


def start_dovecot(timeout: float = 30.0) -> Dovecot:
    # Not under pytest's 0700 tmp path: Dovecot's unprivileged processes must reach it.
    directory = Path(tempfile.mkdtemp(prefix="dovecot-", dir="/tmp"))
    directory.chmod(0o755)
    home = directory / "home"
    home.mkdir()
    if os.getuid() == 0:
        entry = pwd.getpwnam("dovecot")
        os.chown(home, entry.pw_uid, entry.pw_gid)
    cert, key = _certificate(directory)
    port, tls_port = free_port(), free_port()
    config = directory / "dovecot.conf"
    config.write_text(_config(directory, port, tls_port, cert, key))
    users = [(f"user{number}", f"secret-{number}") for number in range(USERS)]
    (directory / "users").write_text("".join(f"{u}:{{PLAIN}}{p}\n" for u, p in users))
    with (directory / "stderr.log").open("wb") as stderr:
        process = subprocess.Popen(
            [dovecot_binary(), "-F", "-c", str(config)], stdout=subprocess.DEVNULL, stderr=stderr
        )
    server = Dovecot(process, directory, port, tls_port, cert, users)
    _wait_until_ready(server, timeout)
    return server


def _wait_until_ready(server: Dovecot, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            text = (server.directory / "stderr.log").read_text(errors="replace")
            raise RuntimeError(f"dovecot exited: {text[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", server.port), timeout=1) as sock:
                if sock.recv(100).startswith(b"* OK"):
                    return
        except OSError:
            time.sleep(0.2)
    server.stop()
    raise RuntimeError(f"dovecot did not answer in {timeout} s")

"""The IMAP settings form (docs/email.md, "IMAP polling"): the submitted fields checked
and turned into MailboxSettings, or the errors to show beside them."""

from __future__ import annotations

from dataclasses import dataclass, field

from starlette.datastructures import FormData

from api.web.i18n import N_
from storage.imap_models import AfterImport, ImapSecurity
from storage.repositories.imap_mailboxes import MailboxSettings
from storage.repositories.mail_addresses import SUFFIX_TYPES

FIELDS = ("host", "port", "security", "username", "password", "folder", "after_import", "move_to")
DOCUMENT_TYPES = tuple(document_type.value for document_type in SUFFIX_TYPES.values())
MAX_TEXT = 255


@dataclass
class ImapForm:
    values: dict[str, str]
    errors: dict[str, str] = field(default_factory=dict)
    settings: MailboxSettings | None = None


def form_values(current: MailboxSettings | None) -> dict[str, str]:
    """What the form shows: the stored settings (never the password), or the defaults."""
    if current is None:
        return {
            "port": "993",
            "security": ImapSecurity.TLS.value,
            "folder": "INBOX",
            "after_import": AfterImport.MARK_READ.value,
            "document_type": "auto",
            "enabled": "on",
        }
    return {
        "host": current.host,
        "port": str(current.port),
        "security": current.security,
        "username": current.username,
        "folder": current.folder,
        "after_import": current.after_import,
        "move_to": current.move_to or "",
        "document_type": current.document_type,
        "enabled": "on" if current.enabled else "",
    }


def _texts(submitted: FormData) -> dict[str, str]:
    names = (*FIELDS, "document_type", "enabled")
    values = {name: submitted.get(name) for name in names}
    return {
        name: value.strip()[:MAX_TEXT] if name != "password" else value[:MAX_TEXT]
        for name, value in values.items()
        if isinstance(value, str)
    }


def _errors(values: dict[str, str], stored_password: str | None) -> dict[str, str]:
    errors = {}
    if not values.get("host") or any(c.isspace() or c in "/@" for c in values["host"]):
        errors["host"] = N_("Enter the server's host name, such as imap.example.com.")
    if not values.get("port", "").isdigit() or not 0 < int(values["port"]) < 65536:
        errors["port"] = N_("Enter a port from 1 to 65535 (993 for TLS, 143 for STARTTLS).")
    if values.get("security") not in {security.value for security in ImapSecurity}:
        errors["security"] = N_("Choose how the connection is secured.")
    if not values.get("username"):
        errors["username"] = N_("Enter the mailbox's user name.")
    if not values.get("password") and stored_password is None:
        errors["password"] = N_("Enter the mailbox's password.")
    if not values.get("folder"):
        errors["folder"] = N_("Enter the folder to take messages from, such as INBOX.")
    if values.get("after_import") not in {after.value for after in AfterImport}:
        errors["after_import"] = N_("Choose what happens to a message once it is taken.")
    elif values["after_import"] == AfterImport.MOVE and not values.get("move_to"):
        errors["move_to"] = N_("Enter the folder messages are moved to.")
    elif values.get("move_to") and values.get("move_to") == values.get("folder"):
        errors["move_to"] = N_("Messages cannot be moved to the folder they are taken from.")
    if values.get("document_type", "auto") not in DOCUMENT_TYPES:
        errors["document_type"] = N_("Choose a document type.")
    return errors


def parse_imap_form(submitted: FormData, stored_password: str | None) -> ImapForm:
    """A blank password keeps the stored one (the form never shows it)."""
    values = _texts(submitted)
    errors = _errors(values, stored_password)
    form = ImapForm({k: v for k, v in values.items() if k != "password"}, errors)
    if errors:
        return form
    moving = values["after_import"] == AfterImport.MOVE
    form.settings = MailboxSettings(
        host=values["host"],
        port=int(values["port"]),
        security=values["security"],
        username=values["username"],
        password=values.get("password") or stored_password or "",
        folder=values["folder"],
        after_import=values["after_import"],
        move_to=values.get("move_to") if moving else None,
        document_type=values.get("document_type", "auto"),
        enabled=values.get("enabled") == "on",
    )
    return form

"""Which SEPA message a payment file is, and the XML Schema it is checked against.

ISO 20022 names each version by its namespace (`urn:iso:std:iso:20022:tech:xsd:pain.001.001.09`).
National variants restrict an ISO version without renaming its elements:
- the German DK variants (Deutsche Kreditwirtschaft, DFÜ-Abkommen Anlage 3) take a middle
  number of their own: pain.001.002.03 and pain.001.003.03 restrict pain.001.001.03,
  pain.008.002.02 and pain.008.003.02 restrict pain.008.001.02;
- the Swiss variants of SIX Interbank Clearing have a namespace of their own,
  `http://www.six-interbank-clearing.com/de/pain.001.001.03.ch.02.xsd`, and restrict the
  ISO version their name starts with.
A variant is valid against the ISO schema it restricts, so where that schema is installed a
variant is checked against it (its own restrictions are not). docs/einvoice.md, "SEPA
variants".
"""

from __future__ import annotations

import copy
import re
import threading
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from processors.xmlsafe import make_parser

ISO_PREFIX = "urn:iso:std:iso:20022:tech:xsd:"
_ISO = re.compile(r"^urn:iso:std:iso:20022:tech:xsd:(pain\.00[18])\.(\d{3})\.(\d{2})$")
_SIX = re.compile(
    r"^http://www\.six-interbank-clearing\.com/[a-z]{2}/"
    r"((pain\.00[18]\.001\.\d{2})\.ch\.\d{2})\.xsd$"
)
_DK_BASES = {
    "pain.001.002.03": "pain.001.001.03",
    "pain.001.003.03": "pain.001.001.03",
    "pain.008.002.02": "pain.008.001.02",
    "pain.008.003.02": "pain.008.001.02",
}
GERMAN_DK = "German DK"
SWISS_SIX = "Swiss SIX"


@dataclass(frozen=True, slots=True)
class MessageType:
    name: str  # "pain.001.001.09", "pain.001.003.03", "pain.001.001.03.ch.02"
    base: str | None  # the ISO version whose schema applies; None when not known
    variant: str | None  # GERMAN_DK, SWISS_SIX, or None for an ISO version


def message_type_of(namespace: str | None) -> MessageType | None:
    iso = _ISO.match(namespace or "")
    if iso is not None:
        message, variant, version = iso.groups()
        name = f"{message}.{variant}.{version}"
        if variant == "001":
            return MessageType(name, name, None)
        return MessageType(name, _DK_BASES.get(name), GERMAN_DK)
    six = _SIX.match(namespace or "")
    if six is not None:
        return MessageType(six.group(1), six.group(2), SWISS_SIX)
    return None


@dataclass(frozen=True, slots=True)
class SchemaCheck:
    schema: str | None  # the XSD the file was checked against, None when none applies
    summary: str  # for the accountant: what was checked


class SchemaError(ValueError):
    pass


_schemas: dict[Path, etree.XMLSchema] = {}
_schemas_lock = threading.Lock()


def sepa_xsd(version: str, rules_root: Path | None = None) -> Path | None:
    from processors.einvoice.rules import default_rules_dir  # one rules root for all kinds

    path = (rules_root or default_rules_dir()) / "sepa" / f"{version}.xsd"
    return path if path.is_file() else None


def compile_schemas(rules_root: Path | None = None) -> int:
    """Compile every SEPA schema now (a worker's warm-up); returns how many."""
    from processors.einvoice.rules import default_rules_dir

    paths = sorted(((rules_root or default_rules_dir()) / "sepa").glob("*.xsd"))
    for path in paths:
        _schema(path)
    return len(paths)


def _schema(path: Path) -> etree.XMLSchema:
    with _schemas_lock:
        if path not in _schemas:
            _schemas[path] = etree.XMLSchema(etree.parse(str(path), parser=make_parser()))
        return _schemas[path]


def check_schema(
    tree: etree._ElementTree, message: MessageType, rules_root: Path | None = None
) -> SchemaCheck:
    """Validate against the message's ISO schema; raises `SchemaError` on the first error."""
    path = sepa_xsd(message.base, rules_root) if message.base else None
    if path is None or message.base is None:
        return SchemaCheck(None, "not available for this version")
    schema = _schema(path)
    checked = tree if message.variant is None else _as_iso(tree, message.base)
    if not schema.validate(checked):
        first_error = schema.error_log[0]  # type: ignore[index]
        raise SchemaError(
            f"{message.base} XML Schema: line {first_error.line}: {first_error.message}"
        )
    if message.variant is None:
        return SchemaCheck(message.base, "passed")
    return SchemaCheck(
        message.base,
        f"passed against ISO {message.base}, which {message.variant} {message.name} "
        "restricts (its own restrictions are not checked)",
    )


def _as_iso(tree: etree._ElementTree, base: str) -> etree._ElementTree:
    """A copy of the variant's tree with its elements in the ISO base's namespace."""
    copied = copy.deepcopy(tree)
    variant_namespace = etree.QName(copied.getroot()).namespace
    iso_namespace = ISO_PREFIX + base
    for element in copied.getroot().iter(etree.Element):
        if etree.QName(element).namespace == variant_namespace:
            element.tag = f"{{{iso_namespace}}}{etree.QName(element).localname}"
    etree.cleanup_namespaces(copied)
    return copied

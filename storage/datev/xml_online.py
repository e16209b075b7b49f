"""DATEV XML-Schnittstelle online, version 6.0: a ZIP with `document.xml` (one
`document` per invoice: its original file and its ledger XML) and, per invoice, the
ledger XML (`LedgerImport`, accountsPayableLedger or accountsReceivableLedger, one entry
per VAT rate). DATEV Unternehmen online imports it as vouchers with their booking data.

Element order and types as in DATEV's schemas Document_v060.xsd and
Belegverwaltung_online_ledger_import_v060.xsd with their *_types_v060.xsd; every value is
made to fit its simple type (invoice ids, VAT ids, text lengths; docs/datev.md)."""

from __future__ import annotations

import io
import re
import uuid
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from lxml import etree

from processors.base import DocumentType
from storage.datev.bookings import Booking, Voucher
from storage.datev.extf import ansi_text, document_field
from storage.datev.settings import DatevSettings

DOCUMENT_NS = "http://xml.datev.de/bedi/tps/document/v06.0"
LEDGER_NS = "http://xml.datev.de/bedi/tps/ledger/v060"
XSI_NS = "http://www.w3.org/2001/XMLSchema-instance"
DOCUMENT_SCHEMA = f"{DOCUMENT_NS} Document_v060.xsd"
LEDGER_SCHEMA = f"{LEDGER_NS} Belegverwaltung_online_ledger_import_v060.xsd"
GENERATOR = "docintake"
# The fixed attribute every LedgerImport carries (xml_data, fixed in the schema).
XML_DATA = "Kopie nur zur Verbuchung berechtigt nicht zum Vorsteuerabzug"
_XSI_TYPE = f"{{{XSI_NS}}}type"
_FOLDERS = {
    DocumentType.SUPPLIER_INVOICE: ("accountsPayableLedger", "1", "Eingangsrechnungen"),
    DocumentType.CUSTOMER_INVOICE: ("accountsReceivableLedger", "2", "Ausgangsrechnungen"),
}
_BOOKING_TEXT_LIMIT = 60
_PARTY_NAME_LIMIT = 50
_CITY_LIMIT = 30
_CLIENT_NAME_LIMIT = 36
_VAT_ID_LIMIT = 15
_NOT_IN_VAT_ID = re.compile(r"[^0-9A-Za-z]")
# Characters XML 1.0 cannot carry at all (C0 controls other than tab, LF, CR).
_NOT_IN_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
_ALLOWED_EXTENSIONS = frozenset({".pdf", ".xml", ".tif", ".tiff", ".jpg", ".jpeg", ".png"})
# Zip entries get a fixed time: the same export writes the same bytes.
_ENTRY_TIME = (1980, 1, 1, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class Document:
    """An invoice in the package: its id (the document GUID), bookings and original."""

    guid: uuid.UUID
    voucher: Voucher
    original_name: str  # the uploaded file's name, for its extension
    original: bytes


def file_names(document: Document) -> tuple[str, str]:
    """(original, ledger XML) inside the ZIP: the GUID, no characters DATEV warns about."""
    suffix = "." + document.original_name.rsplit(".", 1)[-1].lower()
    if "." not in document.original_name or suffix not in _ALLOWED_EXTENSIONS:
        suffix = ".pdf"
    return f"{document.guid.hex}{suffix}", f"{document.guid.hex}_ledger.xml"


def document_xml(
    documents: Sequence[Document], settings: DatevSettings, client_name: str, created: datetime
) -> bytes:
    root = _root(DOCUMENT_NS, "archive", DOCUMENT_SCHEMA)
    root.set("generatingSystem", GENERATOR)
    header = _sub(root, DOCUMENT_NS, "header")
    _sub(header, DOCUMENT_NS, "date", created.strftime("%Y-%m-%dT%H:%M:%S"))
    _sub(header, DOCUMENT_NS, "description", "docintake DATEV export")
    _sub(header, DOCUMENT_NS, "consultantNumber", str(settings.consultant_number))
    _sub(header, DOCUMENT_NS, "clientNumber", str(settings.client_number))
    client = _text(ansi_text(client_name, _CLIENT_NAME_LIMIT), _CLIENT_NAME_LIMIT)
    if client:  # the schema's type has a minimum length of 1
        _sub(header, DOCUMENT_NS, "clientName", client)
    content = _sub(root, DOCUMENT_NS, "content")
    for document in documents:
        ledger, type_code, folder = _FOLDERS[document.voucher.direction]
        original_name, ledger_name = file_names(document)
        entry = _sub(content, DOCUMENT_NS, "document")
        entry.set("guid", str(document.guid))
        entry.set("type", type_code)
        _sub(entry, DOCUMENT_NS, "extension").attrib.update(
            {_XSI_TYPE: "File", "name": original_name}
        )
        extension = _sub(entry, DOCUMENT_NS, "extension")
        extension.attrib.update({_XSI_TYPE: ledger, "datafile": ledger_name})
        period = document.voucher.issue_date.strftime("%Y-%m")
        _sub(extension, DOCUMENT_NS, "property").attrib.update({"value": period, "key": "1"})
        _sub(extension, DOCUMENT_NS, "property").attrib.update({"value": folder, "key": "3"})
    return _serialize(root)


def ledger_xml(voucher: Voucher) -> bytes:
    ledger, _, _ = _FOLDERS[voucher.direction]
    root = _root(LEDGER_NS, "LedgerImport", LEDGER_SCHEMA)
    root.set("generator_info", GENERATOR)
    root.set("generating_system", GENERATOR)
    root.set("xml_data", XML_DATA)
    consolidate = _sub(root, LEDGER_NS, "consolidate")
    invoice_id = document_field(voucher.number)  # p10040: Belegfeld 1's characters, 36
    consolidate.attrib.update(
        {
            "consolidatedAmount": _decimal(voucher.total),
            "consolidatedDate": voucher.issue_date.isoformat(),
            "consolidatedInvoiceId": invoice_id,
            "consolidatedCurrencyCode": "EUR",
        }
    )
    for booking in voucher.bookings:
        _ledger_entry(_sub(consolidate, LEDGER_NS, ledger), voucher, booking, invoice_id)
    return _serialize(root)


def _ledger_entry(
    entry: etree._Element, voucher: Voucher, booking: Booking, invoice_id: str
) -> None:
    customer = voucher.direction is DocumentType.CUSTOMER_INVOICE
    _sub(entry, LEDGER_NS, "date", voucher.issue_date.isoformat())
    _sub(entry, LEDGER_NS, "amount", _decimal(booking.signed_amount))
    _sub(entry, LEDGER_NS, "accountNo", str(booking.contra_account))
    if booking.bu_key:
        _sub(entry, LEDGER_NS, "buCode", booking.bu_key)
    if Decimal(booking.rate):  # p33 says a rate of 0.00 is not allowed: left out
        _sub(entry, LEDGER_NS, "tax", f"{Decimal(booking.rate):.2f}")
    _sub(entry, LEDGER_NS, "currencyCode", "EUR")
    _sub(entry, LEDGER_NS, "invoiceId", invoice_id)
    text = _text(ansi_text(voucher.text, _BOOKING_TEXT_LIMIT), _BOOKING_TEXT_LIMIT)
    if text:
        _sub(entry, LEDGER_NS, "bookingText", text)
    vat_id = vat_id_of(voucher.partner.vat_id)
    if vat_id:
        _sub(entry, LEDGER_NS, "vatId", vat_id)
    if voucher.due_date is not None and voucher.due_date > voucher.issue_date:
        _sub(entry, LEDGER_NS, "dueDate", voucher.due_date.isoformat())
    _sub(entry, LEDGER_NS, "bpAccountNo", str(booking.account))
    party = "customer" if customer else "supplier"
    name = _text(voucher.partner.name, _PARTY_NAME_LIMIT)
    if name:
        _sub(entry, LEDGER_NS, f"{party}Name", name)
    city = _text(voucher.partner.address.city if voucher.partner.address else None, _CITY_LIMIT)
    if city:
        _sub(entry, LEDGER_NS, f"{party}City", city)


def vat_id_of(value: str | None) -> str | None:
    """The partner's VAT id as p10027 takes it: letters and digits, at most 15; none when
    nothing is left or it is longer (a Swiss `CHE-123.456.789 MWST` is 16)."""
    compact = _NOT_IN_VAT_ID.sub("", value or "")
    return compact if 0 < len(compact) <= _VAT_ID_LIMIT else None


def _text(value: str | None, limit: int) -> str | None:
    """Text on one line without characters XML cannot hold, at most `limit`; None when
    empty (every text type of the schemas has a minimum length of 1)."""
    flat = " ".join(_NOT_IN_XML.sub(" ", value or "").split())[:limit].strip()
    return flat or None


def package(
    documents: Sequence[Document], settings: DatevSettings, client_name: str, created: datetime
) -> bytes:
    """The ZIP: document.xml first, then each invoice's original and ledger XML."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        _add(archive, "document.xml", document_xml(documents, settings, client_name, created))
        for document in documents:
            original_name, ledger_name = file_names(document)
            _add(archive, original_name, document.original)
            _add(archive, ledger_name, ledger_xml(document.voucher))
    return buffer.getvalue()


def _add(archive: zipfile.ZipFile, name: str, data: bytes) -> None:
    archive.writestr(zipfile.ZipInfo(name, _ENTRY_TIME), data, zipfile.ZIP_DEFLATED)


def _decimal(value: Decimal) -> str:
    return f"{value:.2f}"


def _root(namespace: str, tag: str, schema_location: str) -> etree._Element:
    """The root in `namespace` as the default one, with its schema location, version 6.0."""
    nsmap = {None: namespace, "xsi": XSI_NS}
    root = etree.Element(f"{{{namespace}}}{tag}", nsmap=nsmap)  # type: ignore[arg-type]  # lxml-stubs omit the None key
    root.set(f"{{{XSI_NS}}}schemaLocation", schema_location)
    root.set("version", "6.0")
    return root


def _sub(
    parent: etree._Element, namespace: str, tag: str, text: str | None = None
) -> etree._Element:
    element = etree.SubElement(parent, f"{{{namespace}}}{tag}")
    if text is not None:
        element.text = text
    return element


def _serialize(root: etree._Element) -> bytes:
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)

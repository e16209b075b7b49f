"""The XML-Schnittstelle online package: golden document.xml and ledger XMLs of the
generated set, the structure DATEV's schemas (Document_v060.xsd,
Belegverwaltung_online_ledger_import_v060.xsd) prescribe, values that fit the schemas'
simple types, validation against the XSDs themselves where they are at hand
(DATEV_XSD_DIR: they are not vendored, docs/datev.md), and the service's own intake
recognising every part of it as DATEV."""

from __future__ import annotations

import io
import os
import re
import uuid
import zipfile
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from lxml import etree

from processors.base import (
    CompanyProfile,
    DocumentType,
    FailureCode,
    ProcessingContext,
    ProcessingError,
)
from processors.invoice_model import Address, Party
from processors.pipeline import IntakeRejected, read_document
from storage.datev import xml_online
from storage.datev.bookings import Booking, Voucher
from tests.storage.datev.writers import CREATED, SETTINGS, documents

GOLDEN = Path(__file__).parent / "golden"
DOC = f"{{{xml_online.DOCUMENT_NS}}}"
LEDGER = f"{{{xml_online.LEDGER_NS}}}"
XSI_TYPE = f"{{{xml_online.XSI_NS}}}type"
# The ledger entry's elements in the order of the schema's sequences (base, base1, and
# the payable/receivable extension), every one of them optional but date, amount,
# currencyCode and invoiceId.
LEDGER_ORDER = (
    "date",
    "amount",
    "discountAmount",
    "accountNo",
    "buCode",
    "costAmount",
    "costCategoryId",
    "costCategoryId2",
    "tax",
    "information",
    "currencyCode",
    "invoiceId",
    "bookingText",
    "typeOfReceivable",
    "ownVatId",
    "shipFromCountry",
    "partyId",
    "paidAt",
    "internalInvoiceId",
    "vatId",
    "shipToCountry",
    "exchangeRate",
    "bankCode",
    "bankAccount",
    "bankCountry",
    "iban",
    "swiftCode",
    "accountName",
    "paymentConditionsId",
    "paymentOrder",
    "discountPercentage",
    "discountPaymentDate",
    "discountAmount2",
    "discountPercentage2",
    "discountPaymentDate2",
    "dueDate",
    "bpAccountNo",
    "deliveryDate",
    "orderId",
    "supplierName",
    "supplierCity",
    "customerName",
    "customerCity",
)


# Patterns and lengths of the simple types our values go into
# (Belegverwaltung_online_ledger_types_v060.xsd: p10040, p10027, p33; p10036, p10012,
# p10019 and Document_types_v060.xsd p17 are 1 to 60, 50, 30 and 36 characters).
INVOICE_ID = re.compile(r"[a-zA-Z0-9$%&*+\-/]{0,36}")
VAT_ID = re.compile(r"[0-9a-zA-Z. _]{1,15}")
RATE = re.compile(r"[+\-]?([1-9]\d?|0)\.\d{2}")
TEXT_LIMITS = {"bookingText": 60, "supplierName": 50, "supplierCity": 30, "customerName": 50}
SCHEMA_DIR = os.environ.get("DATEV_XSD_DIR", "")


def package() -> zipfile.ZipFile:
    data = xml_online.package(documents(), SETTINGS, "Acme GmbH", CREATED)
    return zipfile.ZipFile(io.BytesIO(data))


def test_the_package_holds_document_xml_the_originals_and_a_ledger_per_invoice() -> None:
    names = package().namelist()
    assert names[0] == "document.xml"
    expected = [name for document in documents() for name in xml_online.file_names(document)]
    assert names[1:] == expected
    assert package().read(expected[0]) == documents()[0].original


@pytest.mark.parametrize("index", [None, 0, 1, 2, 3])
def test_xml_files_match_the_golden_files(index: int | None) -> None:
    name = "document.xml" if index is None else xml_online.file_names(documents()[index])[1]
    golden = GOLDEN / ("document.xml" if index is None else f"ledger_{index}.xml")
    if os.environ.get("DATEV_WRITE_GOLDEN"):
        golden.write_bytes(package().read(name))
    assert package().read(name) == golden.read_bytes()


def test_document_xml_follows_document_v060() -> None:
    root = etree.fromstring(package().read("document.xml"))
    assert root.tag == f"{DOC}archive" and root.get("version") == "6.0"
    header = root.find(f"{DOC}header")
    assert header is not None
    assert [child.tag.removeprefix(DOC) for child in header] == [
        "date",
        "description",
        "consultantNumber",
        "clientNumber",
        "clientName",
    ]
    assert header.findtext(f"{DOC}date") == "2026-02-03T09:30:15"
    entries = root.findall(f"{DOC}content/{DOC}document")
    assert len(entries) == len(documents())
    for entry, document in zip(entries, documents(), strict=True):
        original, ledger = xml_online.file_names(document)
        supplier = document.voucher.direction is DocumentType.SUPPLIER_INVOICE
        assert entry.get("guid") == str(document.guid)
        assert entry.get("type") == ("1" if supplier else "2")
        assert entry.get("processID") is None  # 1 is not allowed with ledger data
        file_ext, ledger_ext = entry.findall(f"{DOC}extension")
        assert (file_ext.get(XSI_TYPE), file_ext.get("name")) == ("File", original)
        kind = "accountsPayableLedger" if supplier else "accountsReceivableLedger"
        assert (ledger_ext.get(XSI_TYPE), ledger_ext.get("datafile")) == (kind, ledger)
        properties = [(p.get("key"), p.get("value")) for p in ledger_ext]
        folder = "Eingangsrechnungen" if supplier else "Ausgangsrechnungen"
        assert properties == [("1", document.voucher.issue_date.strftime("%Y-%m")), ("3", folder)]


@pytest.mark.parametrize("index", [0, 1, 2, 3])
def test_ledger_xml_follows_ledger_import_v060(index: int) -> None:
    document = documents()[index]
    root = etree.fromstring(package().read(xml_online.file_names(document)[1]))
    assert root.tag == f"{LEDGER}LedgerImport" and root.get("version") == "6.0"
    assert root.get("xml_data") == xml_online.XML_DATA and root.get("generator_info")
    (consolidate,) = root
    entries = list(consolidate)
    assert len(entries) == len(document.voucher.bookings)
    total = Decimal(0)
    for entry in entries:
        names = [child.tag.removeprefix(LEDGER) for child in entry]
        assert names == sorted(names, key=LEDGER_ORDER.index)
        assert {"date", "amount", "currencyCode", "invoiceId"} <= set(names)
        assert entry.findtext(f"{LEDGER}date") == consolidate.get("consolidatedDate")
        assert entry.findtext(f"{LEDGER}invoiceId") == consolidate.get("consolidatedInvoiceId")
        amount = Decimal(entry.findtext(f"{LEDGER}amount") or "0")
        assert amount != 0 and amount.as_tuple().exponent == -2
        total += amount
    assert Decimal(consolidate.get("consolidatedAmount") or "") == total


def test_a_credit_note_has_negative_amounts() -> None:
    root = etree.fromstring(package().read(xml_online.file_names(documents()[3])[1]))
    assert root[0].get("consolidatedAmount") == "-119.00"


def _awkward() -> xml_online.Document:
    """A supplier invoice whose values do not fit DATEV's types as they come: an invoice
    number with a space, `#` and an umlaut, a Swiss VAT id (16 characters), a name with
    a control character and too long, a long city, and a 0 % line."""
    partner = Party(
        name="Fa.\x07 Müller   Sanitär- und Heizungstechnik GmbH & Co. KG Zweigniederlassung",
        vat_id="CHE-123.456.789 MWST",
        address=Address(city="Villingen-Schwenningen im Schwarzwald-Baar-Kreis"),
    )
    bookings = (
        Booking(Decimal("119.00"), False, 70000, 3400, None, "19", Decimal("119.00")),
        Booking(Decimal("50.00"), False, 70000, 3200, None, "0", Decimal("50.00")),
    )
    voucher = Voucher(
        "RE 2026/ä#17", date(2026, 1, 9), None, DocumentType.SUPPLIER_INVOICE, partner,
        f"{partner.name} RE 2026/ä#17", bookings,
    )  # fmt: skip
    return xml_online.Document(uuid.UUID(int=99), voucher, "scan.PDF", b"%PDF-1.7 scan")


def test_values_are_made_to_fit_the_schema_types() -> None:
    document = _awkward()
    root = etree.fromstring(xml_online.ledger_xml(document.voucher))
    consolidate = root[0]
    assert consolidate.get("consolidatedInvoiceId") == "RE2026/17"
    for entry in consolidate:
        values = {child.tag.removeprefix(LEDGER): child.text or "" for child in entry}
        assert INVOICE_ID.fullmatch(values["invoiceId"])
        assert "vatId" not in values  # CHE123456789MWST has 16 characters
        assert all(0 < len(values[k]) <= n for k, n in TEXT_LIMITS.items() if k in values)
        assert all(ord(char) >= 32 for text in values.values() for char in text)
        if "tax" in values:
            assert RATE.fullmatch(values["tax"]) and Decimal(values["tax"]) != 0
    assert [e.findtext(f"{LEDGER}tax") for e in consolidate] == ["19.00", None]
    assert xml_online.vat_id_of("DE 811 111 111") == "DE811111111"
    assert VAT_ID.fullmatch(xml_online.vat_id_of("NL123456789B01") or "")
    header = etree.fromstring(xml_online.document_xml([document], SETTINGS, " ", CREATED))[0]
    assert header.find(f"{DOC}clientName") is None  # the type's minimum length is 1


@pytest.mark.skipif(not SCHEMA_DIR, reason="DATEV's XSDs are not vendored; set DATEV_XSD_DIR")
def test_every_xml_of_the_package_validates_against_datev_schemas() -> None:
    """With the four XSDs of version 6.0 in DATEV_XSD_DIR (Document_v060.xsd,
    Document_types_v060.xsd, Belegverwaltung_online_ledger_import_v060.xsd and
    Belegverwaltung_online_ledger_types_v060.xsd), every document.xml and ledger XML of
    the generated set and of the awkward invoice validates."""
    schemas = Path(SCHEMA_DIR)
    document_schema = etree.XMLSchema(etree.parse(schemas / "Document_v060.xsd"))
    ledger_schema = etree.XMLSchema(
        etree.parse(schemas / "Belegverwaltung_online_ledger_import_v060.xsd")
    )
    for documents_in in (documents(), [_awkward()], [*documents(), _awkward()]):
        data = xml_online.package(documents_in, SETTINGS, "Acme GmbH", CREATED)
        archive = zipfile.ZipFile(io.BytesIO(data))
        for name in archive.namelist():
            if not name.endswith(".xml"):
                continue
            schema = document_schema if name == "document.xml" else ledger_schema
            parsed = etree.fromstring(archive.read(name))
            assert schema.validate(parsed), (name, str(schema.error_log))


def _context(document_type: DocumentType = DocumentType.AUTO) -> ProcessingContext:
    return ProcessingContext(document_type, "export.zip", CompanyProfile("Acme GmbH"))


def test_the_service_recognises_the_zip_as_a_datev_archive() -> None:
    data = xml_online.package(documents(), SETTINGS, "Acme GmbH", CREATED)
    with pytest.raises(IntakeRejected) as caught:
        read_document(data, _context())
    assert "DATEV document archive" in caught.value.message


@pytest.mark.parametrize("member", ["document.xml", "ledger"])
def test_the_service_refuses_every_xml_of_the_package_as_datev(member: str) -> None:
    archive = package()
    names = [n for n in archive.namelist() if (n == member or n.endswith("_ledger.xml"))]
    for name in names if member == "ledger" else [member]:
        with pytest.raises(ProcessingError) as caught:
            read_document(archive.read(name), _context())
        assert caught.value.code is FailureCode.UNSUPPORTED_FILE_TYPE
        assert "DATEV" in caught.value.message

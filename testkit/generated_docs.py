"""Invoices and bank statements rendered to PDF (fpdf2) from known data.

Several layouts, languages and number formats, so tests can compare what the
processors read field by field with the data the PDF was made from.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from fpdf import FPDF
from fpdf.enums import XPos, YPos

ENGLISH_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


@dataclass(frozen=True)
class VatRow:
    rate: Decimal
    net: Decimal

    @property
    def tax(self) -> Decimal:
        return (self.net * self.rate / 100).quantize(Decimal("0.01"))


@dataclass(frozen=True)
class InvoiceSpec:
    number: str
    issue_date: date
    due_date: date
    seller: str
    seller_street: str
    seller_city: str
    seller_vat_id: str
    buyer: str
    iban: str
    bic: str
    vat_rows: tuple[VatRow, ...]
    currency: str = "EUR"

    @property
    def net(self) -> Decimal:
        return sum((row.net for row in self.vat_rows), Decimal(0))

    @property
    def vat(self) -> Decimal:
        return sum((row.tax for row in self.vat_rows), Decimal(0))

    @property
    def gross(self) -> Decimal:
        return self.net + self.vat


@dataclass(frozen=True)
class Booking:
    booking: date
    value: date
    amount: Decimal
    counterparty: str
    purpose: tuple[str, ...]


@dataclass(frozen=True)
class StatementSpec:
    iban: str
    number: str
    start: date
    end: date
    opening: Decimal
    bookings: tuple[Booking, ...]
    closing_override: Decimal | None = None  # print a wrong closing balance

    @property
    def closing(self) -> Decimal:
        if self.closing_override is not None:
            return self.closing_override
        return self.opening + sum((b.amount for b in self.bookings), Decimal(0))


def german_amount(value: Decimal) -> str:
    text = f"{abs(value):,.2f}".replace(",", "X").replace(".", ",").replace("X", ".")
    return f"-{text}" if value < 0 else text


def english_amount(value: Decimal) -> str:
    text = f"{abs(value):,.2f}"
    return f"-{text}" if value < 0 else text


def english_date(value: date) -> str:
    return f"{value.day} {ENGLISH_MONTHS[value.month - 1]} {value.year}"


def group_iban(iban: str) -> str:
    return " ".join(iban[i : i + 4] for i in range(0, len(iban), 4))


class _Pdf:
    def __init__(self) -> None:
        self.pdf = FPDF(format="A4")
        self.pdf.set_auto_page_break(auto=True, margin=15)
        self.pdf.add_page()
        self.pdf.set_font("helvetica", size=10)

    def line(self, text: str, bold: bool = False) -> None:
        self.pdf.set_font("helvetica", style="B" if bold else "", size=10)
        self.pdf.cell(0, 6, text, new_x=XPos.LMARGIN, new_y=YPos.NEXT)

    def row(self, cells: list[tuple[str, float, str]]) -> None:
        """Cells of (text, width in mm, alignment) on one line."""
        self.pdf.set_font("helvetica", size=10)
        for text, width, align in cells:
            self.pdf.cell(width, 6, text, align=align)
        self.pdf.ln(6)

    def gap(self) -> None:
        self.pdf.ln(4)

    def bytes(self) -> bytes:
        return bytes(self.pdf.output())


def german_invoice(spec: InvoiceSpec) -> bytes:
    """DIN-5008-like letter: return address line, labels with colons, German numbers."""
    doc = _Pdf()
    doc.line(f"{spec.seller} - {spec.seller_street} - {spec.seller_city}")
    doc.line(spec.buyer)
    doc.line("Musterweg 1")
    doc.line("10115 Berlin")
    doc.gap()
    doc.line("Rechnung", bold=True)
    doc.line(f"Rechnungsnummer: {spec.number}")
    doc.line(f"Rechnungsdatum: {spec.issue_date:%d.%m.%Y}")
    doc.gap()
    doc.row([("Pos.", 15, "L"), ("Beschreibung", 100, "L"), ("Betrag", 40, "R")])
    for index, row in enumerate(spec.vat_rows, start=1):
        doc.row(
            [
                (str(index), 15, "L"),
                (f"Leistung {index}", 100, "L"),
                (f"{german_amount(row.net)} EUR", 40, "R"),
            ]
        )
    doc.gap()
    doc.line(f"Nettobetrag: {german_amount(spec.net)} EUR")
    for row in spec.vat_rows:
        doc.line(
            f"zzgl. USt. {row.rate}% auf {german_amount(row.net)} EUR: {german_amount(row.tax)} EUR"
        )
    doc.line(f"Gesamtbetrag: {german_amount(spec.gross)} EUR", bold=True)
    doc.line(f"Zahlbar bis zum {spec.due_date:%d.%m.%Y}.")
    doc.gap()
    doc.line(f"USt-IdNr.: {spec.seller_vat_id}")
    doc.line(f"IBAN: {group_iban(spec.iban)}  BIC: {spec.bic}")
    return doc.bytes()


def english_invoice(spec: InvoiceSpec) -> bytes:
    """Table layout: title, key/value table, 'Bill to' block, English numbers and dates."""
    doc = _Pdf()
    doc.line(spec.seller, bold=True)
    doc.line(spec.seller_street)
    doc.line(spec.seller_city)
    doc.line(f"VAT ID: {spec.seller_vat_id}")
    doc.gap()
    doc.line("INVOICE", bold=True)
    doc.row([("Invoice No.", 40, "L"), (spec.number, 60, "L")])
    doc.row([("Invoice Date", 40, "L"), (english_date(spec.issue_date), 60, "L")])
    doc.row([("Due Date", 40, "L"), (english_date(spec.due_date), 60, "L")])
    doc.gap()
    doc.line("Bill to:")
    doc.line(spec.buyer)
    doc.gap()
    doc.row([("Description", 100, "L"), ("VAT", 20, "R"), ("Amount", 40, "R")])
    for index, row in enumerate(spec.vat_rows, start=1):
        doc.row(
            [
                (f"Service {index}", 100, "L"),
                (f"{row.rate}%", 20, "R"),
                (f"{spec.currency} {english_amount(row.net)}", 40, "R"),
            ]
        )
    doc.gap()
    doc.row([("Subtotal", 120, "L"), (f"{spec.currency} {english_amount(spec.net)}", 40, "R")])
    for row in spec.vat_rows:
        doc.row(
            [
                (f"VAT {row.rate}% on {english_amount(row.net)}", 120, "L"),
                (f"{spec.currency} {english_amount(row.tax)}", 40, "R"),
            ]
        )
    doc.row([("Total", 120, "L"), (f"{spec.currency} {english_amount(spec.gross)}", 40, "R")])
    doc.gap()
    doc.line(f"IBAN: {spec.iban}   BIC / SWIFT: {spec.bic}")
    return doc.bytes()


def table_invoice(spec: InvoiceSpec) -> bytes:
    """Everything in tables: a header row with the number and dates under their
    labels, and line, VAT and total columns whose last row holds the totals."""
    doc = _Pdf()
    doc.line(spec.seller, bold=True)
    doc.line(f"{spec.seller_street}, {spec.seller_city}")
    doc.line(f"Invoice to: {spec.buyer}")
    doc.gap()
    widths = (35, 40, 40, 40)
    header = ("Customer", "Invoice", "Invoice date", "Due date")
    values = ("K-4711", spec.number, f"{spec.issue_date:%d.%m.%Y}", f"{spec.due_date:%d.%m.%Y}")
    doc.row([(text, width, "L") for text, width in zip(header, widths, strict=True)])
    doc.row([(text, width, "L") for text, width in zip(values, widths, strict=True)])
    doc.gap()
    doc.line(f"All amounts in {spec.currency}")
    columns = (("Description", 50, "L"), ("VAT %", 20, "R"), ("Net", 35, "R"))
    doc.row([*columns, ("VAT", 30, "R"), ("Total", 35, "R")])
    for index, row in enumerate(spec.vat_rows, start=1):
        amounts = (row.net, row.tax, row.net + row.tax)
        doc.row(
            [
                (f"Leistung {index}", 50, "L"),
                (f"{row.rate}%", 20, "R"),
                *[(german_amount(a), w, "R") for a, w in zip(amounts, (35, 30, 35), strict=True)],
            ]
        )
    sums = (spec.net, spec.vat, spec.gross)
    doc.row(
        [
            ("Sum", 70, "L"),
            *[(german_amount(a), w, "R") for a, w in zip(sums, (35, 30, 35), strict=True)],
        ]
    )
    doc.gap()
    doc.line(f"VAT ID {spec.seller_vat_id}")
    doc.line(f"IBAN {group_iban(spec.iban)}   BIC {spec.bic}")
    return doc.bytes()


def german_statement(spec: StatementSpec) -> bytes:
    """One signed amount column, value date on the line below, German numbers."""
    doc = _Pdf()
    doc.line("Musterbank AG", bold=True)
    doc.line(f"Kontoauszug Nr. {spec.number}")
    doc.line(f"Zeitraum vom {spec.start:%d.%m.%Y} bis {spec.end:%d.%m.%Y}")
    doc.line(f"IBAN {group_iban(spec.iban)}")
    doc.row([("Alter Saldo", 120, "L"), (f"{german_amount(spec.opening)} EUR", 50, "R")])
    doc.gap()
    doc.row([("Buchung", 25, "L"), ("Verwendungszweck", 105, "L"), ("Betrag (EUR)", 40, "R")])
    doc.row([("Valuta", 25, "L")])
    for booking in spec.bookings:
        doc.row(
            [
                (f"{booking.booking:%d.%m.%Y}", 25, "L"),
                (
                    f"Lastschrift {booking.counterparty}"
                    if booking.amount < 0
                    else f"Gutschrift {booking.counterparty}",
                    105,
                    "L",
                ),
                (german_amount(booking.amount), 40, "R"),
            ]
        )
        doc.row([(f"{booking.value:%d.%m.%Y}", 25, "L"), (booking.purpose[0], 105, "L")])
        for text in booking.purpose[1:]:
            doc.row([("", 25, "L"), (text, 105, "L")])
    doc.gap()
    doc.row([("Neuer Saldo", 120, "L"), (f"{german_amount(spec.closing)} EUR", 50, "R")])
    return doc.bytes()


def english_statement(spec: StatementSpec) -> bytes:
    """Debit and credit columns with unsigned amounts, both dates on the first line."""
    doc = _Pdf()
    doc.line("Example Bank plc", bold=True)
    doc.line(f"Account statement no. {spec.number}")
    doc.line(f"Statement period from {spec.start:%d/%m/%Y} to {spec.end:%d/%m/%Y}")
    doc.line(f"IBAN: {spec.iban}")
    doc.line("All amounts in EUR")
    doc.row([("Opening balance", 130, "L"), (english_amount(spec.opening), 40, "R")])
    doc.gap()
    doc.row(
        [
            ("Booking date", 25, "L"),
            ("Value date", 25, "L"),
            ("Details", 60, "L"),
            ("Debit", 30, "R"),
            ("Credit", 30, "R"),
        ]
    )
    for booking in spec.bookings:
        amount = english_amount(abs(booking.amount))
        debit, credit = (amount, "") if booking.amount < 0 else ("", amount)
        doc.row(
            [
                (f"{booking.booking:%d/%m/%Y}", 25, "L"),
                (f"{booking.value:%d/%m/%Y}", 25, "L"),
                (f"Transfer {booking.counterparty}", 60, "L"),
                (debit, 30, "R"),
                (credit, 30, "R"),
            ]
        )
        for text in booking.purpose:
            doc.row([("", 50, "L"), (text, 60, "L")])
    doc.gap()
    doc.row([("Closing balance", 130, "L"), (english_amount(spec.closing), 40, "R")])
    return doc.bytes()


SAMPLE_INVOICE = InvoiceSpec(
    number="RE-2024-0815",
    issue_date=date(2024, 3, 9),
    due_date=date(2024, 4, 8),
    seller="Beispiel Handel GmbH",
    seller_street="Hauptstraße 5",
    seller_city="80331 München",
    seller_vat_id="DE123456789",
    buyer="Kunde Digital KG",
    iban="DE89370400440532013000",
    bic="COBADEFFXXX",
    vat_rows=(VatRow(Decimal("19"), Decimal("1234.50")), VatRow(Decimal("7"), Decimal("200.00"))),
)

SAMPLE_STATEMENT = StatementSpec(
    iban="DE89370400440532013000",
    number="7",
    start=date(2024, 2, 1),
    end=date(2024, 2, 29),
    opening=Decimal("1500.25"),
    bookings=(
        Booking(
            date(2024, 2, 3),
            date(2024, 2, 3),
            Decimal("-1234.56"),
            "Stadtwerke Nord",
            ("Strom Februar", "Kundennr. 4711 IBAN DE02120300000000202051"),
        ),
        Booking(
            date(2024, 2, 15),
            date(2024, 2, 16),
            Decimal("2500.00"),
            "Arbeitgeber AG",
            ("Gehalt Februar",),
        ),
        Booking(
            date(2024, 2, 28),
            date(2024, 2, 28),
            Decimal("-9.90"),
            "Musterbank AG",
            ("Kontoführung",),
        ),
    ),
)

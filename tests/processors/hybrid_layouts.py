"""The visible side of generated hybrid invoices (tests/processors/hybrids.py): six
layouts in German, English (two), French and Dutch, rendered with fpdf2.

A layout prints the five checked fields from `Printed` (which a test may have made
disagree with the XML) and everything else from the invoice's `HybridValues`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from fpdf import FPDF
from fpdf.enums import XPos, YPos

GERMAN_MONTHS = (
    "Januar", "Februar", "März", "April", "Mai", "Juni",
    "Juli", "August", "September", "Oktober", "November", "Dezember",
)  # fmt: skip
ENGLISH_MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class VatRow:
    rate: Decimal
    net: Decimal

    @property
    def tax(self) -> Decimal:
        return (self.net * self.rate / 100).quantize(Decimal("0.01"))


@dataclass(frozen=True, slots=True)
class HybridValues:
    number: str
    issue_date: date
    delivery_date: date
    due_date: date
    seller: str
    buyer: str
    iban: str
    vat_rows: tuple[VatRow, ...]
    prepaid: Decimal = Decimal("0.00")
    currency: str = "EUR"

    @property
    def net(self) -> Decimal:
        return sum((row.net for row in self.vat_rows), Decimal("0.00"))

    @property
    def vat(self) -> Decimal:
        return sum((row.tax for row in self.vat_rows), Decimal("0.00"))

    @property
    def gross(self) -> Decimal:
        return self.net + self.vat

    @property
    def amount_due(self) -> Decimal:
        return self.gross - self.prepaid


@dataclass(frozen=True, slots=True)
class Printed:
    """The five checked fields as the visible invoice shows them."""

    number: str
    issue_date: date
    gross: Decimal
    amount_due: Decimal
    iban: str

    @classmethod
    def of(cls, values: HybridValues) -> Printed:
        return cls(values.number, values.issue_date, values.gross, values.amount_due, values.iban)


# --- number and date formats -----------------------------------------------------------


def german_amount(value: Decimal) -> str:
    return f"{value:,.2f}".replace(",", "X").replace(".", ",").replace("X", ".")


def english_amount(value: Decimal) -> str:
    return f"{value:,.2f}"


def french_amount(value: Decimal) -> str:
    return f"{value:,.2f}".replace(",", "\u00a0").replace(".", ",")


def grouped_iban(iban: str) -> str:
    return " ".join(iban[i : i + 4] for i in range(0, len(iban), 4))


def german_long_date(value: date) -> str:
    return f"{value.day}. {GERMAN_MONTHS[value.month - 1]} {value.year}"


def english_long_date(value: date) -> str:
    return f"{ENGLISH_MONTHS[value.month - 1]} {value.day}, {value.year}"


# --- drawing ---------------------------------------------------------------------------


class Sheet:
    """An A4 page in Helvetica; Windows-1252 gives the core font € and the letters of the
    four languages without embedding a font (fast to render)."""

    def __init__(self) -> None:
        self.pdf = FPDF(format="A4")
        self.pdf.core_fonts_encoding = "windows-1252"
        self.pdf.set_auto_page_break(auto=True, margin=15)
        self.pdf.add_page()
        self._font()

    def _font(self, bold: bool = False) -> None:
        self.pdf.set_font("helvetica", style="B" if bold else "", size=10)

    def line(self, text: str, bold: bool = False) -> None:
        self._font(bold)
        self.pdf.cell(0, 6, text, new_x=XPos.LMARGIN, new_y=YPos.NEXT)

    def row(self, *cells: tuple[str, float, str]) -> None:
        """Cells of (text, width in mm, alignment L/R) on one line."""
        self._font()
        for text, width, align in cells:
            self.pdf.cell(width, 6, text, align=align)
        self.pdf.ln(6)

    def gap(self) -> None:
        self.pdf.ln(4)

    def embed(self, xml: bytes, name: str) -> None:
        self.pdf.embed_file(
            bytes=xml,
            basename=name,
            mime_type="text/xml",
            associated_file_relationship="Alternative",
        )

    def bytes(self) -> bytes:
        return bytes(self.pdf.output())


def _items(sheet: Sheet, values: HybridValues, amount: Callable[[Decimal], str], head: str) -> None:
    sheet.row((head, 120, "L"), ("", 50, "R"))
    for index, row in enumerate(values.vat_rows, start=1):
        sheet.row(
            (f"{index}  Leistung {index} ({row.rate} %)", 120, "L"), (amount(row.net), 50, "R")
        )
    sheet.gap()


# --- the layouts -----------------------------------------------------------------------


def german_letter(sheet: Sheet, values: HybridValues, shown: Printed) -> None:
    """DIN-5008-like letter, labels with colons, German numbers, IBAN in the footer."""
    sheet.line(f"{values.seller} - Hauptstraße 5 - 80331 München")
    sheet.line(values.buyer)
    sheet.gap()
    sheet.line("Rechnung", bold=True)
    sheet.line(f"Rechnungsnummer: {shown.number}")
    sheet.line(f"Rechnungsdatum: {shown.issue_date:%d.%m.%Y}")
    sheet.line(f"Lieferdatum: {values.delivery_date:%d.%m.%Y}")
    sheet.gap()
    _items(sheet, values, german_amount, "Pos.  Beschreibung")
    sheet.row(("Nettobetrag", 120, "L"), (f"{german_amount(values.net)} €", 50, "R"))
    for row in values.vat_rows:
        sheet.row((f"zzgl. USt. {row.rate} %", 120, "L"), (f"{german_amount(row.tax)} €", 50, "R"))
    sheet.row(("Gesamtbetrag", 120, "L"), (f"{german_amount(shown.gross)} €", 50, "R"))
    if values.prepaid:
        sheet.row(("Anzahlung", 120, "L"), (f"-{german_amount(values.prepaid)} €", 50, "R"))
    sheet.row(("Zahlbetrag", 120, "L"), (f"{german_amount(shown.amount_due)} €", 50, "R"))
    sheet.line(f"Zahlbar bis zum {values.due_date:%d.%m.%Y} ohne Abzug.")
    sheet.gap()
    sheet.line(f"Sparkasse München  IBAN: {grouped_iban(shown.iban)}  BIC: SSKMDEMMXXX")


def english_table(sheet: Sheet, values: HybridValues, shown: Printed) -> None:
    """Key/value table at the top, long English dates, English numbers, compact IBAN."""
    sheet.line(values.seller, bold=True)
    sheet.line("12 High Street, London")
    sheet.gap()
    sheet.line("INVOICE", bold=True)
    sheet.row(("Invoice No.", 40, "L"), (shown.number, 60, "L"))
    sheet.row(("Invoice Date", 40, "L"), (english_long_date(shown.issue_date), 60, "L"))
    sheet.row(("Delivery Date", 40, "L"), (english_long_date(values.delivery_date), 60, "L"))
    sheet.row(("Due Date", 40, "L"), (english_long_date(values.due_date), 60, "L"))
    sheet.gap()
    sheet.line(f"Bill to: {values.buyer}")
    _items(sheet, values, english_amount, "Description")
    sheet.row(("Subtotal", 120, "L"), (f"{values.currency} {english_amount(values.net)}", 50, "R"))
    sheet.row(("VAT", 120, "L"), (f"{values.currency} {english_amount(values.vat)}", 50, "R"))
    total = f"{values.currency} {english_amount(shown.gross)}"
    sheet.row(("Total incl. VAT", 120, "L"), (total, 50, "R"))
    if values.prepaid:
        paid = f"{values.currency} {english_amount(values.prepaid)}"
        sheet.row(("Paid in advance", 120, "L"), (paid, 50, "R"))
    due = f"{values.currency} {english_amount(shown.amount_due)}"
    sheet.row(("Amount due", 120, "L"), (due, 50, "R"))
    sheet.gap()
    sheet.line(f"Please pay to IBAN {shown.iban} (BIC NWBKGB2LXXX).")


def french_letter(sheet: Sheet, values: HybridValues, shown: Printed) -> None:
    """French: slashed dates, thin-space thousands, Total HT / TVA / Total TTC."""
    sheet.line(values.seller, bold=True)
    sheet.line("35 rue d'ici, 75018 Paris")
    sheet.line(f"Client : {values.buyer}")
    sheet.gap()
    sheet.line(f"FACTURE N° {shown.number}", bold=True)
    sheet.line(f"Date de facture : {shown.issue_date:%d/%m/%Y}")
    sheet.line(f"Date de livraison : {values.delivery_date:%d/%m/%Y}")
    sheet.gap()
    _items(sheet, values, french_amount, "Désignation")
    sheet.row(("Total HT", 120, "L"), (f"{french_amount(values.net)} €", 50, "R"))
    for row in values.vat_rows:
        sheet.row((f"TVA {row.rate} %", 120, "L"), (f"{french_amount(row.tax)} €", 50, "R"))
    sheet.row(("Total TTC", 120, "L"), (f"{french_amount(shown.gross)} €", 50, "R"))
    if values.prepaid:
        sheet.row(("Acompte versé", 120, "L"), (f"{french_amount(values.prepaid)} €", 50, "R"))
    sheet.row(("Net à payer", 120, "L"), (f"{french_amount(shown.amount_due)} €", 50, "R"))
    sheet.line(f"Date d'échéance : {values.due_date:%d/%m/%Y}")
    sheet.gap()
    sheet.line(f"IBAN : {grouped_iban(shown.iban)} - BIC : BNPAFRPPXXX")


def dutch_columns(sheet: Sheet, values: HybridValues, shown: Printed) -> None:
    """Dutch: number and dates in a table under their column headings, dd-mm-yyyy."""
    sheet.line(values.seller, bold=True)
    sheet.line("Keizersgracht 1, 1015 Amsterdam")
    sheet.line(f"Aan: {values.buyer}")
    sheet.gap()
    sheet.line("FACTUUR", bold=True)
    widths = (40, 40, 40, 40)
    heads = ("Factuurnummer", "Factuurdatum", "Klantnummer", "Vervaldatum")
    cells = (shown.number, f"{shown.issue_date:%d-%m-%Y}", "K-1001", f"{values.due_date:%d-%m-%Y}")
    sheet.row(*[(text, width, "L") for text, width in zip(heads, widths, strict=True)])
    sheet.row(*[(text, width, "L") for text, width in zip(cells, widths, strict=True)])
    sheet.gap()
    _items(sheet, values, german_amount, "Omschrijving")
    sheet.row(("Totaal excl. btw", 120, "L"), (f"€ {german_amount(values.net)}", 50, "R"))
    sheet.row(("btw", 120, "L"), (f"€ {german_amount(values.vat)}", 50, "R"))
    sheet.row(("Totaal incl. btw", 120, "L"), (f"€ {german_amount(shown.gross)}", 50, "R"))
    if values.prepaid:
        sheet.row(("Reeds betaald", 120, "L"), (f"€ {german_amount(values.prepaid)}", 50, "R"))
    sheet.row(("Te betalen", 120, "L"), (f"€ {german_amount(shown.amount_due)}", 50, "R"))
    sheet.gap()
    sheet.line(f"Graag overmaken op IBAN {grouped_iban(shown.iban)} t.n.v. {values.seller}")


def german_columns(sheet: Sheet, values: HybridValues, shown: Printed) -> None:
    """German: a header table (Rechnung Nr., Datum) with long dates, one totals table
    (Netto, USt., Brutto), no separate amount due unless something was prepaid."""
    sheet.line(values.seller, bold=True)
    sheet.line(f"An {values.buyer}, Musterweg 1, 10115 Berlin")
    sheet.gap()
    widths = (45, 50, 50)
    heads = ("Rechnung Nr.", "Datum", "Leistungszeitraum")
    cells = (shown.number, german_long_date(shown.issue_date), f"{values.delivery_date:%m/%Y}")
    sheet.row(*[(text, width, "L") for text, width in zip(heads, widths, strict=True)])
    sheet.row(*[(text, width, "L") for text, width in zip(cells, widths, strict=True)])
    sheet.gap()
    _items(sheet, values, german_amount, "Leistung")
    sheet.row(("Netto", 40, "R"), ("USt.", 40, "R"), ("Brutto", 40, "R"))
    amounts = (values.net, values.vat, shown.gross)
    sheet.row(*[(german_amount(amount), 40, "R") for amount in amounts])
    sheet.gap()
    if values.prepaid:
        sheet.line(f"Abzüglich Anzahlung {german_amount(values.prepaid)} EUR")
        sheet.line(f"Noch zu zahlen: {german_amount(shown.amount_due)} EUR")
    sheet.line(f"Bitte überweisen Sie bis {german_long_date(values.due_date)}.")
    sheet.line(f"Bankverbindung: Volksbank, IBAN {shown.iban}, BIC GENODEF1XXX")


def american_invoice(sheet: Sheet, values: HybridValues, shown: Printed) -> None:
    """English, US style: month-first dates, 'Balance due', the IBAN grouped."""
    sheet.line(f"{values.seller} Inc.", bold=True)
    sheet.line("500 Market Street, San Francisco, CA")
    sheet.gap()
    sheet.row(("INVOICE", 100, "L"), (f"# {shown.number}", 70, "R"))
    sheet.row(("Bill To:", 100, "L"), (f"Date: {shown.issue_date:%m/%d/%Y}", 70, "R"))
    sheet.row((values.buyer, 100, "L"), (f"Due: {values.due_date:%m/%d/%Y}", 70, "R"))
    sheet.gap()
    _items(sheet, values, english_amount, "Item")
    sheet.row(("Subtotal", 120, "L"), (f"${english_amount(values.net)}", 50, "R"))
    sheet.row(("Tax", 120, "L"), (f"${english_amount(values.vat)}", 50, "R"))
    sheet.row(("Total", 120, "L"), (f"${english_amount(shown.gross)}", 50, "R"))
    if values.prepaid:
        sheet.row(("Amount Paid", 120, "L"), (f"${english_amount(values.prepaid)}", 50, "R"))
    sheet.row(("Balance Due", 120, "L"), (f"${english_amount(shown.amount_due)}", 50, "R"))
    sheet.gap()
    sheet.line(f"Wire transfer: IBAN {grouped_iban(shown.iban)}")


Layout = Callable[[Sheet, HybridValues, Printed], None]
LAYOUTS: tuple[Layout, ...] = (
    german_letter,
    english_table,
    french_letter,
    dutch_columns,
    german_columns,
    american_invoice,
)


def prints_amount_due(layout: Layout, values: HybridValues) -> bool:
    """Whether the layout prints the amount due apart from the gross total."""
    return layout is not german_columns or bool(values.prepaid)

"""Drawing generated plain PDF invoices (issue 36): an A4 page with text placed where
a letter puts it, and the blocks most invoices share (item table, totals block, VAT
breakdown, footer) in six languages. The layouts are in pdf_invoice_layouts.py and
pdf_invoice_heldout.py."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal

from fpdf import FPDF

from tests.processors.pdf_invoice_truth import Truth, amount_in, grouped_iban

FIXED_DATE = datetime(2024, 1, 1, tzinfo=UTC)


class Page:
    """An A4 page in Helvetica (Windows-1252: the core font has € and the letters of the
    six languages); text placed by millimetres from the top left."""

    def __init__(self, size: float = 9.5) -> None:
        self.pdf = FPDF(format="A4")
        self.pdf.set_creation_date(FIXED_DATE)  # the same seed gives the same bytes
        self.pdf.core_fonts_encoding = "windows-1252"
        self.pdf.set_auto_page_break(auto=False)
        self.pdf.add_page()
        self.size = size

    def text(
        self, x: float, y: float, text: str, *, bold: bool = False, size: float | None = None
    ) -> None:
        self.pdf.set_font("helvetica", style="B" if bold else "", size=size or self.size)
        self.pdf.set_xy(x, y)
        self.pdf.cell(0, 4, text)

    def right(self, x_end: float, y: float, text: str, *, bold: bool = False) -> None:
        """Text ending at `x_end` (an amount column)."""
        self.pdf.set_font("helvetica", style="B" if bold else "", size=self.size)
        width = self.pdf.get_string_width(text)
        self.pdf.set_xy(x_end - width - 2, y)
        self.pdf.cell(width + 2, 4, text)

    def lines(self, x: float, y: float, lines: list[str], step: float = 4.5) -> float:
        """Lines one below the other; the y below the last."""
        for index, line in enumerate(lines):
            self.text(x, y + index * step, line)
        return y + len(lines) * step

    def rule(self, y: float, x1: float = 20, x2: float = 190) -> None:
        self.pdf.line(x1, y, x2, y)

    def bytes(self) -> bytes:
        return bytes(self.pdf.output())


@dataclass(frozen=True, slots=True)
class Words:
    """An invoice's labels in one language."""

    language: str
    item_head: tuple[str, str, str, str, str]  # pos/description/quantity/price/amount
    net: str
    vat: str  # with {rate}
    gross: str
    prepaid: str
    due: str
    charge: str
    allowance: str


WORDS = {
    "de": Words("de", ("Pos.", "Bezeichnung", "Menge", "Einzelpreis", "Gesamt"), "Nettobetrag",
                "zzgl. {rate} % USt.", "Gesamtbetrag", "abzgl. Anzahlung", "Zahlbetrag",
                "Frachtkosten", "Rabatt"),
    "en": Words("en", ("No.", "Description", "Qty", "Unit price", "Amount"), "Subtotal",
                "VAT {rate}%", "Total", "Less deposit received", "Balance due",
                "Shipping", "Discount"),
    "fr": Words("fr", ("N°", "Désignation", "Qté", "P.U. HT", "Montant HT"), "Total HT",
                "TVA {rate} %", "Total TTC", "Acompte versé", "Net à payer",
                "Frais de port", "Remise"),
    "nl": Words("nl", ("Nr.", "Omschrijving", "Aantal", "Prijs", "Bedrag"), "Totaal excl. btw",
                "Btw {rate}%", "Totaal incl. btw", "Reeds betaald", "Te betalen",
                "Verzendkosten", "Korting"),
    "it": Words("it", ("N.", "Descrizione", "Q.tà", "Prezzo unit.", "Importo"), "Imponibile",
                "IVA {rate}%", "Totale fattura", "Acconto versato", "Netto a pagare",
                "Spese di trasporto", "Sconto"),
    "es": Words("es", ("Nº", "Concepto", "Cant.", "Precio", "Importe"), "Base imponible",
                "IVA {rate}%", "Total factura", "Anticipo recibido", "Total a pagar",
                "Portes", "Descuento"),
}  # fmt: skip


def rate_text(rate: Decimal) -> str:
    return f"{rate.normalize():f}".replace(".", ",")


def items(page: Page, y: float, truth: Truth, words: Words) -> float:
    """The item table from `y`; the y below it."""

    def amount(value: Decimal) -> str:
        return amount_in(words.language, value)

    pos, description, quantity, price, total = words.item_head
    page.text(20, y, pos, bold=True)
    page.text(32, y, description, bold=True)
    page.right(125, y, quantity, bold=True)
    page.right(158, y, price, bold=True)
    page.right(190, y, total, bold=True)
    page.rule(y + 5)
    y += 7
    for index, line in enumerate(truth.lines, start=1):
        page.text(20, y, str(index))
        page.text(32, y, f"{line.description} ({rate_text(line.rate)} %)")
        page.right(125, y, f"{line.quantity.normalize():f}")
        page.right(158, y, amount(line.unit_price))
        page.right(190, y, amount(line.net))
        y += 5
    page.rule(y + 1)
    return y + 4


def totals(page: Page, y: float, truth: Truth, words: Words, currency: str = "€") -> float:
    """Net, each rate's VAT, gross, and the prepayment with the amount due when there is
    one; label at x 110, amount ending at 190."""

    def amount(value: Decimal) -> str:
        return f"{amount_in(words.language, value)} {currency}"

    rows: list[tuple[str, Decimal, bool]] = [(words.net, truth.net, False)]
    rows += [
        (words.vat.format(rate=rate_text(rate)), tax, False) for rate, tax in truth.taxes().items()
    ]
    rows.append((words.gross, truth.gross, not truth.prepaid))
    if truth.prepaid:
        rows += [(words.prepaid, -truth.prepaid, False), (words.due, truth.amount_due, True)]
    for label, value, bold in rows:
        page.text(110, y, label, bold=bold)
        page.right(190, y, amount(value), bold=bold)
        y += 5
    return y


def footer(page: Page, truth: Truth, vat_label: str, bank_label: str = "Bank") -> None:
    """Three columns at the foot of the page: address and register, VAT id and phone,
    bank data (where a German letter puts them)."""
    seller = truth.seller
    page.rule(270)
    page.lines(20, 272, [seller.name, seller.street, seller.city], step=3.6)
    page.lines(
        80, 272, [seller.register, f"{vat_label} {seller.vat_id}", "Tel. 0800 123 45 67"], 3.6
    )
    page.lines(133, 272, [bank_label, f"IBAN {grouped_iban(truth.iban)}", f"BIC {truth.bic}"], 3.6)

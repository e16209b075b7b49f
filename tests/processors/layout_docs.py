"""Invoice pages with known geometry (fpdf2, positions in mm from the top-left): a DIN
5008 form B letter with letterhead, address window, item table, totals and footer, and
a page of label-value layouts. `POSITIONS` says where each text starts (its left edge
and baseline in points)."""

from __future__ import annotations

from fpdf import FPDF

MM = 72 / 25.4
SELLER = "Beispiel Handel GmbH"
BUYER = ("Kunden AG Mitte", "Frau Erika Muster", "Musterweg 1", "10115 Berlin")
ITEMS = (("1", "Beratung Projekt", "2", "1.000,00"), ("2", "Reisekosten", "1", "234,50"))


def _text(pdf: FPDF, x: float, y: float, text: str, size: float = 10, style: str = "") -> None:
    pdf.set_font("helvetica", style=style, size=size)
    pdf.text(x, y, text)


def din_form_b(dotted_return: bool = False, pitch: float = 5, first_line: float = 60) -> bytes:
    """`dotted_return`: the return address in the body size, its parts set apart by
    dots; `pitch`: the address's line pitch in mm; `first_line`: its first baseline."""
    pdf = FPDF(format="A4")
    pdf.add_page()
    pdf.set_auto_page_break(False)
    _text(pdf, 20, 20, SELLER, 16, "B")
    _text(pdf, 20, 27, "Hauptstraße 5, 80331 München", 9)
    if dotted_return:
        for x, part in ((20, SELLER), (60, "\u00b7"), (64, "Hauptstraße 5"), (90, "\u00b7")):
            _text(pdf, x, 50, part)
        _text(pdf, 94, 50, "80331 München")
    else:
        _text(pdf, 20, 50, f"{SELLER} - Hauptstraße 5 - 80331 München", 7)  # return address
    for index, line in enumerate(BUYER):
        _text(pdf, 20, first_line + pitch * index, line)
    _text(pdf, 125, 60, "Rechnungsnummer:")
    _text(pdf, 160, 60, "RE-2024-17")
    _text(pdf, 125, 65, "Datum:")
    _text(pdf, 160, 65, "05.03.2024")
    _text(pdf, 20, 105, "Rechnung", 14, "B")
    for x, head in ((20, "Pos."), (35, "Beschreibung"), (120, "Menge"), (165, "Betrag")):
        _text(pdf, x, 120, head, style="B")
    for row, (pos, name, quantity, amount) in enumerate(ITEMS):
        y = 127 + 6 * row
        for x, text in ((20, pos), (35, name), (120, quantity), (165, amount)):
            _text(pdf, x, y, text)
    for row, (label, amount) in enumerate(
        (("Nettobetrag", "1.234,50"), ("USt. 19 %", "234,56"), ("Gesamtbetrag", "1.469,06"))
    ):
        _text(pdf, 120, 160 + 6 * row, label)
        _text(pdf, 165, 160 + 6 * row, amount)
    _text(pdf, 20, 275, "Amtsgericht München HRB 12345 - USt-IdNr. DE123456789", 8)
    _text(pdf, 20, 279, "IBAN DE02 1203 0000 0000 2020 51 - BIC BYLADEM1001", 8)
    return bytes(pdf.output())


def label_layouts() -> bytes:
    """A label with its value on its line, right of it across a gap, and under it."""
    pdf = FPDF(format="A4")
    pdf.add_page()
    _text(pdf, 20, 30, "Rechnungsnummer: 2024-001")
    _text(pdf, 20, 40, "Kundennummer")
    _text(pdf, 70, 40, "K-4711")
    _text(pdf, 20, 55, "Käufer", style="B")
    _text(pdf, 20, 60, "Name: Grundbesitz GmbH & Co. KG")
    _text(pdf, 120, 55, "Fällig am")
    _text(pdf, 120, 60, "04.04.2024")
    return bytes(pdf.output())


def kerned_words() -> bytes:
    """One word drawn in two pieces `[(Taxiunter) -150 (nehmen)]`, and two words apart by a
    space's width `[(Taxi) -280 (GmbH)]`: PDFium's text layer reads a space into both."""
    pdf = FPDF(format="A4")
    pdf.add_page()
    _text(pdf, 20, 20, "Kopf")
    pdf._out("BT /F1 10 Tf 1 0 0 1 60 700 Tm [(Taxiunter) -150 (nehmen)] TJ ET")
    pdf._out("BT /F1 10 Tf 1 0 0 1 60 680 Tm [(Taxi) -280 (GmbH)] TJ ET")
    return bytes(pdf.output())

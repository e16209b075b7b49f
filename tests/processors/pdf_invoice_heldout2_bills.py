"""German families of the SECOND held-out set of generated plain PDF invoices (issue 36):
a utility's annual bill, a craftsman's invoice and a two-page invoice with a carried
subtotal; and the table and totals drawing the set shares. Listed in
pdf_invoice_heldout2.py.

To the engineers working on the PDF invoice reader: never open this file, do not tune on
it and do not change it to make the reader pass (docs/pdf_invoices.md, "The sets")."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import timedelta
from decimal import Decimal

from tests.processors.hybrid_layouts import german_amount
from tests.processors.pdf_invoice_heldout2_values import (
    Column,
    dotted,
    euro,
    footer,
    german_long,
    held_truth,
    quantity,
    row,
    sums,
    table,
)
from tests.processors.pdf_invoice_pages import Page
from tests.processors.pdf_invoice_truth import Line, Truth

# --- a utility's annual bill ---------------------------------------------------------------

_UTILITIES = (
    "Stadtwerke Rheinfeld GmbH",
    "Gemeindewerke Tannheim GmbH",
    "Energieversorgung Oberland AG",
)


def utility_truth(seed: str) -> Truth:
    """Energy, a standing charge and metering at 19 %; eleven monthly instalments paid."""
    truth = held_truth(
        seed,
        "DE",
        lambda rng, _: str(rng.randrange(10**11, 10**12)),
        ("-",),
        count=(1, 1),
        sellers=_UTILITIES,
    )
    rng = random.Random(f"utility:{seed}")
    rate = Decimal(19)
    lines = (
        Line(
            "Arbeitspreis",
            Decimal(rng.randrange(1800, 9000)),
            Decimal(rng.randrange(2600, 3900)) / 10000,
            rate,
        ),
        Line("Grundpreis", Decimal(12), Decimal(rng.randrange(900, 1600)) / 100, rate),
        Line("Messstellenbetrieb", Decimal(1), Decimal(rng.randrange(2000, 6000)) / 100, rate),
    )
    truth = replace(truth, lines=lines)
    return replace(truth, prepaid=(truth.gross / 12).quantize(Decimal(1)) * 11)


def utility_bill(truth: Truth) -> bytes:
    """ "Jahresabrechnung Strom" over a period, customer, contract and meter numbers beside
    the invoice number, gross less the instalments paid, "Nachzahlung" as the amount
    due, and the next instalment (another amount and date) below."""
    page, seller = Page(size=8.5), truth.seller
    page.text(20, 12, seller.name, bold=True, size=15)
    page.text(20, 19, "Strom · Erdgas · Wasser · Wärme", size=8)
    page.text(20, 40, f"{seller.name}, Postfach 1120, {seller.city}", size=6.5)
    page.lines(20, 46, [truth.buyer.name, truth.buyer.street, truth.buyer.city])
    info = (
        ("Kundennummer", truth.number[3:]),
        ("Vertragskonto", f"80{truth.number[:10]}"),
        ("Rechnungsnummer", truth.number),
        ("Rechnungsdatum", dotted(truth.issue_date)),
        ("Zählernummer", f"1ESY116{truth.number[-7:]}"),
    )
    for index, (label, value) in enumerate(info):
        page.text(122, 40 + index * 4.5, label)
        page.text(155, 40 + index * 4.5, value)
    end = truth.issue_date - timedelta(days=12)
    start = end - timedelta(days=364)
    page.text(20, 84, f"Jahresabrechnung Strom {start.year}/{end.year}", bold=True, size=12)
    page.text(20, 91, f"Abrechnungszeitraum {dotted(start)} - {dotted(end)}")
    units = ("kWh", "Monate", "Jahr")
    prices = (
        f"{german_amount(truth.lines[0].unit_price * 100)} ct/kWh",
        euro(truth.lines[1].unit_price),
        euro(truth.lines[2].unit_price),
    )
    heads = (
        ("Preisbestandteil", 20, False),
        ("Menge", 108, True),
        ("Einheit", 112, False),
        ("Preis", 158, True),
        ("Betrag netto", 190, True),
    )
    y = table(
        page,
        100,
        truth,
        heads,
        lambda i, t: (
            t.lines[i].description,
            f"{t.lines[i].quantity.normalize():f}",
            units[i],
            prices[i],
            euro(t.lines[i].net),
        ),
    )
    instalment = truth.prepaid / 11
    rows = (
        ("Summe netto", euro(truth.net)),
        ("Umsatzsteuer 19 %", euro(truth.vat)),
        ("Rechnungsbetrag brutto", euro(truth.gross)),
        (f"abzüglich geleistete Abschläge (11 x {euro(instalment)})", euro(-truth.prepaid)),
        ("Nachzahlung", euro(truth.amount_due)),
    )
    y = sums(page, y, rows, x=90)
    page.text(20, y + 6, f"Bitte überweisen Sie die Nachzahlung bis zum {dotted(truth.due_date)}.")
    next_month = (truth.due_date.replace(day=1) + timedelta(days=32)).replace(day=1)
    page.text(
        20,
        y + 12,
        f"Ihr neuer monatlicher Abschlag ab {dotted(next_month)}: "
        f"{euro((truth.gross / 12).quantize(Decimal(1)) + 4)}",
    )
    footer(page, truth, "Sparkasse")
    return page.bytes()


# --- a craftsman's invoice -------------------------------------------------------------

_CRAFTS = ("Elektro Schuster GmbH", "Sanitär Hoffmann GmbH & Co. KG", "Dachdeckerei Krüger e.K.")
_LABOUR = (
    ("Arbeitszeit Meister", "Std."),
    ("Arbeitszeit Geselle", "Std."),
    ("Anfahrtspauschale", "psch."),
)
_MATERIAL = (
    ("Kabel NYM-J 3x1,5", "m"),
    ("Steckdose UP reinweiß", "Stk."),
    ("Kupferrohr 15 mm", "m"),
    ("Silikon sanitär", "Kart."),
    ("Fliesenkleber 25 kg", "Sack"),
    ("Dachziegel Biberschwanz", "Stk."),
)
_UNITS = dict((*_LABOUR, *_MATERIAL))


def craftsman_truth(seed: str) -> Truth:
    truth = held_truth(
        seed,
        "DE",
        lambda rng, d: f"{d.year % 100}-{rng.randrange(100, 999)}",
        ("-",),
        count=(1, 1),
        sellers=_CRAFTS,
    )
    rng = random.Random(f"craftsman:{seed}")
    rate = Decimal(19)
    hours = (Decimal("1.5"), Decimal(2), Decimal("2.5"), Decimal(4), Decimal("6.5"), Decimal(8))
    labour = [
        Line(name, rng.choice(hours), Decimal(rng.randrange(52, 79)), rate)
        for name, _ in _LABOUR[:2]
    ]
    labour.append(Line(_LABOUR[2][0], Decimal(1), Decimal(rng.randrange(25, 60)), rate))
    material = [
        Line(name, Decimal(rng.randrange(1, 25)), Decimal(rng.randrange(150, 9000)) / 100, rate)
        for name, _ in rng.sample(_MATERIAL, rng.randint(1, 3))
    ]
    return replace(truth, lines=(*labour, *material))


def craftsman(truth: Truth) -> bytes:
    """A trade's invoice: quantity and unit before the description, the date with a
    two-digit year, the labour share for § 35a EStG, and Skonto terms (a discounted sum
    and an earlier date) before the net due date."""
    page, seller = Page(size=9), truth.seller
    page.text(20, 12, seller.name, bold=True, size=16)
    page.text(20, 20, "Meisterbetrieb · Neubau · Sanierung · Kundendienst", size=8)
    page.text(20, 45, f"{seller.name} · {seller.street} · {seller.city}", size=6.5)
    page.lines(20, 51, [truth.buyer.name, truth.buyer.street, truth.buyer.city])
    fields = (
        ("Rechnung Nr.:", truth.number),
        ("Datum:", dotted(truth.issue_date, True)),
        ("Kunden-Nr.:", f"1{truth.number[-3:]}"),
        ("Baustelle:", truth.buyer.street),
    )
    for index, (label, value) in enumerate(fields):
        page.text(125, 45 + index * 5, label)
        page.text(150, 45 + index * 5, value)
    page.text(20, 95, "RECHNUNG", bold=True, size=13)
    page.text(20, 102, "Für die ausgeführten Arbeiten erlauben wir uns zu berechnen:")
    heads = (
        ("Pos.", 20, False),
        ("Menge", 42, True),
        ("Einh.", 45, False),
        ("Bezeichnung", 60, False),
        ("EP", 160, True),
        ("GP", 190, True),
    )
    y = table(
        page,
        110,
        truth,
        heads,
        lambda i, t: (
            f"{i + 1:02d}",
            quantity(t, i),
            _UNITS[t.lines[i].description],
            t.lines[i].description,
            german_amount(t.lines[i].unit_price),
            german_amount(t.lines[i].net),
        ),
    )
    y = sums(
        page,
        y,
        (
            ("Nettobetrag", euro(truth.net)),
            ("+ 19 % MwSt.", euro(truth.vat)),
            ("Rechnungsbetrag", euro(truth.gross)),
        ),
    )
    labour = sum((line.net for line in truth.lines[:3]), Decimal(0))
    page.text(
        20,
        y + 5,
        f"Enthaltene Lohnkosten gem. § 35a EStG: {euro(labour)} netto, "
        f"{euro((labour * Decimal('1.19')).quantize(Decimal('0.01')))} brutto.",
    )
    early = truth.issue_date + timedelta(days=8)
    discounted = (truth.gross * Decimal("0.98")).quantize(Decimal("0.01"))
    page.text(
        20,
        y + 12,
        f"Zahlbar bis {dotted(early, True)} mit 2 % Skonto "
        f"(= {euro(discounted)}) oder bis {dotted(truth.due_date, True)} rein netto.",
    )
    page.text(20, y + 19, "Die Leistung wurde im Rechnungsmonat erbracht. Vielen Dank!")
    footer(page, truth, "Volksbank Mittelhessen")
    return page.bytes()


# --- two pages with a carried subtotal ---------------------------------------------------------

_WHOLESALE = (
    ("Kopierpapier A4 80 g (500 Bl.)", 19),
    ("Toner schwarz HC", 19),
    ("Ordner 80 mm blau", 19),
    ("Kugelschreiber 10er", 19),
    ("Haftnotizen 76x76", 19),
    ("Kaffee Bohnen 1 kg", 7),
    ("Mineralwasser 12 x 1 l", 7),
    ("Fachbuch Steuerrecht", 7),
    ("Laborhandschuhe Nitril M", 19),
    ("Pipettenspitzen 1000 µl", 19),
)
_CODES = {Decimal(19): "A", Decimal(7): "B"}


def two_page_truth(seed: str) -> Truth:
    truth = held_truth(
        seed,
        "DE",
        lambda rng, _: f"7{rng.randrange(10**6, 10**7)}",
        ("-",),
        count=(1, 1),
        sellers=("Großhandel Petersen GmbH", "Bürotechnik Albers KG", "Fischer Laborbedarf GmbH"),
    )
    rng = random.Random(f"two-page:{seed}")
    lines = tuple(
        Line(
            name,
            Decimal(rng.randrange(1, 25)),
            Decimal(rng.randrange(150, 9000)) / 100,
            Decimal(rate),
        )
        for name, rate in (rng.choice(_WHOLESALE) for _ in range(rng.randint(32, 40)))
    )
    coffee = replace(lines[1], description=_WHOLESALE[5][0], rate=Decimal(7))
    return replace(truth, lines=(lines[0], coffee, *lines[2:]))


_WIDE = (
    ("Art.-Nr.", 20, False),
    ("Artikel", 40, False),
    ("Menge", 120, True),
    ("Preis/ME", 145, True),
    ("USt", 150, False),
    ("Betrag EUR", 190, True),
)


def two_page_carryover(truth: Truth) -> bytes:
    """Thirty-odd lines over two pages: "Übertrag" at the foot of the first and the top
    of the second, VAT codes A/B in a column, the breakdown by code and
    "Rechnungsendbetrag" on page 2, dates without leading zeros."""
    page, seller = Page(size=8.5), truth.seller
    page.text(125, 12, seller.name, bold=True, size=13)
    page.text(20, 27, f"{seller.name} · {seller.street} · {seller.city}", size=6.5)
    page.lines(
        20, 33, [truth.buyer.name, f"z. Hd. {truth.contact}", truth.buyer.street, truth.buyer.city]
    )
    page.text(125, 30, "Rechnung", bold=True, size=15)
    issued = dotted(truth.issue_date, padded=False)
    fields = (
        ("Beleg-Nr.", truth.number),
        ("Datum", issued),
        ("Kunde", f"D{truth.number[-5:]}"),
        ("Seite", "1 von 2"),
    )
    for index, (label, value) in enumerate(fields):
        page.text(125, 38 + index * 4.5, label)
        page.text(150, 38 + index * 4.5, value)
    y = _rows(page, 80, truth, range(0, 28))
    carried = sum((line.net for line in truth.lines[:28]), Decimal(0))
    row(page, y + 2, _WIDE[-2:], ["Übertrag", german_amount(carried)], bold=True)
    page.text(20, 262, "Fortsetzung auf Seite 2", size=7.5)
    footer(page, truth, "Commerzbank")
    page.pdf.add_page()
    page.text(
        20, 12, f"{seller.name} · Rechnung {truth.number} vom {issued} · Seite 2 von 2", size=7.5
    )
    row(page, 22, _WIDE[-2:], ["Übertrag", german_amount(carried)], bold=True)
    y = _rows(page, 28, truth, range(28, len(truth.lines)))
    y = sums(page, y, (("Warenwert netto", german_amount(truth.net)),), bold_last=False)
    y = _breakdown(page, y + 3, truth)
    page.text(112, y + 2, "Rechnungsendbetrag EUR", bold=True, size=10)
    page.right(190, y + 2, german_amount(truth.gross), bold=True)
    page.text(20, y + 14, f"Zahlbar ohne Abzug bis {dotted(truth.due_date, padded=False)}.")
    page.text(20, y + 19, f"Lieferung am {german_long(truth.issue_date)}, ab Lager.")
    footer(page, truth, "Commerzbank")
    return page.bytes()


def _rows(page: Page, y: float, truth: Truth, indexes: range) -> float:
    row(page, y, _WIDE, [head for head, _, _ in _WIDE], bold=True)
    page.rule(y + 5)
    y += 7
    for index in indexes:
        line = truth.lines[index]
        cells = (
            f"{30410 + index * 13}",
            line.description,
            f"{line.quantity.normalize():f} St",
            german_amount(line.unit_price),
            _CODES[line.rate],
            german_amount(line.net),
        )
        row(page, y, _WIDE, cells)
        y += 5.5
    page.rule(y)
    return y + 3


def _breakdown(page: Page, y: float, truth: Truth) -> float:
    heads: tuple[Column, ...] = (
        ("Code", 60, False),
        ("USt-Satz", 95, True),
        ("Netto", 130, True),
        ("USt", 160, True),
        ("Brutto", 190, True),
    )
    row(page, y, heads, [head for head, _, _ in heads], bold=True)
    for rate, base in truth.bases().items():
        y += 5
        tax = truth.taxes()[rate]
        row(
            page,
            y,
            heads,
            [
                _CODES[rate],
                f"{rate} %",
                german_amount(base),
                german_amount(tax),
                german_amount(base + tax),
            ],
        )
    page.rule(y + 6, 60)
    return y + 8

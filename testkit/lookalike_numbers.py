"""Documents full of numbers that are no invoice: charts of accounts (SKR03-like, an
English chart with account types, a trial balance with amounts) and price lists (German
net and gross prices with payment terms, English, service rates). See `lookalike_docs`."""

from __future__ import annotations

import random
from decimal import Decimal

from testkit.generated_docs import english_amount, german_amount
from testkit.lookalike_base import CENT, Doc, random_price

# --- charts of accounts ----------------------------------------------------------------

_SKR03 = (
    ("0027", "EDV-Software"), ("0320", "Pkw"), ("0410", "Geschäftsausstattung"),
    ("1000", "Kasse"), ("1200", "Bank"), ("1360", "Geldtransit"),
    ("1400", "Forderungen aus Lieferungen und Leistungen"),
    ("1571", "Abziehbare Vorsteuer 7 %"), ("1576", "Abziehbare Vorsteuer 19 %"),
    ("1600", "Verbindlichkeiten aus Lieferungen und Leistungen"),
    ("1771", "Umsatzsteuer 7 %"), ("1776", "Umsatzsteuer 19 %"),
    ("1780", "Umsatzsteuer-Vorauszahlungen"), ("1800", "Privatentnahmen allgemein"),
    ("3400", "Wareneingang 19 % Vorsteuer"), ("4100", "Löhne und Gehälter"),
    ("4210", "Miete"), ("4360", "Versicherungen"), ("4530", "Laufende Kfz-Betriebskosten"),
    ("4920", "Telefon"), ("4930", "Bürobedarf"), ("4950", "Rechts- und Beratungskosten"),
    ("4970", "Nebenkosten des Geldverkehrs"), ("8300", "Erlöse 7 % USt"),
    ("8400", "Erlöse 19 % USt"), ("8736", "Gewährte Skonti 19 % USt"),
)  # fmt: skip
_ENGLISH_ACCOUNTS = (
    ("1000", "Cash", "Asset"), ("1010", "Checking Account", "Asset"),
    ("1200", "Accounts Receivable", "Asset"), ("1300", "Inventory", "Asset"),
    ("1500", "Office Equipment", "Asset"), ("2000", "Accounts Payable", "Liability"),
    ("2100", "Sales Tax Payable", "Liability"), ("2200", "VAT Control Account", "Liability"),
    ("2400", "Accrued Expenses", "Liability"), ("3000", "Owner's Equity", "Equity"),
    ("4000", "Sales Revenue", "Income"), ("4100", "Service Revenue", "Income"),
    ("5000", "Cost of Goods Sold", "Expense"), ("6100", "Rent Expense", "Expense"),
    ("6200", "Utilities", "Expense"), ("6300", "Bank Charges", "Expense"),
)  # fmt: skip


def skr_chart(seed: int) -> bytes:
    rng = random.Random(seed)
    doc = Doc()
    doc.line("Kontenrahmen SKR 03 - Auszug", bold=True)
    doc.line(f"Mandant {rng.randint(10000, 99999)} · Wirtschaftsjahr 2024 · Stand 01.01.2024")
    doc.gap()
    doc.row(("Konto", 0.15, "L"), ("Bezeichnung", 0.65, "L"), ("USt", 0.2, "R"))
    for number, name in sorted(rng.sample(_SKR03, rng.randint(16, len(_SKR03)))):
        rate = "19 %" if "19" in name else "7 %" if "7 %" in name else ""
        doc.row((number, 0.15, "L"), (name, 0.65, "L"), (rate, 0.2, "R"))
    return doc.bytes()


def english_chart(seed: int) -> bytes:
    rng = random.Random(seed)
    doc = Doc()
    doc.line("Chart of Accounts", bold=True)
    doc.line(f"Northwind Traders Ltd - fiscal year 2024 - printed 0{rng.randint(1, 9)}/02/2024")
    doc.gap()
    doc.row(("Account", 0.15, "L"), ("Name", 0.5, "L"), ("Type", 0.2, "L"), ("Tax code", 0.15, "L"))
    for number, name, kind in rng.sample(
        _ENGLISH_ACCOUNTS, rng.randint(12, len(_ENGLISH_ACCOUNTS))
    ):
        code = "S 20%" if kind == "Income" else "-"
        doc.row((number, 0.15, "L"), (name, 0.5, "L"), (kind, 0.2, "L"), (code, 0.15, "L"))
    return doc.bytes()


def trial_balance(seed: int) -> bytes:
    rng = random.Random(seed)
    doc = Doc(size=9)
    doc.line("Summen- und Saldenliste Januar 2024", bold=True)
    doc.line(f"Beispiel Handel GmbH · Mandant {rng.randint(10000, 99999)} · Datum 05.02.2024")
    doc.gap()
    doc.row(
        ("Konto", 0.1, "L"),
        ("Bezeichnung", 0.45, "L"),
        ("Soll", 0.15, "R"),
        ("Haben", 0.15, "R"),
        ("Saldo", 0.15, "R"),
    )
    debit = credit = Decimal(0)
    for number, name in sorted(rng.sample(_SKR03, 14)):
        soll, haben = random_price(rng, 100, 20000), random_price(rng, 100, 20000)
        debit, credit = debit + soll, credit + haben
        amounts = (german_amount(soll), german_amount(haben), german_amount(soll - haben))
        doc.row((number, 0.1, "L"), (name[:30], 0.45, "L"), *((a, 0.15, "R") for a in amounts))
    totals = (german_amount(debit), german_amount(credit), german_amount(debit - credit))
    doc.row(("", 0.1, "L"), ("Summe", 0.45, "L"), *((a, 0.15, "R") for a in totals))
    return doc.bytes()


# --- price lists -----------------------------------------------------------------------

_ARTICLES = (
    "Schraube M6x40 verzinkt (100 St.)", "Dübel 8 mm (50 St.)", "Akkuschrauber 18 V",
    "Bohrer-Set HSS 19-tlg.", "Wasserwaage 60 cm", "Arbeitshandschuhe Gr. 10",
    "Kabelbinder 200 mm (100 St.)", "Winkelschleifer 125 mm", "Schutzbrille klar",
    "Maßband 5 m", "Silikon transparent 310 ml", "Cuttermesser 18 mm",
)  # fmt: skip
_SERVICES = (
    "Beratung (Stunde)", "Projektleitung (Stunde)", "Softwareentwicklung (Stunde)",
    "Schulung (Tag)", "Fahrtkosten (km)", "Rufbereitschaft (Monat)", "Wartung (Stunde)",
)  # fmt: skip


def german_price_list(seed: int) -> bytes:
    rng = random.Random(seed)
    doc = Doc(size=9)
    doc.line("Werkzeughandel Schmidt GmbH · Industriestr. 4 · 70565 Stuttgart")
    doc.line("Preisliste 2024", bold=True)
    doc.line(f"gültig ab 01.0{rng.randint(1, 9)}.2024")
    doc.gap()
    doc.row(
        ("Art.-Nr.", 0.15, "L"),
        ("Bezeichnung", 0.5, "L"),
        ("Preis netto", 0.175, "R"),
        ("Preis brutto", 0.175, "R"),
    )
    for article in rng.sample(_ARTICLES, rng.randint(8, len(_ARTICLES))):
        net = random_price(rng, 2, 180)
        gross = (net * Decimal("1.19")).quantize(CENT)
        doc.row(
            (f"{rng.randint(10000, 99999)}", 0.15, "L"),
            (article, 0.5, "L"),
            (f"{german_amount(net)} EUR", 0.175, "R"),
            (f"{german_amount(gross)} EUR", 0.175, "R"),
        )
    doc.gap()
    doc.line("Alle Preise in EUR. Bruttopreise inkl. 19 % MwSt.")
    doc.line("Lieferung gegen Rechnung, zahlbar innerhalb von 14 Tagen ohne Abzug.")
    doc.line(f"USt-IdNr. DE{rng.randint(100000000, 999999999)} · IBAN DE89 3704 0044 0532 0130 00")
    return doc.bytes()


def english_price_list(seed: int) -> bytes:
    rng = random.Random(seed)
    doc = Doc(size=9)
    doc.line("Brightline Office Supplies Ltd", bold=True)
    doc.line(f"PRICE LIST - effective {rng.randint(1, 28)} March 2024")
    doc.gap()
    doc.row(
        ("Item No.", 0.15, "L"),
        ("Description", 0.55, "L"),
        ("Unit", 0.1, "L"),
        ("Unit price", 0.2, "R"),
    )
    items = (
        "A4 copier paper, box of 5 reams",
        "Ballpoint pens blue (50)",
        "Stapler heavy duty",
        "Lever arch files (10)",
        "Toner cartridge black",
        "Desk organiser",
        "Whiteboard markers (12)",
        "Sticky notes 76x76 (12)",
        "Envelopes C5 (500)",
    )
    for item in rng.sample(items, rng.randint(6, len(items))):
        doc.row(
            (f"BL-{rng.randint(1000, 9999)}", 0.15, "L"),
            (item, 0.55, "L"),
            ("each", 0.1, "L"),
            (f"£{english_amount(random_price(rng, 2, 90))}", 0.2, "R"),
        )
    doc.gap()
    doc.line("Prices exclude VAT at 20%. Delivery free on orders over £100.00.")
    doc.line("Invoices are payable within 30 days of the invoice date.")
    doc.line(f"VAT Reg No. GB {rng.randint(100, 999)} {rng.randint(1000, 9999)} 12")
    return doc.bytes()


def rate_card(seed: int) -> bytes:
    rng = random.Random(seed)
    doc = Doc()
    doc.line("Konditionen und Stundensätze", bold=True)
    doc.line("Datenwerk IT-Service GmbH, Lindenallee 9, 04109 Leipzig")
    doc.gap()
    doc.row(("Leistung", 0.6, "L"), ("Satz netto", 0.2, "R"), ("inkl. USt.", 0.2, "R"))
    for service in rng.sample(_SERVICES, rng.randint(5, len(_SERVICES))):
        net = random_price(rng, 1, 150) if "km" in service else random_price(rng, 60, 1400)
        gross = (net * Decimal("1.19")).quantize(CENT)
        doc.row(
            (service, 0.6, "L"), (german_amount(net), 0.2, "R"), (german_amount(gross), 0.2, "R")
        )
    doc.gap()
    doc.line("Abrechnung monatlich nach Aufwand. Es gilt die gesetzliche Umsatzsteuer von 19 %.")
    doc.line(f"Stand: {rng.randint(1, 28):02d}.01.2024")
    return doc.bytes()

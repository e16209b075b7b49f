"""Receipts, invoice templates and documents full of numbers that are no invoice, in
several layouts each, from seeded random data (fpdf2, Helvetica).

- receipts (invoices): a supermarket till receipt headed "Rechnung", a restaurant bill,
  a taxi receipt headed "Quittung", an English café receipt;
- templates (invoices in layout, flagged): bracketed placeholders in German, an English
  template with masks (`INV-XXXX`, `MM/DD/YYYY`) and zero amounts, a template with
  mail-merge fields (`{{invoice_number}}`);
- charts of accounts and price lists (not invoices): `lookalike_numbers.py`.

`KINDS` maps each kind to its layouts; every layout takes a seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from decimal import Decimal

from testkit.generated_docs import english_amount, german_amount
from testkit.lookalike_base import Doc, included_tax, random_price
from testkit.lookalike_numbers import (
    english_chart,
    english_price_list,
    german_price_list,
    rate_card,
    skr_chart,
    trial_balance,
)

Layout = Callable[[int], bytes]

_GROCERIES = (
    "Vollmilch 1,5%", "Bio Eier 10er", "Roggenbrot", "Bananen", "Kaffee Bohnen 500g",
    "Butter", "Gouda Scheiben", "Apfelsaft 1l", "Tomaten", "Nudeln 500g", "Joghurt",
)  # fmt: skip
_DISHES = (
    "Schnitzel Wiener Art", "Rinderroulade", "Salatteller", "Apfelschorle 0,4l",
    "Pils 0,5l", "Espresso", "Kuchen", "Mineralwasser 0,75l",
)  # fmt: skip
_CAFE = ("Flat White", "Croissant", "Bagel", "Orange Juice", "Muffin", "Tea", "Scone")


def _day(rng: random.Random) -> str:
    return f"{rng.randint(1, 28):02d}.{rng.randint(1, 12):02d}.2024"


# --- receipts --------------------------------------------------------------------------


def till_receipt(seed: int) -> bytes:
    rng = random.Random(seed)
    doc = Doc(80, 200, size=8)
    doc.line("FRISCHMARKT Filiale 0412", bold=True, align="C")
    doc.line("Bahnhofstr. 8, 50667 Köln", align="C")
    doc.line(f"Steuer-Nr. 215/5{rng.randint(100, 999)}/1234", align="C")
    doc.gap()
    doc.line("Rechnung", bold=True, align="C")
    items = [(name, random_price(rng, 1, 6)) for name in rng.sample(_GROCERIES, rng.randint(4, 8))]
    doc.row(("EUR", 1.0, "R"))
    for name, price in items:
        doc.row((name, 0.7, "L"), (f"{german_amount(price)} B", 0.3, "R"))
    total = sum((price for _, price in items), Decimal(0))
    doc.row(("-" * 40, 1.0, "L"))
    doc.pair("SUMME EUR", german_amount(total), bold=True)
    given = (total / 10).to_integral_value(rounding="ROUND_CEILING") * 10
    doc.pair("Geg. BAR", german_amount(given))
    doc.pair("Rückgeld BAR", german_amount(given - total))
    doc.gap()
    tax = included_tax(total, Decimal(7))
    doc.row(
        ("Steuer %", 0.3, "L"), ("Netto", 0.25, "R"), ("Steuer", 0.2, "R"), ("Brutto", 0.25, "R")
    )
    doc.row(
        ("B= 7,0%", 0.3, "L"),
        (german_amount(total - tax), 0.25, "R"),
        (german_amount(tax), 0.2, "R"),
        (german_amount(total), 0.25, "R"),
    )
    doc.gap()
    doc.line(f"{_day(rng)}  {rng.randint(8, 20)}:14  Bon-Nr. {rng.randint(1000, 9999)}")
    doc.line("Vielen Dank für Ihren Einkauf!", align="C")
    return doc.bytes()


def restaurant_bill(seed: int) -> bytes:
    rng = random.Random(seed)
    doc = Doc(80, 180, size=8)
    doc.line("Gasthaus Zum Goldenen Anker", bold=True, align="C")
    doc.line("Hafenstraße 3 · 20459 Hamburg", align="C")
    doc.line(f"USt-IdNr. DE{rng.randint(100000000, 999999999)}", align="C")
    doc.gap()
    doc.line(f"Rechnung Nr. {rng.randint(10000, 99999)}", bold=True)
    doc.line(f"Tisch {rng.randint(1, 30)}   Bedienung: Anna")
    doc.line(f"Datum: {_day(rng)} {rng.randint(12, 22)}:3{rng.randint(0, 9)}")
    doc.gap()
    total = Decimal(0)
    for name in rng.sample(_DISHES, rng.randint(3, 6)):
        count, price = rng.randint(1, 3), random_price(rng, 3, 22)
        total += count * price
        doc.row((f"{count} x {name}", 0.7, "L"), (german_amount(count * price), 0.3, "R"))
    doc.gap()
    doc.pair("Summe", f"{german_amount(total)} EUR", bold=True)
    tax = included_tax(total, Decimal(19))
    doc.pair("enth. MwSt. 19 %", german_amount(tax))
    doc.pair("Netto", german_amount(total - tax))
    doc.line("Bezahlt: EC-Karte")
    doc.gap()
    doc.line("Vielen Dank für Ihren Besuch!", align="C")
    return doc.bytes()


def taxi_receipt(seed: int) -> bytes:
    rng = random.Random(seed)
    doc = Doc(105, 148, size=9)
    doc.line("Quittung", bold=True)
    doc.line(f"Nr. {rng.randint(100, 999)}")
    amount = random_price(rng, 12, 80)
    tax = included_tax(amount, Decimal(7))
    doc.pair("Betrag EUR", german_amount(amount), bold=True)
    doc.pair("darin enthalten 7 % MwSt.", german_amount(tax))
    doc.line("für Taxifahrt von Hauptbahnhof nach Messe")
    doc.line("Betrag dankend erhalten.")
    doc.gap()
    doc.line(f"München, den {rng.randint(1, 28):02d}.0{rng.randint(1, 9)}.2024")
    doc.line(f"Taxi Huber, Konzessions-Nr. {rng.randint(1000, 9999)}")
    doc.line(f"Steuernummer 143/{rng.randint(100, 999)}/{rng.randint(10000, 99999)}")
    return doc.bytes()


def cafe_receipt(seed: int) -> bytes:
    rng = random.Random(seed)
    doc = Doc(80, 160, size=8)
    doc.line("THE CORNER CAFE", bold=True, align="C")
    doc.line("14 Market Street, Leeds LS1 6DT", align="C")
    doc.line(f"VAT Reg No. GB {rng.randint(100, 999)} {rng.randint(1000, 9999)} 12", align="C")
    doc.gap()
    doc.line("RECEIPT", bold=True, align="C")
    doc.line(
        f"Date {rng.randint(1, 28):02d}/0{rng.randint(1, 9)}/2024   Order #{rng.randint(100, 999)}"
    )
    total = Decimal(0)
    for name in rng.sample(_CAFE, rng.randint(2, 5)):
        price = random_price(rng, 2, 7)
        total += price
        doc.pair(name, f"£{english_amount(price)}")
    doc.pair("TOTAL", f"£{english_amount(total)}", bold=True)
    doc.pair("VAT 20% incl.", f"£{english_amount(included_tax(total, Decimal(20)))}")
    doc.pair("Card payment", f"£{english_amount(total)}")
    doc.line("Thank you for your visit!", align="C")
    return doc.bytes()


# --- templates -------------------------------------------------------------------------


def bracket_template(seed: int) -> bytes:
    rng = random.Random(seed)
    doc = Doc()
    doc.line("[Firmenname] · [Straße Nr.] · [PLZ Ort]")
    doc.line("[Name des Kunden]")
    doc.line("[Straße Hausnummer]")
    doc.line("[PLZ] [Ort]")
    doc.gap()
    doc.line("Rechnung", bold=True)
    doc.pair("Rechnungsnummer:", "[Nummer]")
    doc.pair("Rechnungsdatum:", "TT.MM.JJJJ")
    doc.pair("Leistungsdatum:", "TT.MM.JJJJ")
    doc.gap()
    doc.row(
        ("Pos.", 0.1, "L"), ("Beschreibung", 0.5, "L"), ("Menge", 0.15, "R"), ("Betrag", 0.25, "R")
    )
    for index in range(1, rng.randint(3, 5)):
        doc.row(
            (str(index), 0.1, "L"),
            ("[Leistung]", 0.5, "L"),
            ("0", 0.15, "R"),
            ("0,00 EUR", 0.25, "R"),
        )
    doc.gap()
    doc.pair("Nettobetrag", "0,00 EUR")
    doc.pair("zzgl. 19 % USt.", "0,00 EUR")
    doc.pair("Gesamtbetrag", "0,00 EUR", bold=True)
    doc.line("Bitte überweisen Sie den Betrag bis zum TT.MM.JJJJ auf das unten genannte Konto.")
    doc.gap()
    doc.line("IBAN: [IBAN]   BIC: [BIC]   USt-IdNr.: [USt-IdNr.]")
    return doc.bytes()


def mask_template(seed: int) -> bytes:
    rng = random.Random(seed)
    doc = Doc()
    doc.line("YOUR COMPANY NAME", bold=True)
    doc.line("Street Address, City, ZIP Code")
    doc.line("Phone: (000) 000-0000   Email: name@example.com")
    doc.gap()
    doc.line("INVOICE", bold=True)
    doc.pair("Invoice No.", "INV-XXXX")
    doc.pair("Invoice Date", "MM/DD/YYYY")
    doc.pair("Due Date", "MM/DD/YYYY")
    doc.gap()
    doc.line("Bill To:")
    doc.line("Client Name")
    doc.line("Client Address")
    doc.gap()
    doc.row(
        ("Description", 0.55, "L"),
        ("Qty", 0.1, "R"),
        ("Unit Price", 0.15, "R"),
        ("Amount", 0.2, "R"),
    )
    for _ in range(rng.randint(3, 6)):
        doc.row(
            ("Item description", 0.55, "L"),
            ("1", 0.1, "R"),
            ("$0.00", 0.15, "R"),
            ("$0.00", 0.2, "R"),
        )
    doc.pair("Subtotal", "$0.00")
    doc.pair("Tax (0%)", "$0.00")
    doc.pair("Total Due", "$0.00", bold=True)
    doc.line("Payment terms: Net 30. Make checks payable to Your Company Name.")
    return doc.bytes()


def merge_field_template(seed: int) -> bytes:
    rng = random.Random(seed)
    doc = Doc()
    doc.line("{{company.name}} - {{company.street}} - {{company.city}}")
    doc.line("{{customer.name}}")
    doc.line("{{customer.address}}")
    doc.gap()
    doc.line("Rechnung {{invoice.number}}", bold=True)
    doc.pair("Datum:", "{{invoice.date}}")
    doc.pair("Kundennummer:", "{{customer.number}}")
    doc.gap()
    for _ in range(rng.randint(2, 4)):
        doc.row(
            ("{{item.description}}", 0.6, "L"),
            ("{{item.quantity}}", 0.15, "R"),
            ("{{item.total}}", 0.25, "R"),
        )
    doc.pair("Netto", "{{invoice.net}} EUR")
    doc.pair("USt. 19 %", "{{invoice.vat}} EUR")
    doc.pair("Gesamtbetrag", "{{invoice.gross}} EUR", bold=True)
    doc.line("Zahlbar bis {{invoice.due_date}} ohne Abzug.")
    doc.line("IBAN {{company.iban}} · USt-IdNr. {{company.vat_id}}")
    return doc.bytes()


KINDS: dict[str, tuple[Layout, ...]] = {
    "receipt": (till_receipt, restaurant_bill, taxi_receipt, cafe_receipt),
    "template": (bracket_template, mask_template, merge_field_template),
    "chart_of_accounts": (skr_chart, english_chart, trial_balance),
    "price_list": (german_price_list, english_price_list, rate_card),
}
EXPECTED = {
    "receipt": "invoice",
    "template": "invoice",
    "chart_of_accounts": "other_document",
    "price_list": "other_document",
}

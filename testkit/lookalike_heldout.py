"""One more layout per lookalike kind, written after the classifier's rules were set and
never used to tune them: the held-out check of scripts/corpus_report_lookalikes.py.

- receipt: a bakery's till receipt headed "Kassenbeleg", two VAT rates;
- template: an English template with single-brace fields and zero amounts;
- chart of accounts: an SKR04-like chart with account groups;
- price list: a restaurant menu (Speisekarte) with prices and VAT note.
"""

from __future__ import annotations

import random
from decimal import Decimal

from testkit.generated_docs import german_amount
from testkit.lookalike_base import Doc, included_tax, random_price


def bakery_receipt(seed: int) -> bytes:
    rng = random.Random(seed)
    doc = Doc(76, 170, size=8)
    doc.line("BÄCKEREI KORN", bold=True, align="C")
    doc.line("Marktplatz 2, 93047 Regensburg", align="C")
    doc.line("Kassenbeleg", bold=True, align="C")
    doc.line(f"Bon {rng.randint(1000, 9999)}  Kasse 2  {rng.randint(1, 28):02d}.03.2024 07:42")
    goods = [("Brezel", Decimal(7)), ("Roggenbrot 750g", Decimal(7)), ("Kaffee to go", Decimal(19))]
    goods += [("Laugenstange", Decimal(7)), ("Cappuccino", Decimal(19))]
    totals = {Decimal(7): Decimal(0), Decimal(19): Decimal(0)}
    for name, rate in rng.sample(goods, rng.randint(3, 5)):
        count, price = rng.randint(1, 3), random_price(rng, 1, 5)
        totals[rate] += count * price
        doc.pair(f"{count} x {name}", german_amount(count * price))
    total = sum(totals.values(), Decimal(0))
    doc.pair("Gesamt EUR", german_amount(total), bold=True)
    doc.pair("Bar", german_amount(total + Decimal(5)))
    doc.pair("Zurück", german_amount(Decimal(5)))
    for rate, gross in totals.items():
        if gross:
            tax = included_tax(gross, rate)
            doc.line(f"enth. MwSt {rate}% auf {german_amount(gross)}: {german_amount(tax)}")
    doc.line(f"TSE-Signatur {rng.getrandbits(64):016x}")
    return doc.bytes()


def brace_template(seed: int) -> bytes:
    rng = random.Random(seed)
    doc = Doc()
    doc.line("{company_name}", bold=True)
    doc.line("{company_address}")
    doc.gap()
    doc.line("Invoice", bold=True)
    doc.pair("Invoice number", "{number}")
    doc.pair("Date", "{date}")
    doc.line("Bill to: {client_name}, {client_address}")
    doc.gap()
    for _ in range(rng.randint(2, 4)):
        doc.pair("Lorem ipsum dolor sit amet", "0.00")
    doc.pair("Net", "0.00")
    doc.pair("VAT 20%", "0.00")
    doc.pair("Total", "0.00", bold=True)
    return doc.bytes()


_SKR04 = (
    ("Anlagevermögen", (("0135", "EDV-Software"), ("0520", "Pkw"), ("0650", "Büroeinrichtung"))),
    ("Umlaufvermögen", (("1200", "Forderungen aus Lieferungen und Leistungen"),
                        ("1406", "Abziehbare Vorsteuer 19 %"), ("1460", "Geldtransit"),
                        ("1600", "Kasse"), ("1800", "Bank"))),
    ("Passiva", (("3300", "Verbindlichkeiten aus Lieferungen und Leistungen"),
                 ("3806", "Umsatzsteuer 19 %"), ("3820", "Umsatzsteuer-Vorauszahlungen"))),
    ("Erlöse und Aufwand", (("4400", "Erlöse 19 % USt"), ("5400", "Wareneingang 19 % Vorsteuer"),
                            ("6000", "Löhne"), ("6310", "Miete"), ("6815", "Bürobedarf"))),
)  # fmt: skip


def skr04_chart(seed: int) -> bytes:
    rng = random.Random(seed)
    doc = Doc()
    doc.line("Kontenplan SKR 04 (Auszug)", bold=True)
    doc.line(f"Beratungskanzlei Weber · Mandantennummer {rng.randint(1000, 9999)}")
    for group, accounts in _SKR04:
        doc.gap()
        doc.line(group, bold=True)
        for number, name in accounts:
            doc.row((number, 0.15, "L"), (name, 0.85, "L"))
    return doc.bytes()


def restaurant_menu(seed: int) -> bytes:
    rng = random.Random(seed)
    doc = Doc()
    doc.line("Speisekarte", bold=True, align="C")
    doc.line("Landgasthof Linde · Dorfstraße 1 · 79100 Freiburg", align="C")
    dishes = (
        "Flädlesuppe", "Schäufele mit Kartoffelsalat", "Käsespätzle", "Forelle blau",
        "Wurstsalat", "Schwarzwälder Kirschtorte", "Apfelstrudel", "Viertel Gutedel",
    )  # fmt: skip
    for dish in rng.sample(dishes, rng.randint(6, len(dishes))):
        doc.pair(dish, f"{german_amount(random_price(rng, 4, 24))} EUR")
    doc.gap()
    doc.line("Alle Preise in Euro inklusive 19 % Mehrwertsteuer und Bedienung.")
    doc.line("Wir bitten um Verständnis, dass wir ab 10 Personen nur eine Rechnung ausstellen.")
    return doc.bytes()


HELD_OUT = {
    "receipt": (bakery_receipt,),
    "template": (brace_template,),
    "chart_of_accounts": (skr04_chart,),
    "price_list": (restaurant_menu,),
}

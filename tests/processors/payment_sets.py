"""Bank statement transactions and invoices made together with known pairs, for the
payment matching's measurement (processors/payment_matching.py): exact and discounted
amounts, partial payments, one payment for several invoices, references with OCR noise
and other separators, payments without a number, and payments of nothing here."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from processors.payment_matching import OpenInvoice, Payment

_SUPPLIERS = (
    "Stadtwerke Nord GmbH",
    "Bürobedarf Müller KG",
    "Papier & Co. OHG",
    "IT-Service Schmidt",
    "Logistik Weber GmbH & Co. KG",
    "Kanzlei Braun",
    "Druckerei Fischer e.K.",
    "Reinigung Hoffmann",
    "Software Wagner AG",
    "Elektro Becker GmbH",
    "Cloud Hosting Ltd",
    "Transporte Schulz",
)
_CUSTOMERS = (
    "Kunde Digital KG",
    "Bäckerei Krüger",
    "Autohaus Lange GmbH",
    "Praxis Dr. Wolf",
    "Hotel Seeblick",
    "Architekten Koch",
    "Modehaus Richter",
    "Gartenbau Klein",
)
_FORMATS = ("RE-{y}-{n:04d}", "INV/{y}/{n}", "{y}{n:05d}", "R{n:06d}", "RG {n}", "F-{n:05d}-{y}")
_OCR = {"0": "O", "1": "I", "5": "S", "8": "B"}
_NOISE = ("Zahlung", "Rechnung", "RG", "Inv.", "Ihre Rechnung", "Rechnungsnr.", "Beleg")


@dataclass(frozen=True)
class PaymentSet:
    invoices: list[OpenInvoice]
    payments: list[Payment]
    pairs: set[tuple[tuple[str, int], str]]  # (payment, invoice) that belong together


def _iban(chooser: random.Random) -> str:
    return "DE" + "".join(chooser.choice("0123456789") for _ in range(20))


def _noisy_number(number: str, chooser: random.Random) -> str:
    roll = chooser.random()
    if roll < 0.25:
        number = number.replace("-", "").replace("/", "").replace(" ", "")
    elif roll < 0.45:
        number = number.replace("-", " ").replace("/", " ")
    elif roll < 0.6:
        digits = [i for i, ch in enumerate(number) if ch in _OCR]
        if digits:
            at = chooser.choice(digits[1:-1] or digits)
            number = number[:at] + _OCR[number[at]] + number[at + 1 :]
    elif roll < 0.65:
        number = number.lower()
    elif roll < 0.72:  # a typo: one digit another
        digits = [i for i, ch in enumerate(number) if ch.isdigit()]
        at = chooser.choice(digits)
        number = number[:at] + str((int(number[at]) + 1) % 10) + number[at + 1 :]
    return number


def _reference(numbers: list[str], chooser: random.Random) -> str:
    words = [chooser.choice(_NOISE)] if chooser.random() < 0.7 else []
    words += [_noisy_number(n, chooser) for n in numbers]
    if chooser.random() < 0.3:
        words.append(f"Kd-Nr {chooser.randint(1000, 99999)}")
    return " ".join(words)


def payment_set(seed: int, invoices_per_side: int = 60) -> PaymentSet:
    chooser = random.Random(seed)
    parties = {name: _iban(chooser) for name in _SUPPLIERS + _CUSTOMERS}
    invoices: list[OpenInvoice] = []
    for index in range(2 * invoices_per_side):
        outgoing = index % 2 == 0
        name = chooser.choice(_SUPPLIERS if outgoing else _CUSTOMERS)
        form = chooser.choice(_FORMATS)
        number = form.format(y=2024, n=chooser.randint(10, 99999))
        amount = Decimal(chooser.randint(1500, 900000)) / 100
        issued = date(2024, 1, 1) + timedelta(days=chooser.randint(0, 300))
        ibans = (parties[name],) if outgoing and chooser.random() < 0.8 else ()
        invoices.append(
            OpenInvoice(f"inv{index}", outgoing, number, issued, amount, "EUR", name, ibans)
        )
        if chooser.random() < 0.15:  # a monthly invoice: the same amount again
            again = form.format(y=2024, n=chooser.randint(10, 99999))
            later = issued + timedelta(days=30)
            invoices.append(
                OpenInvoice(f"inv{index}m", outgoing, again, later, amount, "EUR", name, ibans)
            )
    payments: list[Payment] = []
    pairs: set[tuple[tuple[str, int], str]] = set()

    def pay(amount: Decimal, invoice_list: list[OpenInvoice], reference: str) -> None:
        first = invoice_list[0]
        key = ("statement", len(payments))
        booked = max(i.issue_date or date(2024, 1, 1) for i in invoice_list)
        booked += timedelta(days=chooser.randint(0, 40))
        name = first.party_name if chooser.random() < 0.9 else None
        if name and chooser.random() < 0.4:
            name = name.upper().replace(" GMBH", "").replace(" KG", "")
        iban = parties[first.party_name or ""] if chooser.random() < 0.7 else None
        signed = -amount if first.outgoing else amount
        payments.append(Payment(key, signed, "EUR", booked, name, iban, reference))
        pairs.update((key, invoice.key) for invoice in invoice_list)

    shuffled = invoices[:]
    chooser.shuffle(shuffled)
    at = 0
    while at < len(shuffled) * 0.85:
        invoice = shuffled[at]
        roll = chooser.random()
        number = invoice.number or ""
        if roll < 0.55:  # paid in full
            reference = _reference([number], chooser) if chooser.random() < 0.85 else "Zahlung"
            pay(invoice.open_amount, [invoice], reference)
            at += 1
        elif roll < 0.7:  # less a discount of 2 or 3 %
            rate = chooser.choice((Decimal("0.02"), Decimal("0.03")))
            paid = (invoice.open_amount * (1 - rate)).quantize(Decimal("0.01"))
            pay(paid, [invoice], _reference([number], chooser) + " abzgl. Skonto")
            at += 1
        elif roll < 0.82:  # two partial payments
            half = (invoice.open_amount / 2).quantize(Decimal("0.01"))
            pay(half, [invoice], _reference([number], chooser) + " 1. Rate")
            pay(invoice.open_amount - half, [invoice], _reference([number], chooser) + " Rest")
            at += 1
        else:  # one payment for two or three invoices of the same party and side
            same = [
                other
                for other in shuffled[at + 1 :]
                if other.party_name == invoice.party_name and other.outgoing == invoice.outgoing
            ]
            group = [invoice, *same[: chooser.randint(1, 2)]]
            for other in group[1:]:
                shuffled.remove(other)
                shuffled.insert(at + 1, other)
            total = sum((i.open_amount for i in group), Decimal(0))
            pay(total, group, _reference([i.number or "" for i in group], chooser))
            at += len(group)
    # Payments of nothing here: salaries, rent, card fees, and amounts of no invoice.
    for _ in range(len(invoices) // 3):
        amount = Decimal(chooser.randint(500, 500000)) / 100
        key = ("statement", len(payments))
        purpose = chooser.choice(
            ("Gehalt", "Miete Büro", "Kartenumsatz", "Lastschrift Versicherung")
        )
        signed = -amount if chooser.random() < 0.6 else amount
        payments.append(
            Payment(key, signed, "EUR", date(2024, 6, 1), "Irgendwer GmbH", _iban(chooser), purpose)
        )
    return PaymentSet(invoices, payments, pairs)

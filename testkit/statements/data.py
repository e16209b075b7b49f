"""Known statement data for the generated layouts: seeded, so a layout always renders the
same statement. Amounts and balances are signed from the account holder's side (money
out is negative), also for credit cards, whose printouts show what is owed instead.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from enum import StrEnum


class Kind(StrEnum):
    INCOMING = "incoming"
    OUTGOING = "outgoing"
    DIRECT_DEBIT = "direct_debit"
    CARD = "card"
    FEE = "fee"


@dataclass(frozen=True)
class Transaction:
    booking: date
    value: date
    amount: Decimal
    kind: Kind
    counterparty: str
    iban: str | None
    purpose: tuple[str, ...]
    """Remittance lines as the bank prints them (reference, invoice, mandate)."""


@dataclass(frozen=True)
class Statement:
    holder: str
    account_iban: str
    currency: str
    number: str
    start: date
    end: date
    opening: Decimal
    transactions: tuple[Transaction, ...]

    @property
    def closing(self) -> Decimal:
        return self.opening + sum((t.amount for t in self.transactions), Decimal(0))

    def balances(self) -> list[Decimal]:
        """The running balance after each transaction."""
        running, out = self.opening, []
        for transaction in self.transactions:
            running += transaction.amount
            out.append(running)
        return out


BANK_CODES = {
    "DE": lambda r: f"{r.randrange(10**8):08d}{r.randrange(10**10):010d}",
    "NL": lambda r: (
        "".join(r.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(4))
        + f"{r.randrange(10**10):010d}"
    ),
    "FR": lambda r: f"{r.randrange(10**10):010d}{r.randrange(10**11):011d}{r.randrange(100):02d}",
    "ES": lambda r: f"{r.randrange(10**10):010d}{r.randrange(10**10):010d}",
    "IT": lambda r: (
        r.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        + f"{r.randrange(10**10):010d}{r.randrange(10**12):012d}"
    ),
    "GB": lambda r: (
        "".join(r.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(4))
        + f"{r.randrange(10**14):014d}"
    ),
    "AT": lambda r: f"{r.randrange(10**16):016d}",
}


def make_iban(country: str, rng: random.Random) -> str:
    """A random IBAN with valid check digits (ISO 7064 mod 97-10)."""
    bban: str = BANK_CODES[country](rng)  # type: ignore[no-untyped-call]
    digits = "".join(str(int(char, 36)) for char in bban + country + "00")
    check = 98 - int(digits) % 97
    return f"{country}{check:02d}{bban}"


COUNTERPARTIES = {
    "de": (
        "Stadtwerke Nordheim GmbH",
        "Muster Immobilien KG",
        "Allianz Versicherungs-AG",
        "Telekom Deutschland GmbH",
        "Finanzamt Mitte",
        "Julia Becker",
        "Bäckerei Schmidt",
        "Hausverwaltung Krüger",
    ),
    "en": (
        "Northern Energy Ltd",
        "Acme Supplies Inc",
        "City Council Tax",
        "Oliver Smith",
        "Green Grocers plc",
        "Harbour Insurance Co",
        "Mobile Net Ltd",
        "Parker & Sons",
    ),
    "nl": (
        "Eneco Energie BV",
        "Gemeente Utrecht",
        "Jansen Installatie",
        "Ziggo Services BV",
        "Pieter de Vries",
        "Bakkerij Visser",
    ),
    "fr": (
        "EDF Clients Particuliers",
        "SARL Dupont et Fils",
        "Mutuelle Générale",
        "Orange SA",
        "Claire Martin",
        "Boulangerie Lefèvre",
    ),
    "es": (
        "Iberdrola Clientes SA",
        "Construcciones García SL",
        "Telefónica de España",
        "Lucía Fernández",
        "Mapfre Seguros",
    ),
    "it": (
        "Enel Energia SpA",
        "Rossi Costruzioni Srl",
        "Assicurazioni Generali",
        "Marco Bianchi",
        "Tim SpA",
    ),
}
EMPLOYERS = {
    "de": "Arbeitgeber Nord AG",
    "en": "Bright Future Ltd",
    "nl": "Werkgever Holland BV",
    "fr": "Société Employeur SA",
    "es": "Empresa Ejemplo SA",
    "it": "Datore di Lavoro SpA",
}
MERCHANTS = (
    "REWE Markt 4471",
    "Amazon EU S.a.r.l.",
    "Shell Station 22",
    "Lidl Filiale 118",
    "Uber BV",
    "Starbucks Coffee 091",
    "IKEA Store 31",
    "Spotify AB",
)
PURPOSES = {
    "de": (
        ("Rechnung RE-2025-{n}", "Kundennr. {k}"),
        ("Miete {m}", "Objekt Lindenstr. 4"),
        ("Beitrag {m} Vertrag {k}",),
        ("Abschlag Strom {m}", "Vertragskonto {k}", "Zählernr. Z-{n}"),
    ),
    "en": (
        ("Invoice INV-{n}", "Customer ref {k}"),
        ("Rent {m}", "Flat 4B Harbour Road"),
        ("Premium {m} policy {k}",),
        ("Energy bill {m}", "Account {k}", "Meter M-{n}"),
    ),
    "nl": (
        ("Factuur F-{n}", "Klantnummer {k}"),
        ("Huur {m}", "Kerkstraat 12"),
        ("Termijnbedrag {m} contract {k}",),
    ),
    "fr": (
        ("Facture FA-{n}", "Réf. client {k}"),
        ("Loyer {m}", "Appartement 3 rue Victor Hugo"),
        ("Cotisation {m} contrat {k}",),
    ),
    "es": (
        ("Factura F-{n}", "Ref. cliente {k}"),
        ("Alquiler {m}", "Calle Mayor 8"),
        ("Cuota {m} contrato {k}",),
    ),
    "it": (
        ("Fattura FT-{n}", "Cod. cliente {k}"),
        ("Affitto {m}", "Via Roma 21"),
        ("Premio {m} polizza {k}",),
    ),
}
SALARY = {
    "de": "Gehalt {m}",
    "en": "Salary {m}",
    "nl": "Salaris {m}",
    "fr": "Salaire {m}",
    "es": "Nómina {m}",
    "it": "Stipendio {m}",
}
FEES = {
    "de": "Kontoführungsentgelt",
    "en": "Monthly account fee",
    "nl": "Kosten betaalpakket",
    "fr": "Frais de tenue de compte",
    "es": "Comisión mantenimiento",
    "it": "Canone mensile conto",
}
MANDATE = {
    "de": "Mandatsref.",
    "en": "Mandate",
    "nl": "Machtiging",
    "fr": "RUM",
    "es": "Mandato",
    "it": "Mandato",
}
MONTH = {
    "de": "März",
    "en": "March",
    "nl": "maart",
    "fr": "mars",
    "es": "marzo",
    "it": "marzo",
}


@dataclass(frozen=True)
class DataSpec:
    """What kind of statement a layout shows: its language, currency, countries."""

    language: str
    currency: str = "EUR"
    country: str = "DE"
    transactions: int = 10
    card: bool = False
    """Card statements: purchases and one payment, no IBANs."""
    start: date = date(2025, 3, 1)
    days: int = 31
    opening: Decimal = Decimal("1523.40")
    trades: bool = False
    """A broker's cash account: outgoing bookings are buys of securities."""


def build_statement(spec: DataSpec, seed: int) -> Statement:
    rng = random.Random(seed)
    day_offsets = sorted(rng.randrange(spec.days) for _ in range(spec.transactions))
    kinds = _kinds(spec, rng)
    transactions = tuple(
        _transaction(spec, rng, spec.start + timedelta(days=offset), kind, index)
        for index, (offset, kind) in enumerate(zip(day_offsets, kinds, strict=True))
    )
    return Statement(
        holder="Anna Beispiel" if spec.language == "de" else "Sam Example",
        account_iban=make_iban(spec.country if spec.country in BANK_CODES else "DE", rng),
        currency=spec.currency,
        number=str(rng.randrange(2, 12)),
        start=spec.start,
        end=spec.start + timedelta(days=spec.days - 1),
        opening=-spec.opening if spec.card else spec.opening,
        transactions=transactions,
    )


def _kinds(spec: DataSpec, rng: random.Random) -> list[Kind]:
    if spec.card:
        kinds = [Kind.CARD] * spec.transactions
        kinds[spec.transactions // 2] = Kind.INCOMING  # the monthly payment to the card
        return kinds
    pool = [Kind.OUTGOING, Kind.DIRECT_DEBIT, Kind.DIRECT_DEBIT, Kind.CARD, Kind.CARD]
    kinds = [rng.choice(pool) for _ in range(spec.transactions)]
    kinds[1 % spec.transactions] = Kind.INCOMING
    kinds[-1] = Kind.FEE
    return kinds


def _transaction(
    spec: DataSpec, rng: random.Random, booking: date, kind: Kind, index: int
) -> Transaction:
    language = spec.language
    value = booking - timedelta(days=rng.choice((0, 0, 0, 1, 2))) if kind is Kind.CARD else booking
    n, k, m = f"{rng.randrange(1000, 99999)}", f"{rng.randrange(10**5, 10**8)}", MONTH[language]
    if kind is Kind.CARD:
        amount = -Decimal(rng.randrange(150, 25000)) / 100
        merchant = MERCHANTS[rng.randrange(len(MERCHANTS))]
        return Transaction(booking, value, amount, kind, merchant, None, ())
    if kind is Kind.FEE:
        amount = -Decimal(rng.choice((490, 590, 990, 1250))) / 100
        return Transaction(booking, booking, amount, kind, FEES[language], None, ())
    if kind is Kind.OUTGOING and spec.trades:
        return _trade(language, rng, booking)
    country = rng.choice(("DE", "DE", "NL", "FR", "AT", spec.country))
    iban = make_iban(country if country in BANK_CODES else "DE", rng)
    if kind is Kind.INCOMING:
        if spec.card:
            amount = Decimal(rng.randrange(20000, 90000)) / 100
            return Transaction(booking, booking, amount, kind, "Payment received", None, ())
        amount = Decimal(rng.randrange(150000, 420000)) / 100
        purpose: tuple[str, ...] = (SALARY[language].format(m=m), f"Ref {k}")
        return Transaction(booking, booking, amount, kind, EMPLOYERS[language], iban, purpose)
    amount = -Decimal(rng.randrange(1000, 150000)) / 100
    names = COUNTERPARTIES[language]
    template = PURPOSES[language][rng.randrange(len(PURPOSES[language]))]
    purpose = tuple(line.format(n=n, k=k, m=m) for line in template)
    if kind is Kind.DIRECT_DEBIT:
        purpose = (*purpose, f"{MANDATE[language]} M-{index}{n}")
    return Transaction(
        booking, booking, amount, kind, names[rng.randrange(len(names))], iban, purpose
    )


SECURITIES = (
    ("iShares Core MSCI World", "IE00B4L5Y983"),
    ("Vanguard FTSE All-World", "IE00BK5BQT80"),
    ("Xtrackers MSCI Emerging", "IE00BTJRMP35"),
    ("Muster Technologie AG", "DE000A0MUST1"),
    ("Example Pharma plc", "GB00B0EXMPL2"),
)
BUY = {
    "de": "Kauf {quantity} Stk.",
    "en": "Buy trade, quantity {quantity}",
    "nl": "Aankoop {quantity} stuks",
}


def _trade(language: str, rng: random.Random, booking: date) -> Transaction:
    """A broker's buy of a security (issue 40, class 2): it moves cash, so it is a
    booking; the security is the counterparty, the quantity and ISIN its purpose."""
    name, isin = SECURITIES[rng.randrange(len(SECURITIES))]
    amount = -Decimal(rng.randrange(2500, 150000)) / 100
    quantity = f"{Decimal(rng.randrange(100, 250000)) / 1000:.3f}"
    if language != "en":
        quantity = quantity.replace(".", ",")
    purpose = (BUY[language].format(quantity=quantity), f"ISIN {isin}")
    return Transaction(booking, booking, amount, Kind.OUTGOING, name, None, purpose)

"""What a generated plain PDF invoice says (issue 36): its values drawn from a seed, its
normalized `Invoice` (the truth the measurement compares with), and the way each
language prints amounts and dates. The layouts are in pdf_invoice_layouts.py
(tuning) and pdf_invoice_heldout.py (held out)."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from datetime import date, timedelta
from decimal import Decimal

from processors.invoice_model import (
    Address,
    Invoice,
    InvoiceType,
    Party,
    PaymentMeans,
    Totals,
    VatBreakdown,
)
from tests.processors.hybrid_layouts import english_amount, german_amount, grouped_iban

CENT = Decimal("0.01")


@dataclass(frozen=True, slots=True)
class Company:
    name: str
    street: str
    city: str  # postal code and city
    vat_id: str
    register: str  # "Amtsgericht München HRB 123456", "RCS Lyon B 123 456 789"


@dataclass(frozen=True, slots=True)
class Line:
    description: str
    quantity: Decimal
    unit_price: Decimal
    rate: Decimal

    @property
    def net(self) -> Decimal:
        return (self.quantity * self.unit_price).quantize(CENT)


@dataclass(frozen=True, slots=True)
class Truth:
    """One invoice's printed values. Amounts carry the sign they are printed with (a
    credit note prints negative amounts); charge and allowance are taxed at the first
    line's rate."""

    number: str
    issue_date: date
    due_date: date
    currency: str
    seller: Company
    buyer: Company
    contact: str  # the buyer's person: "Frau Erika Muster"
    iban: str
    bic: str
    lines: tuple[Line, ...]
    charge: Decimal = Decimal("0.00")
    allowance: Decimal = Decimal("0.00")
    prepaid: Decimal = Decimal("0.00")
    exempt: bool = False  # reverse charge or intra-EU delivery: every rate 0
    credit_note: bool = False
    order: str = ""  # the buyer's order number
    delivery_note: str = ""

    @property
    def line_total(self) -> Decimal:
        return sum((line.net for line in self.lines), Decimal("0.00"))

    def bases(self) -> dict[Decimal, Decimal]:
        """The taxable amount per rate, in the order the rates first appear."""
        bases: dict[Decimal, Decimal] = {}
        for line in self.lines:
            bases[line.rate] = bases.get(line.rate, Decimal("0.00")) + line.net
        first = self.lines[0].rate
        bases[first] += self.charge - self.allowance
        return bases

    def taxes(self) -> dict[Decimal, Decimal]:
        return {rate: (base * rate / 100).quantize(CENT) for rate, base in self.bases().items()}

    @property
    def net(self) -> Decimal:
        return sum(self.bases().values(), Decimal("0.00"))

    @property
    def vat(self) -> Decimal:
        return sum(self.taxes().values(), Decimal("0.00"))

    @property
    def gross(self) -> Decimal:
        return self.net + self.vat

    @property
    def amount_due(self) -> Decimal:
        return self.gross - self.prepaid

    def invoice(self) -> Invoice:
        """The normalized invoice the page shows."""
        code = "AE" if self.exempt else "S"
        return Invoice(
            number=self.number,
            invoice_type=InvoiceType.CREDIT_NOTE if self.credit_note else InvoiceType.INVOICE,
            type_code="381" if self.credit_note else "380",
            issue_date=self.issue_date,
            currency=self.currency,
            seller=_party(self.seller),
            buyer=_party(self.buyer, with_vat_id=self.exempt),
            totals=Totals(
                line_total=self.line_total,
                allowance_total=self.allowance or None,
                charge_total=self.charge or None,
                net=self.net,
                vat=self.vat,
                gross=self.gross,
                prepaid=self.prepaid or None,
                amount_due=self.amount_due,
            ),
            due_date=self.due_date,
            vat_breakdown=tuple(
                VatBreakdown(code, rate, base, self.taxes()[rate])
                for rate, base in self.bases().items()
            ),
            payment_means=(PaymentMeans("58", payee_iban=self.iban, payee_bic=self.bic),),
            order_reference=self.order or None,
        )


def _party(company: Company, with_vat_id: bool = True) -> Party:
    postal, _, city = company.city.partition(" ")
    return Party(
        name=company.name,
        address=Address((company.street,), city, postal),
        vat_id=company.vat_id if with_vat_id else None,
    )


# --- values from a seed ----------------------------------------------------------------

# Per country: rates, IBAN (BBAN digits, letters first), VAT id pattern, sellers, buyers,
# streets and cities, register.
_COUNTRY = {
    "DE": ((19, 7), (0, 18), "DE#########", "Amtsgericht {c} HRB {n}"),
    "FR": ((20, 10, 5.5), (0, 23), "FR##########", "RCS {c} B {n}"),
    "NL": ((21, 9), (4, 10), "NL#########B01", "KvK {n}"),
    "IT": ((22, 10), (1, 22), "IT###########", "REA {c} {n}"),
    "ES": ((21, 10), (0, 20), "ESB########", "Registro Mercantil de {c} {n}"),
    "GB": ((20,), (4, 14), "GB#########", "Company No. {n}"),
}
_NAMES = {
    "DE": ("Holzmann Werkzeuge GmbH", "Brandt & Söhne KG", "Lindner Elektrotechnik GmbH",
           "Kühne Bürobedarf e.K.", "Sommer IT-Service GmbH & Co. KG", "Weber Logistik AG"),
    "FR": ("Atelier Moreau SARL", "Boulangerie Petit SAS", "Dubois Conseil SA",
           "Éditions Lefèvre SARL", "Garnier Transports SAS"),
    "NL": ("Van der Berg Installatie BV", "De Vries Drukkerij BV", "Bakker Techniek VOF",
           "Jansen Groothandel BV"),
    "IT": ("Rossi Forniture S.r.l.", "Bianchi Meccanica S.p.A.", "Ferrari Ufficio S.r.l.",
           "Colombo Servizi S.n.c."),
    "ES": ("Suministros García S.L.", "Martínez Ingeniería S.A.", "López Distribución S.L.",
           "Construcciones Ruiz S.L."),
    "GB": ("Harper & Lane Ltd", "Northfield Supplies Ltd", "Bright Office Solutions Ltd",
           "Kingsway Consulting LLP"),
}  # fmt: skip
_PLACES = {
    "DE": (("Hauptstraße 12", "80331 München"), ("Industriestr. 4a", "50667 Köln"),
           ("Am Markt 7", "04109 Leipzig"), ("Lindenallee 23", "20095 Hamburg")),
    "FR": (("12 rue de la République", "69002 Lyon"), ("4 avenue Foch", "75016 Paris"),
           ("8 place du Marché", "33000 Bordeaux")),
    "NL": (("Keizersgracht 101", "1015 Amsterdam"), ("Stationsplein 3", "3511 Utrecht")),
    "IT": (("Via Roma 15", "20121 Milano"), ("Corso Vittorio 8", "10121 Torino")),
    "ES": (("Calle Mayor 21", "28013 Madrid"), ("Avenida Diagonal 402", "08037 Barcelona")),
    "GB": (("14 High Street", "OX1 4AB Oxford"), ("2 King's Road", "SW3 4RP London")),
}  # fmt: skip
_PEOPLE = ("Erika Muster", "Jan Schröder", "Marie Laurent", "Pieter de Jong", "Anna Rossi")
_ITEMS = ("Beratung", "Montage", "Wartung", "Material", "Software-Lizenz", "Schulung",
          "Transport", "Ersatzteile", "Reinigung", "Druckerpatronen")  # fmt: skip
_NUMBERS = ("RE-{y}-{n:05d}", "{y}{n:06d}", "F-{y}/{n}", "INV-{n:06d}", "{n:07d}", "R{y}-{n}")


def random_truth(seed: int | str, country: str = "DE", **options: object) -> Truth:
    """Values drawn from the seed for a seller in `country`; `options` set any field
    (charge, allowance, prepaid, exempt, credit_note, order, delivery_note)."""
    rng = random.Random(f"{country}-{seed}")
    rates, _, _, _ = _COUNTRY[country]
    issued = date(2023, 1, 2) + timedelta(days=rng.randrange(900))
    lines = tuple(
        Line(
            rng.choice(_ITEMS),
            Decimal(rng.choice((1, 1, 2, 3, 5, 10, 12))),
            Decimal(rng.randrange(500, 250_000)) / 100,
            Decimal(str(rng.choice(rates) if index else rates[0])),
        )
        for index in range(rng.randint(1, 4))
    )
    buyer_country = country if country != "GB" else "DE"
    truth = Truth(
        number=rng.choice(_NUMBERS).format(y=issued.year, n=rng.randrange(1, 99999)),
        issue_date=issued,
        due_date=issued + timedelta(days=rng.choice((10, 14, 30))),
        currency="GBP" if country == "GB" else "EUR",
        seller=(seller := _company(rng, country)),
        buyer=_company(rng, buyer_country, other_than=seller.name),
        contact=rng.choice(_PEOPLE),
        iban=iban(rng, country),
        bic="".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(4)) + country + "XX",
        lines=lines,
        order=f"{rng.randrange(2018, 2026)}-{rng.randrange(100000, 999999)}",
        delivery_note=f"LS-{rng.randrange(10000, 99999)}",
    )
    truth = replace(truth, **options)  # type: ignore[arg-type]
    if truth.exempt:
        truth = replace(truth, lines=tuple(replace(x, rate=Decimal(0)) for x in truth.lines))
    if truth.credit_note:
        truth = replace(truth, lines=tuple(replace(x, quantity=-x.quantity) for x in truth.lines))
    return truth


def _company(rng: random.Random, country: str, other_than: str = "") -> Company:
    _, _, vat_pattern, register = _COUNTRY[country]
    street, city = rng.choice(_PLACES[country])
    return Company(
        rng.choice([name for name in _NAMES[country] if name != other_than]),
        street,
        city,
        "".join(str(rng.randrange(10)) if c == "#" else c for c in vat_pattern),
        register.format(c=city.split(" ", 1)[1], n=rng.randrange(10000, 999999)),
    )


def iban(rng: random.Random, country: str) -> str:
    """A valid IBAN of the country's length, its bank code letters first where the
    country's has letters (NL, GB, IT)."""
    letters, digits = _COUNTRY[country][1]
    bban = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(letters)) + "".join(
        rng.choice("0123456789") for _ in range(digits)
    )
    numeric = "".join(str(int(char, 36)) for char in bban + country + "00")
    return f"{country}{98 - int(numeric) % 97:02d}{bban}"


# --- printing --------------------------------------------------------------------------


def amount_in(language: str, value: Decimal) -> str:
    """An amount as the language prints it: 1.234,56 / 1,234.56 / 1 234,56."""
    if language == "en":
        return english_amount(value)
    if language == "fr":
        return f"{value:,.2f}".replace(",", " ").replace(".", ",")
    return german_amount(value)


def date_in(language: str, value: date) -> str:
    separator = {"de": ".", "nl": "-", "en": "/"}.get(language, "/")
    return f"{value.day:02d}{separator}{value.month:02d}{separator}{value.year}"


__all__ = ["Company", "Line", "Truth", "amount_in", "date_in", "grouped_iban", "random_truth"]

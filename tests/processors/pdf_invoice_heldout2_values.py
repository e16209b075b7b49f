"""The values of the SECOND held-out set of generated plain PDF invoices (issue 36):
sellers and buyers of seven countries, their VAT ids, IBANs and rates, and the way each
prints amounts and dates. The layouts are in pdf_invoice_heldout2.py.

To the engineers working on the PDF invoice reader: do not open this file or
pdf_invoice_heldout2.py, do not tune on what they print, and do not change them to make
the reader pass (docs/pdf_invoices.md, "The sets")."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from decimal import Decimal

from tests.processors.hybrid_layouts import ENGLISH_MONTHS, GERMAN_MONTHS, german_amount
from tests.processors.pdf_invoice_pages import Page
from tests.processors.pdf_invoice_truth import Company, Line, Truth, grouped_iban

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True, slots=True)
class Country:
    code: str
    currency: str
    rates: tuple[str, ...]  # the standard rate first
    vat_pattern: str  # "#" a digit; empty: no VAT id (a US seller)
    iban_shape: tuple[int, int]  # letters, digits of the BBAN; (0, 0): no IBAN
    register: str  # with {n}
    names: tuple[str, ...]
    places: tuple[tuple[str, str], ...]  # street, "postal city"


COUNTRIES = {
    "AT": Country("AT", "EUR", ("20", "10", "13"), "ATU########", (0, 16),
                  "FN {n}a, Landesgericht {c}",
                  ("Gruber Haustechnik GmbH", "Pichler & Huber OG", "Steiner Metallbau GmbH",
                   "Alpenblick Gastronomiebedarf KG", "Wimmer Softwareentwicklung e.U."),
                  (("Mariahilfer Straße 88", "1070 Wien"), ("Landstraße 31", "4020 Linz"),
                   ("Getreidegasse 9", "5020 Salzburg"), ("Herrengasse 5", "8010 Graz"))),
    "CH": Country("CH", "CHF", ("8.1", "2.6"), "CHE-###.###.### MWST", (0, 17),
                  "Handelsregister Kanton Zürich",
                  ("Keller Informatik AG", "Brunner Schreinerei GmbH", "Meier & Frei Treuhand AG",
                   "Zürcher Velowerk GmbH", "Baumann Reinigungen AG"),
                  (("Bahnhofstrasse 42", "8001 Zürich"), ("Marktgasse 17", "3011 Bern"),
                   ("Steinenvorstadt 5", "4051 Basel"), ("Pilatusstrasse 20", "6003 Luzern"))),
    "NL": Country("NL", "EUR", ("21", "9"), "NL#########B01", (4, 10), "KvK 6{n}1",
                  ("Smit Bouwmaterialen B.V.", "Visser Communicatie B.V.",
                   "Mulder & Zn. V.O.F.", "Hendriks Tuinen B.V."),
                  (("Coolsingel 40", "3011 Rotterdam"), ("Grote Markt 12", "9711 Groningen"),
                   ("Stratumseind 3", "5611 Eindhoven"))),
    "IE": Country("IE", "EUR", ("23", "13.5"), "IE#######W", (4, 14), "Company No. {n}",
                  ("Quay Street Design Ltd", "Brennan Digital Ltd", "Liffey Analytics Ltd",
                   "Shannon Print Works Ltd"),
                  (("12 Quay Street", "H91 Galway"), ("4 Merrion Square", "D02 Dublin"),
                   ("7 Oliver Plunkett Street", "T12 Cork"))),
    "US": Country("US", "USD", ("8.25",), "", (0, 0), "EIN 84-{n}7",
                  ("Redwood Analytics Inc.", "Blue Harbor Supply Co.", "Summit Creative LLC",
                   "Great Lakes Tooling Corp."),
                  (("1450 Market Street", "San Francisco, CA 94103"),
                   ("220 W Madison St", "Chicago, IL 60606"),
                   ("88 Pine Street", "New York, NY 10005"))),
    "DE": Country("DE", "EUR", ("19", "7"), "DE#########", (0, 18), "Amtsgericht {c} HRB {n}",
                  ("Stadtwerke Rheinfeld GmbH", "Elektro Schuster GmbH",
                   "Sanitär Hoffmann GmbH & Co. KG", "Großhandel Petersen GmbH",
                   "Bürotechnik Albers KG", "Dachdeckerei Krüger e.K.", "Fischer Laborbedarf GmbH"),
                  (("Bahnhofstraße 3", "79539 Lörrach"), ("Kirchplatz 11", "33602 Bielefeld"),
                   ("Weserstraße 60", "28199 Bremen"), ("Domstraße 2", "97070 Würzburg"))),
}  # fmt: skip
_PEOPLE = ("Eva Gruber", "Thomas Berger", "Sarah Kelly", "Daan Visser", "Laura Meier")


def iban(rng: random.Random, country: str) -> str:
    """A valid IBAN of the country's BBAN shape (letters first); "" where it has none."""
    letters, digits = COUNTRIES[country].iban_shape
    if not letters + digits:
        return ""
    bban = "".join(rng.choice(_LETTERS) for _ in range(letters))
    bban += "".join(rng.choice("0123456789") for _ in range(digits))
    numeric = "".join(str(int(char, 36)) for char in bban + country + "00")
    return f"{country}{98 - int(numeric) % 97:02d}{bban}"


def company(
    rng: random.Random,
    country: str,
    names: Sequence[str] = (),
    avoid: str = "",
    avoid_street: str = "",
) -> Company:
    spec = COUNTRIES[country]
    street, city = rng.choice([p for p in spec.places if p[0] != avoid_street])
    vat_id = "".join(str(rng.randrange(10)) if c == "#" else c for c in spec.vat_pattern)
    name = rng.choice([n for n in (names or spec.names) if n != avoid])
    register = spec.register.format(c=city.split(" ", 1)[-1], n=rng.randrange(100000, 999999))
    return Company(name, street, city, vat_id, register)


def lines(
    rng: random.Random, rates: Sequence[str], items: Sequence[str], count: int
) -> tuple[Line, ...]:
    """`count` lines, the first at the standard rate, prices of two places."""
    return tuple(
        Line(
            rng.choice(items),
            Decimal(rng.choice((1, 1, 2, 4, 6, 10))),
            Decimal(rng.randrange(800, 180_000)) / 100,
            Decimal(rng.choice(rates) if index else rates[0]),
        )
        for index in range(count)
    )


def held_truth(
    seed: str,
    country: str,
    number: Callable[[random.Random, date], str],
    items: Sequence[str],
    *,
    count: tuple[int, int] = (1, 4),
    sellers: Sequence[str] = (),
    buyer_country: str | None = None,
    **options: object,
) -> Truth:
    """Values from the seed for a seller in `country`; `options` set any other field."""
    rng = random.Random(f"held-out-2:{country}:{seed}")
    spec = COUNTRIES[country]
    issued = date(2024, 1, 8) + timedelta(days=rng.randrange(700))
    seller = company(rng, country, sellers)
    buyer = company(rng, buyer_country or country, avoid=seller.name, avoid_street=seller.street)
    truth = Truth(
        number=number(rng, issued),
        issue_date=issued,
        due_date=issued + timedelta(days=rng.choice((14, 20, 30))),
        currency=spec.currency,
        seller=seller,
        buyer=buyer,
        contact=rng.choice(_PEOPLE),
        iban=(account := iban(rng, country)),
        bic="".join(rng.choice(_LETTERS) for _ in range(4)) + country + "XX" if account else "",
        lines=lines(rng, spec.rates, items, rng.randint(*count)),
    )
    return replace(truth, **options)  # type: ignore[arg-type]


# --- printing --------------------------------------------------------------------------


def euro_prefixed(value: Decimal) -> str:
    """Austrian and Dutch: € 1.234,56, a negative sign before the symbol."""
    grouped = f"{abs(value):,.2f}".replace(",", "X").replace(".", ",").replace("X", ".")
    return f"{'- ' if value < 0 else ''}€ {grouped}"


def swiss(value: Decimal) -> str:
    """1'234.50, Swiss grouping with an apostrophe."""
    return f"{value:,.2f}".replace(",", "'")


def dollars(value: Decimal) -> str:
    return f"-${abs(value):,.2f}" if value < 0 else f"${value:,.2f}"


def euro_english(value: Decimal) -> str:
    return f"-€{abs(value):,.2f}" if value < 0 else f"€{value:,.2f}"


_AUSTRIAN_MONTHS = ("Jänner", *GERMAN_MONTHS[1:])
_DUTCH_MONTHS = ("januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus",
                 "september", "oktober", "november", "december")  # fmt: skip


def austrian_long(value: date) -> str:
    return f"{value.day}. {_AUSTRIAN_MONTHS[value.month - 1]} {value.year}"


def german_long(value: date) -> str:
    return f"{value.day}. {GERMAN_MONTHS[value.month - 1]} {value.year}"


def dutch_long(value: date) -> str:
    return f"{value.day} {_DUTCH_MONTHS[value.month - 1]} {value.year}"


def us_long(value: date) -> str:
    return f"{ENGLISH_MONTHS[value.month - 1]} {value.day}, {value.year}"


def dotted(value: date, short_year: bool = False, padded: bool = True) -> str:
    """05.03.2025, 05.03.25 or 5.3.2025."""
    year = f"{value.year % 100:02d}" if short_year else str(value.year)
    if padded:
        return f"{value.day:02d}.{value.month:02d}.{year}"
    return f"{value.day}.{value.month}.{year}"


def slashed(value: date) -> str:
    """05/03/2025, day first (Ireland, the UK)."""
    return f"{value.day:02d}/{value.month:02d}/{value.year}"


def rate_label(rate: Decimal, decimal_comma: bool = True) -> str:
    text = f"{rate.normalize():f}"
    return text.replace(".", ",") if decimal_comma else text


# --- drawing ---------------------------------------------------------------------------

Money = Callable[[Decimal], str]
Column = tuple[str, float, bool]  # head, x (left) or x_end (right-aligned), right-aligned
Cells = Callable[[int, Truth], Sequence[str]]


def row(
    page: Page, y: float, columns: Sequence[Column], cells: Sequence[str], bold: bool = False
) -> None:
    for (_, x, right), cell in zip(columns, cells, strict=True):
        (page.right if right else page.text)(x, y, cell, bold=bold)


def table(
    page: Page, y: float, truth: Truth, heads: Sequence[Column], cells: Cells, x1: float = 20
) -> float:
    """Heads in bold, then one row of `cells(index, truth)` per line; the y below."""
    row(page, y, heads, [head for head, _, _ in heads], bold=True)
    x2 = max(190, *(x for _, x, right in heads if right))
    page.rule(y + 5, x1, x2)
    y += 7
    for index in range(len(truth.lines)):
        row(page, y, heads, cells(index, truth))
        y += 5
    page.rule(y + 1, x1, x2)
    return y + 4


def sums(
    page: Page,
    y: float,
    rows: Sequence[tuple[str, str]],
    x: float = 112,
    x_end: float = 190,
    bold_last: bool = True,
) -> float:
    for index, (label, value) in enumerate(rows):
        bold = bold_last and index == len(rows) - 1
        page.text(x, y, label, bold=bold)
        page.right(x_end, y, value, bold=bold)
        y += 5
    return y


def quantity(truth: Truth, index: int) -> str:
    return f"{truth.lines[index].quantity.normalize():f}".replace(".", ",")


def euro(value: Decimal) -> str:
    return f"{german_amount(value)} €"


def footer(page: Page, truth: Truth, bank: str) -> None:
    seller = truth.seller
    page.rule(272)
    page.text(
        20, 274, f"{seller.name} · {seller.street} · {seller.city} · {seller.register}", size=7
    )
    page.text(
        20,
        278,
        f"USt-IdNr. {seller.vat_id} · {bank} · IBAN {grouped_iban(truth.iban)} · BIC {truth.bic}",
        size=7,
    )

"""Long reference documents that carry an invoice's vocabulary without being invoices
(issue 40, class 5): charts of accounts (SKR03, SKR04: hundreds of account numbers with
names such as "Forderungen aus Lieferungen und Leistungen", "Aktive
Rechnungsabgrenzung", "Umsatzsteuer 19 %"), price lists (article numbers and prices, the
seller's letterhead, VAT id and IBAN) and the tables of contents of accounting handbooks
("Die Rechnung und ihre Pflichtangaben", "Rechnungsnummer", "Gesamtbetrag"). Sent as
`auto`, none may come back an invoice.

`DEVELOPMENT` was used to write the rule; `HELD_OUT` was written once afterwards and not
tuned on (docs/realworld.md, issue 40 class 5)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal

from tests.processors.pdf_invoice_pages import Page
from tests.processors.pdf_invoice_truth import amount_in

_ACCOUNTS = (
    ("EDV-Software", "Anlagevermögen"),
    ("Konzessionen und gewerbliche Schutzrechte", "Anlagevermögen"),
    ("Geschäfts- oder Firmenwert", "Anlagevermögen"),
    ("Grundstücke und Bauten", "Anlagevermögen"),
    ("Technische Anlagen und Maschinen", "Anlagevermögen"),
    ("Pkw", "Anlagevermögen"),
    ("Betriebs- und Geschäftsausstattung", "Anlagevermögen"),
    ("Geringwertige Wirtschaftsgüter", "Anlagevermögen"),
    ("Beteiligungen", "Finanzanlagen"),
    ("Wertpapiere des Anlagevermögens", "Finanzanlagen"),
    ("Gezeichnetes Kapital", "Eigenkapital"),
    ("Kapitalrücklage", "Eigenkapital"),
    ("Gewinnvortrag vor Verwendung", "Eigenkapital"),
    ("Aktive Rechnungsabgrenzung", "Rechnungsabgrenzungsposten"),
    ("Passive Rechnungsabgrenzung", "Rechnungsabgrenzungsposten"),
    ("Kasse", "Flüssige Mittel"),
    ("Bank", "Flüssige Mittel"),
    ("Geldtransit", "Flüssige Mittel"),
    ("Forderungen aus Lieferungen und Leistungen", "Forderungen"),
    ("Forderungen aus Lieferungen und Leistungen ohne Kontokorrent", "Forderungen"),
    ("Zweifelhafte Forderungen", "Forderungen"),
    ("Forderungen gegen Gesellschafter", "Forderungen"),
    ("Abziehbare Vorsteuer 7 %", "Sonstige Vermögensgegenstände"),
    ("Abziehbare Vorsteuer 19 %", "Sonstige Vermögensgegenstände"),
    ("Vorsteuer im Folgejahr abziehbar", "Sonstige Vermögensgegenstände"),
    ("Durchlaufende Posten", "Sonstige Vermögensgegenstände"),
    ("Verbindlichkeiten aus Lieferungen und Leistungen", "Verbindlichkeiten"),
    ("Verbindlichkeiten gegenüber Kreditinstituten", "Verbindlichkeiten"),
    ("Verbindlichkeiten aus Lohn und Gehalt", "Verbindlichkeiten"),
    ("Umsatzsteuer 7 %", "Sonstige Verbindlichkeiten"),
    ("Umsatzsteuer 19 %", "Sonstige Verbindlichkeiten"),
    ("Umsatzsteuer-Vorauszahlungen", "Sonstige Verbindlichkeiten"),
    ("Umsatzsteuer aus innergemeinschaftlichem Erwerb", "Sonstige Verbindlichkeiten"),
    ("Privatentnahmen allgemein", "Privat"),
    ("Privateinlagen", "Privat"),
    ("Wareneingang 7 % Vorsteuer", "Materialaufwand"),
    ("Wareneingang 19 % Vorsteuer", "Materialaufwand"),
    ("Fremdleistungen", "Materialaufwand"),
    ("Erhaltene Skonti 19 % Vorsteuer", "Materialaufwand"),
    ("Löhne und Gehälter", "Personalaufwand"),
    ("Gesetzliche soziale Aufwendungen", "Personalaufwand"),
    ("Miete (unbewegliche Wirtschaftsgüter)", "Raumkosten"),
    ("Gas, Strom, Wasser", "Raumkosten"),
    ("Versicherungen", "Sonstige betriebliche Aufwendungen"),
    ("Beiträge", "Sonstige betriebliche Aufwendungen"),
    ("Laufende Kfz-Betriebskosten", "Fahrzeugkosten"),
    ("Kfz-Reparaturen", "Fahrzeugkosten"),
    ("Werbekosten", "Werbe- und Reisekosten"),
    ("Bewirtungskosten", "Werbe- und Reisekosten"),
    ("Nicht abzugsfähige Bewirtungskosten", "Werbe- und Reisekosten"),
    ("Reisekosten Arbeitnehmer Übernachtungsaufwand", "Werbe- und Reisekosten"),
    ("Abschreibungen auf Sachanlagen", "Abschreibungen"),
    ("Porto", "Verschiedene Kosten"),
    ("Telefon", "Verschiedene Kosten"),
    ("Bürobedarf", "Verschiedene Kosten"),
    ("Rechts- und Beratungskosten", "Verschiedene Kosten"),
    ("Buchführungskosten", "Verschiedene Kosten"),
    ("Nebenkosten des Geldverkehrs", "Verschiedene Kosten"),
    ("Steuerfreie Umsätze § 4 Nr. 8 ff. UStG", "Umsatzerlöse"),
    ("Steuerfreie innergemeinschaftliche Lieferungen § 4 Nr. 1b UStG", "Umsatzerlöse"),
    ("Erlöse 7 % USt", "Umsatzerlöse"),
    ("Erlöse 19 % USt", "Umsatzerlöse"),
    ("Gewährte Skonti 19 % USt", "Umsatzerlöse"),
    ("Erlösschmälerungen", "Umsatzerlöse"),
    ("Zinserträge", "Sonstige Zinsen und ähnliche Erträge"),
    ("Zinsaufwendungen", "Zinsen und ähnliche Aufwendungen"),
    ("Gewerbesteuer", "Steuern vom Einkommen und Ertrag"),
    ("Körperschaftsteuer", "Steuern vom Einkommen und Ertrag"),
    ("Saldenvorträge Sachkonten", "Vortragskonten"),
    ("Saldenvorträge Debitoren", "Vortragskonten"),
    ("Sonstige betriebliche Erträge", "Gewinn- und Verlustrechnung"),
    ("Außerordentliche Aufwendungen", "Gewinn- und Verlustrechnung"),
)
_SUFFIXES = (
    "",
    "",
    " - Restlaufzeit bis 1 Jahr",
    " - Restlaufzeit größer 1 Jahr",
    " gegenüber verbundenen Unternehmen",
    " (Gruppe)",
)
_FUNCTIONS = ("", "", "", "KU", "V", "M", "AV", "AM", "S")


def _accounts(seed: str, count: int, first: int, digits: int = 4) -> Iterator[tuple[str, str, str]]:
    """(number, name, balance sheet position) in ascending order."""
    rng = random.Random(seed)
    number = first
    for _ in range(count):
        name, position = rng.choice(_ACCOUNTS)
        number += rng.choice((1, 1, 2, 5, 10))
        yield f"{number:0{digits}d}", name + rng.choice(_SUFFIXES), position


Row = tuple[tuple[float, str, str], ...]
"""Cells of one line: (x, text, style); style "B" bold, "R" right-aligned ending at x."""


def _numbered_pages(
    header: Callable[[Page, int], float],
    rows: Iterator[Row],
    pages: int,
    step: float = 4.6,
    bottom: float = 280,
) -> bytes:
    page = Page(size=8.5)
    for number in range(1, pages + 1):
        if number > 1:
            page.pdf.add_page()
        y = header(page, number)
        while y < bottom:
            row = next(rows, None)
            if row is None:
                return page.bytes()
            for x, text, style in row:
                if style == "R":
                    page.right(x, y, text)
                else:
                    page.text(x, y, text, bold=style == "B")
            y += step
        page.text(100, 288, f"Seite {number}", size=7)
    return page.bytes()


def skr03(seed: str) -> bytes:
    """DATEV SKR03: function code, account number, name; section headings between."""

    def header(page: Page, number: int) -> float:
        page.text(20, 10, "DATEV-Kontenrahmen nach dem Bilanzrichtlinie-Umsetzungsgesetz", size=7)
        page.text(20, 15, "Standardkontenrahmen (SKR) 03  Gültig ab 2025", bold=True, size=11)
        page.text(150, 15, "Art.-Nr. 11174  2025-01-01", size=7)
        page.text(20, 22, "Bilanz-Posten", bold=True)
        page.text(60, 22, "Programmverbindung", bold=True)
        page.text(120, 22, "Konto  Beschriftung", bold=True)
        return 30

    def rows() -> Iterator[Row]:
        rng = random.Random(seed)
        section = ""
        for number, name, position in _accounts(seed, 420, 10):
            if position != section:
                section = position
                yield ((20, section, "B"),)
            yield ((98, rng.choice(_FUNCTIONS), ""), (112, number, ""), (124, name, ""))

    return _numbered_pages(header, rows(), pages=5)


def skr04(seed: str) -> bytes:
    """DATEV SKR04 in two columns: Aktiva/Passiva, account and name side by side."""

    def header(page: Page, number: int) -> float:
        page.text(20, 12, "Kontenrahmen SKR 04 (Abschlussgliederungsprinzip)", bold=True, size=11)
        page.text(20, 18, "Stand 01.01.2025 - DATEV eG, 90329 Nürnberg", size=7)
        page.text(20, 26, "Konto   Bezeichnung", bold=True)
        page.text(110, 26, "Konto   Bezeichnung", bold=True)
        return 32

    accounts = list(_accounts(seed, 480, 1000))
    half = len(accounts) // 2

    def rows() -> Iterator[Row]:
        for (n1, t1, _), (n2, t2, _) in zip(accounts[:half], accounts[half:], strict=False):
            yield ((20, n1, ""), (32, t1[:48], ""), (110, n2, ""), (122, t2[:48], ""))

    return _numbered_pages(header, rows(), pages=5)


_ARTICLES = (
    "Kopierpapier A4 80 g/m²",
    "Ordner 80 mm blau",
    "Kassenbon Thermorolle 57 mm",
    "Quittungsblock A6 mit Durchschlag",
    "Kugelschreiber schwarz",
    "Briefumschlag DL mit Fenster",
    "Haftnotizen 76 x 76 mm",
    "Tonerkassette schwarz",
    "Locher 30 Blatt",
    "Heftklammern 24/6",
    "Rechnungsbuch A5 selbstdurchschreibend",
    "Hängeregistratur grün",
    "Textmarker gelb",
    "Etiketten 70 x 36 mm",
    "Laminierfolie A4",
    "Klebeband 19 mm",
)


def preisliste(seed: str) -> bytes:
    """A stationer's price list: article number, name, unit, net price; letterhead and
    footer with VAT id and IBAN."""
    rng = random.Random(seed)

    def header(page: Page, number: int) -> float:
        page.text(20, 12, "Bürobedarf Schreiber GmbH - Lindenstraße 12 - 50667 Köln", size=8)
        page.text(20, 20, "Preisliste 2025", bold=True, size=14)
        page.text(130, 20, "Gültig ab 01.01.2025", size=8)
        page.text(20, 28, "Alle Preise in EUR zzgl. gesetzlicher MwSt.", size=8)
        for x, label in ((20, "Art.-Nr."), (45, "Bezeichnung"), (130, "VE"), (150, "Preis netto")):
            page.text(x, 36, label, bold=True)
        page.text(20, 283, "USt-IdNr. DE123456789 - IBAN DE89 3704 0044 0532 0130 00", size=7)
        return 42

    def rows() -> Iterator[Row]:
        for index in range(260):
            number = f"{10000 + index * 7}"
            price = Decimal(rng.randint(49, 9999)) / 100
            unit = rng.choice(("Stück", "Pack", "Karton", "Rolle"))
            article = rng.choice(_ARTICLES)
            yield (
                (20, number, ""),
                (45, article, ""),
                (130, unit, ""),
                (175, amount_in("de", price), "R"),
            )

    return _numbered_pages(header, rows(), pages=5)


_CHAPTERS = (
    (
        "Grundlagen der Buchführung",
        (
            "Wer muss Bücher führen?",
            "Die doppelte Buchführung",
            "Konten und Kontenrahmen",
            "Soll und Haben",
        ),
    ),
    (
        "Die Rechnung",
        (
            "Pflichtangaben einer Rechnung",
            "Rechnungsnummer",
            "Rechnungsdatum und Leistungsdatum",
            "Kleinbetragsrechnung",
            "Gutschrift",
            "Rechnungskorrektur",
            "Die elektronische Rechnung",
        ),
    ),
    (
        "Umsatzsteuer",
        (
            "Steuersätze",
            "Vorsteuerabzug",
            "Reverse-Charge-Verfahren",
            "Innergemeinschaftliche Lieferung",
            "Umsatzsteuer-Voranmeldung",
            "Gesamtbetrag der Entgelte",
        ),
    ),
    (
        "Laufende Buchungen",
        (
            "Wareneingang",
            "Forderungen aus Lieferungen und Leistungen",
            "Zahlungsverkehr",
            "Skonto und Rabatt",
            "Bewirtungskosten",
            "Reisekosten",
        ),
    ),
    (
        "Jahresabschluss",
        (
            "Inventur",
            "Abschreibungen",
            "Rechnungsabgrenzung",
            "Rückstellungen",
            "Bilanz",
            "Gewinn- und Verlustrechnung",
            "Summen- und Saldenliste",
        ),
    ),
)


def inhaltsverzeichnis(seed: str) -> bytes:
    """The table of contents of an accounting handbook: numbered sections, page numbers."""
    rng = random.Random(seed)

    def header(page: Page, number: int) -> float:
        if number == 1:
            page.text(20, 15, "Buchführung und Rechnungswesen für Selbständige", size=9)
            page.text(20, 24, "Inhaltsverzeichnis", bold=True, size=16)
            return 36
        return 20

    def rows() -> Iterator[Row]:
        at = 11
        for part in range(1, 4):
            for chapter, (title, sections) in enumerate(_CHAPTERS, start=1):
                numbering = f"{(part - 1) * len(_CHAPTERS) + chapter}"
                at += rng.randint(1, 4)
                yield _toc(numbering, title, at, True)
                for index, section in enumerate(sections, start=1):
                    for sub in range(rng.randint(1, 3)):
                        at += rng.randint(1, 5)
                        label = f"{numbering}.{index}" + (f".{sub}" if sub else "")
                        name = section if not sub else f"{section}: Beispiel {sub}"
                        yield _toc(label, name, at, False)

    return _numbered_pages(header, rows(), pages=5, step=5.2)


def _toc(number: str, title: str, at: int, bold: bool) -> Row:
    style = "B" if bold else ""
    indent = 0 if bold else 6
    return (
        (20 + indent, number, style),
        (36 + indent, title, style),
        (150, "." * 20, ""),
        (185, str(at), "R"),
    )


@dataclass(frozen=True, slots=True)
class Reference:
    name: str
    render: Callable[[str], bytes]

    def document(self, seed: int) -> bytes:
        return self.render(f"{self.name}:{seed}")


DEVELOPMENT: tuple[Reference, ...] = (
    Reference("skr03", skr03),
    Reference("skr04", skr04),
    Reference("preisliste", preisliste),
    Reference("inhaltsverzeichnis", inhaltsverzeichnis),
)

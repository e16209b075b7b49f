"""The regions of an invoice's page, by where a business letter puts them.

- **Address window** (DIN 5008, the buyer): 85 x 45 mm, 20 mm from the left edge, its
  top 27 mm (form A) or 45 mm (form B) from the top of an A4 page; the form whose window
  holds more lines. Its first row is the sender's return address when set smaller or run
  together with separators ("Firma - Straße 5 - 12345 Ort", "Firma • Straße • Ort"); the
  address is the window's lines up to the last that reads as postcode and town and a
  country line after it, from after an earlier such line (a sender's address stacked
  over the recipient's), with the lines of its block set just above the window (a name
  set a little high). No such line: the page is not laid out by DIN 5008.
- **Buyer block**: the lines under or after a recipient label ("Rechnungsempfänger",
  "Käufer", "Bill to", "Client", "Destinataire", "Factuur aan", ...), up to a blank line.
- **Letterhead** (the seller): the lines above the address window, or above the first
  eighth of the page when there is none.
- **Footer** (the seller's register, VAT id and bank): the rows at the foot of the page
  (starting below `FOOTER_FROM` of its height) that follow each other without a gap of
  two lines, up to a row with an amount (a table that runs down to the foot).
- **Totals**: rows that name a total ("Nettobetrag", "Summe", "Total", "MwSt",
  "Zahlbetrag", ...) and hold an amount, in the lower three quarters of the page, in runs
  of rows less than two lines apart: the run with the most of them (the lower of equals).
- **Item table**: of the tables (processors/pdf_layout/tables.py) of three columns or
  more above the totals, one with a header first, then the one with the most rows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from processors.pdf_layout.lines import Line, PageLayout
from processors.pdf_layout.tables import Table, tables
from processors.results.evidence import Box

MM = 72 / 25.4
WINDOW_LEFT, WINDOW_WIDTH, WINDOW_HEIGHT = 20 * MM, 85 * MM, 45 * MM
WINDOW_TOP = {"A": 27 * MM, "B": 45 * MM}
ABOVE_WINDOW = 1.5
"""Line heights above the window an address's first line may begin (set a little high)."""
A4_WIDTH = (560.0, 630.0)
"""Pages this wide (A4 is 595 pt, US Letter 612) have the window where DIN 5008 puts it."""
LETTERHEAD_SHARE = 0.125
FOOTER_FROM = 0.78
TOTALS_FROM = 0.25
CLOSE_ROWS = 2.0
"""Rows of one region are less than two line heights apart."""
_I = re.IGNORECASE
BUYER_LABEL = re.compile(
    r"(?:(?:Rechnungs(?:empfänger|adresse|anschrift)|Leistungsempfänger"
    r"|Bill(?:ed)?\s+to|Invoice\s+to|Sold\s+to|Destinataire|Factur[ée]\s+à|Factuur\s+aan"
    r"|Destinatario|Fatturat[oa]\s+a|Facturar\s+a)\b\s*:?"
    r"|(?:Käufer|Kunde|Auftraggeber|Client|Customer|Buyer|Acheteur|Klant|Koper|Cliente"
    r"|Comprador)\s*(?::|$))",
    _I,
)
"""A recipient label; a word that may also begin a name ("Kunde Digital KG") only
with a colon or alone on its line."""
_SEPARATOR = re.compile(r"\s[-\u2013|]\s|[\u2022\u25cf\u00b7]")
_COUNTRY = re.compile(
    r"\b(?:Deutschland|Germany|Allemagne|Österreich|Austria|Schweiz|Suisse|Svizzera|Switzerland"
    r"|France|Frankreich|Nederland|Netherlands|Niederlande|Belgi(?:en|um|ë|que)|Luxemb(?:ourg|urg)"
    r"|Itali(?:a|y|en)|España|Spa(?:in|nien)|Polska|Pol(?:and|en)|Danmark|Denmark|Dänemark"
    r"|United Kingdom|USA)\b|^(?:DE|AT|CH|FR|NL|BE|LU|IT|ES)$",
    re.IGNORECASE,
)
_AMOUNT = re.compile(r"\d[.,]\d\d\b")
_POSTCODE_CITY = re.compile(r"\b(?:[A-Z]{1,2}-?)?\d{4,5}(?:\s?[A-Z]{2}\s)?\s*[^\W\d]{2}")
"""A postcode and town: "10115 Berlin", "D-80331 München", "1012 AB Amsterdam",
"88802Spielkreis" (run together by the text layer)."""
TOTAL_LABEL = re.compile(
    r"\b(?:Netto\w*|Zwischensumme|Summe|Gesamt\w*|Rechnungsbetrag|Endbetrag|Zahlbetrag"
    r"|MwSt|USt|Umsatzsteuer|Mehrwertsteuer|Total|Subtotal|Amount\s+due|Balance\s+due|VAT|Tax"
    r"|Montant|TVA|Totaal|BTW|Totale|Imponibile|IVA|Importe|Base\s+imponible)\b",
    _I,
)


class RegionKind(StrEnum):
    LETTERHEAD = "letterhead"
    FOOTER = "footer"
    ADDRESS_WINDOW = "address_window"
    BUYER = "buyer"
    TOTALS = "totals"
    ITEM_TABLE = "item_table"


@dataclass(frozen=True, slots=True)
class Region:
    kind: RegionKind
    box: Box
    lines: tuple[Line, ...]

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)

    @staticmethod
    def of(kind: RegionKind, lines: list[Line] | tuple[Line, ...]) -> Region | None:
        if not lines:
            return None
        return Region(kind, Box.around(line.box for line in lines), tuple(lines))


@dataclass(frozen=True, slots=True)
class PageRegions:
    letterhead: Region | None
    footer: Region | None
    address_window: Region | None
    buyer: Region | None
    totals: Region | None
    item_table: Table | None

    @staticmethod
    def of(page: PageLayout) -> PageRegions:
        form = _window_form(page)
        window = address_window(page, form)
        top = LETTERHEAD_SHARE * page.height
        if window is not None and form is not None:
            top = min(window_box(form).y0, window.box.y0)
        letterhead = Region.of(
            RegionKind.LETTERHEAD, [line for line in page.lines if line.box.y1 <= top]
        )
        totals = totals_block(page)
        return PageRegions(
            letterhead,
            footer(page),
            window,
            buyer_block(page) or window,
            totals,
            item_table(page, totals),
        )


def window_box(form: str) -> Box:
    top = WINDOW_TOP[form]
    return Box(WINDOW_LEFT, top, WINDOW_LEFT + WINDOW_WIDTH, top + WINDOW_HEIGHT)


def _window_form(page: PageLayout) -> str | None:
    """The DIN 5008 form whose window holds a recipient's town line, then more lines (a
    form B window holds the letterhead's last lines at form A's place); None off a
    first A4 page."""
    if not A4_WIDTH[0] <= page.width <= A4_WIDTH[1] or page.number != 1:
        return None

    def rank(form: str) -> tuple[bool, int]:
        inside = page.lines_in(window_box(form))
        return any(_town(line) and not _run_together(line) for line in inside), len(inside)

    return max(WINDOW_TOP, key=rank)


def _run_together(line: Line) -> bool:
    """`Alphabet, Lilienthalallee 26, 80786 München`: a sender's address on one line."""
    return len(_SEPARATOR.findall(line.text)) >= 2 or line.text.count(",") >= 2


def address_window(page: PageLayout, form: str | None) -> Region | None:
    """The recipient's address in the window: its lines up to the last that reads as
    postcode and town (and a country line after it), from after an earlier such line (a
    sender's address stacked over it); the sender's return address left out, and the
    lines of the address's block set just above the window put in."""
    if form is None:
        return None
    window = window_box(form)
    inside = page.lines_in(window)
    returned = {line for row in page.rows if _return_address(row, inside) for line in row}
    lines = [line for line in inside if line not in returned]
    towns = [index for index, line in enumerate(lines) if _town(line)]
    if not towns:
        return None  # not an address: the page is not laid out by DIN 5008
    start, end = (towns[-2] + 1 if len(towns) > 1 else 0), towns[-1] + 1
    if end < len(lines) and _country(lines[end]):
        end += 1
    address = lines[start:end]
    return Region.of(RegionKind.ADDRESS_WINDOW, [*_above(page, address[0], window), *address])


def _above(page: PageLayout, first: Line, window: Box) -> list[Line]:
    """The lines of `first`'s block just above the window, up to a town line (the end of
    an address above)."""
    block = next((b.lines for b in page.blocks if first in b.lines), (first,))
    top = window.y0 - ABOVE_WINDOW * first.height
    above: list[Line] = []
    for line in reversed(block[: block.index(first)]):
        if line.box.y1 < top or _town(line):
            break
        above.insert(0, line)
    return above


def _town(line: Line) -> bool:
    return _POSTCODE_CITY.search(line.text) is not None


def _return_address(row: tuple[Line, ...], window: tuple[Line, ...]) -> bool:
    """A row of the window that is the sender's return address: set smaller than the
    window's other lines, or its parts run together with separators ("Firma - Straße 5 -
    12345 Ort", "Firma • Straße • Ort") or set apart in three cells or more."""
    mine = [line for line in row if line in window]
    if not mine or mine[0] not in window[:2]:  # only the window's first row
        return False
    text = " ".join(line.text for line in mine)
    others = [line.height for line in window if line not in mine]
    smaller = bool(others) and mine[0].height < 0.9 * min(others)
    separated = len(_SEPARATOR.findall(text)) >= 2 or len(mine) >= 3
    return smaller or separated


def _country(line: Line) -> bool:
    return len(line.words) <= 3 and _COUNTRY.search(line.text) is not None


def buyer_block(page: PageLayout) -> Region | None:
    """The lines after the first recipient label: the rest of its line, then the lines
    under it, up to a gap."""
    for block in page.blocks:
        for index, line in enumerate(block.lines):
            match = BUYER_LABEL.match(line.text)
            if match is None:
                continue
            rest = line.text[match.end() :].strip()
            if rest and not any(ch.isalpha() for ch in rest):
                continue  # "Customer: 4711", a number after the label
            after = [*block.lines[index + 1 :]]
            if rest:
                return Region.of(RegionKind.BUYER, [_without_label(line, match.end()), *after])
            return Region.of(RegionKind.BUYER, after or _below(page, line))
    return None


def _without_label(line: Line, end: int) -> Line:
    words = line.words_in(end, len(line.text))
    return Line.of(words) if words else line


def _below(page: PageLayout, label: Line) -> list[Line]:
    under = [
        line
        for line in page.lines
        if line.box.y0 >= label.box.y1 and line.box.x0 < label.box.x1 + label.height * 10
    ]
    under = [line for line in under if abs(line.box.x0 - label.box.x0) < label.height]
    return _close_run(under, label)


def _close_run(lines: list[Line], above: Line) -> list[Line]:
    run: list[Line] = []
    for line in lines:
        if line.box.y0 - (run[-1] if run else above).box.y1 > CLOSE_ROWS * line.height:
            break
        run.append(line)
    return run


def footer(page: PageLayout) -> Region | None:
    rows = list(page.rows)
    taken: list[tuple[Line, ...]] = []
    while rows and rows[-1][0].box.y0 >= FOOTER_FROM * page.height:
        row = rows.pop()
        if taken and _gap(row, taken[-1]) > CLOSE_ROWS * max(line.height for line in row):
            break
        if _AMOUNT.search(" ".join(line.text for line in row)):
            break  # a table or the totals run down to the foot
        taken.append(row)
    return Region.of(RegionKind.FOOTER, [line for row in reversed(taken) for line in row])


def _gap(upper: tuple[Line, ...], lower: tuple[Line, ...]) -> float:
    return min(line.box.y0 for line in lower) - max(line.box.y1 for line in upper)


def totals_block(page: PageLayout) -> Region | None:
    """Of the runs of close rows that name a total, the one with the most such rows
    (the lower one of equals)."""
    rows = [row for row in page.rows if row[0].box.y0 >= TOTALS_FROM * page.height]
    runs: list[list[tuple[Line, ...]]] = []
    for row in rows:
        if not _names_total(row):
            continue
        last = runs[-1][-1] if runs else None
        if last is not None and _gap(last, row) <= CLOSE_ROWS * max(line.height for line in row):
            runs[-1].append(row)
        else:
            runs.append([row])
    if not runs:
        return None
    best = max(reversed(runs), key=len)
    return Region.of(RegionKind.TOTALS, [line for row in best for line in row])


def _names_total(row: tuple[Line, ...]) -> bool:
    text = " ".join(line.text for line in row)
    return TOTAL_LABEL.search(text) is not None and _AMOUNT.search(text) is not None


def item_table(page: PageLayout, totals: Region | None) -> Table | None:
    limit = totals.box.y0 if totals else page.height
    candidates = [t for t in tables(page) if len(t.columns) >= 3 and t.box.y0 < limit]
    return max(candidates, key=lambda t: (t.header is not None, len(t.rows)), default=None)

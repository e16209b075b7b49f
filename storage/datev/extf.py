"""The DATEV-Format Buchungsstapel (EXTF, header version 700, category 21, format
version 13): a header record, the column names, one record per booking.

As DATEV reads it: Windows-1252 (ANSI), fields separated by `;`, records ended by CRLF,
text fields in double quotes (a quote inside doubled), numbers and dates unquoted, amounts
with a decimal comma and no thousands separator, empty fields empty. 125 fields a record.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from storage.datev.bookings import Voucher
from storage.datev.settings import DatevSettings

ENCODING = "cp1252"
HEADER_VERSION = 700
CATEGORY = 21
FORMAT_NAME = "Buchungsstapel"
FORMAT_VERSION = 13
FIELD_COUNT = 125
TEXT_LIMIT = 60  # Buchungstext
DOCUMENT_FIELD_LIMIT = 36  # Belegfeld 1
LABEL_LIMIT = 30  # Bezeichnung of the batch
_DOCUMENT_FIELD_FORBIDDEN = re.compile(r"[^A-Za-z0-9$%&*+\-/]")
BU_KEY_DIGITS = 4  # the format description's expression for field 9: four digits in quotes

COLUMNS: tuple[str, ...] = (
    "Umsatz (ohne Soll/Haben-Kz)",
    "Soll/Haben-Kennzeichen",
    "WKZ Umsatz",
    "Kurs",
    "Basis-Umsatz",
    "WKZ Basis-Umsatz",
    "Konto",
    "Gegenkonto (ohne BU-Schlüssel)",
    "BU-Schlüssel",
    "Belegdatum",
    "Belegfeld 1",
    "Belegfeld 2",
    "Skonto",
    "Buchungstext",
    "Postensperre",
    "Diverse Adressnummer",
    "Geschäftspartnerbank",
    "Sachverhalt",
    "Zinssperre",
    "Beleglink",
    *(f"Beleginfo - {part} {n}" for n in range(1, 9) for part in ("Art", "Inhalt")),
    "KOST1 - Kostenstelle",
    "KOST2 - Kostenstelle",
    "Kost-Menge",
    "EU-Land u. UStID (Bestimmung)",
    "EU-Steuersatz (Bestimmung)",
    "Abw. Versteuerungsart",
    "Sachverhalt L+L",
    "Funktionsergänzung L+L",
    "BU 49 Hauptfunktionstyp",
    "BU 49 Hauptfunktionsnummer",
    "BU 49 Funktionsergänzung",
    *(
        name
        for n in range(1, 21)
        for name in (f"Zusatzinformation - Art {n}", f"Zusatzinformation- Inhalt {n}")
    ),
    "Stück",
    "Gewicht",
    "Zahlweise",
    "Forderungsart",
    "Veranlagungsjahr",
    "Zugeordnete Fälligkeit",
    "Skontotyp",
    "Auftragsnummer",
    "Buchungstyp",
    "USt-Schlüssel (Anzahlungen)",
    "EU-Land (Anzahlungen)",
    "Sachverhalt L+L (Anzahlungen)",
    "EU-Steuersatz (Anzahlungen)",
    "Erlöskonto (Anzahlungen)",
    "Herkunft-Kz",
    "Buchungs GUID",
    "KOST-Datum",
    "SEPA-Mandatsreferenz",
    "Skontosperre",
    "Gesellschaftername",
    "Beteiligtennummer",
    "Identifikationsnummer",
    "Zeichnernummer",
    "Postensperre bis",
    "Bezeichnung SoBil-Sachverhalt",
    "Kennzeichen SoBil-Buchung",
    "Festschreibung",
    "Leistungsdatum",
    "Datum Zuord. Steuerperiode",
    "Fälligkeit",
    "Generalumkehr (GU)",
    "Steuersatz",
    "Land",
    "Abrechnungsreferenz",
    "BVV-Position",
    "EU-Land u. UStID (Ursprung)",
    "EU-Steuersatz (Ursprung)",
    "Abw. Skontokonto",
)
assert len(COLUMNS) == FIELD_COUNT


class Text(str):
    """A text field: written in double quotes."""


Field = Text | int | str | None  # str: a number or date already formatted; None: empty


@dataclass(frozen=True, slots=True)
class Batch:
    """What the header says about the batch."""

    settings: DatevSettings
    fiscal_year_start: date
    period_from: date
    period_to: date
    created_at: datetime
    label: str


def amount(value: Decimal) -> str:
    """`1234,50`: decimal comma, two places, no thousands separator, no sign."""
    return f"{abs(value):.2f}".replace(".", ",")


def ansi_text(value: str, limit: int) -> str:
    """`value` as Windows-1252 can hold it, on one line, at most `limit` characters:
    characters outside the code page lose their accents (NFKD) or become `?`."""
    flat = " ".join(value.split())
    kept = []
    for char in flat:
        try:
            char.encode(ENCODING)
            kept.append(char)
        except UnicodeEncodeError:
            base = unicodedata.normalize("NFKD", char).encode(ENCODING, "ignore").decode(ENCODING)
            kept.append(base or "?")
    return "".join(kept)[:limit]


def document_field(number: str) -> str:
    """Belegfeld 1: DATEV takes letters, digits and `$ % & * + - /`, 36 at most."""
    return _DOCUMENT_FIELD_FORBIDDEN.sub("", number)[:DOCUMENT_FIELD_LIMIT]


def header(batch: Batch) -> list[Field]:
    settings = batch.settings
    return [
        Text("EXTF"),
        HEADER_VERSION,
        CATEGORY,
        Text(FORMAT_NAME),
        FORMAT_VERSION,
        batch.created_at.strftime("%Y%m%d%H%M%S") + f"{batch.created_at.microsecond // 1000:03d}",
        None,  # Importiert
        Text("RE"),  # Herkunft: Rechnungswesen
        Text(""),  # Exportiert von
        Text(""),  # Importiert von
        settings.consultant_number,
        settings.client_number,
        batch.fiscal_year_start.strftime("%Y%m%d"),
        settings.account_length,
        batch.period_from.strftime("%Y%m%d"),
        batch.period_to.strftime("%Y%m%d"),
        Text(ansi_text(batch.label, LABEL_LIMIT)),
        Text(""),  # Diktatkürzel
        1,  # Buchungstyp: Finanzbuchführung
        0,  # Rechnungslegungszweck: unabhängig
        0,  # Festschreibung: no, the adviser checks first
        Text("EUR"),
        None,
        Text(""),  # Derivatskennzeichen
        None,
        None,
        Text(settings.chart.value),
        None,  # Branchenlösungs-ID
        None,
        Text(""),
        Text(""),  # Anwendungsinformation
    ]


def booking_records(voucher: Voucher) -> Iterable[list[Field]]:
    text = Text(ansi_text(voucher.text, TEXT_LIMIT))
    for booking in voucher.bookings:
        record: list[Field] = [None] * FIELD_COUNT
        record[0] = amount(booking.amount)
        record[1] = Text("S" if booking.debit else "H")
        record[2] = Text("EUR")
        record[6] = booking.account
        record[7] = booking.contra_account
        record[8] = Text(booking.bu_key.zfill(BU_KEY_DIGITS)) if booking.bu_key else None
        record[9] = voucher.issue_date.strftime("%d%m")
        record[10] = Text(document_field(voucher.number))
        record[13] = text
        yield record


def write(batch: Batch, vouchers: Sequence[Voucher]) -> bytes:
    lines = [_line(header(batch)), ";".join(COLUMNS)]
    lines.extend(_line(record) for voucher in vouchers for record in booking_records(voucher))
    return "".join(line + "\r\n" for line in lines).encode(ENCODING)


def _line(fields: Sequence[Field]) -> str:
    return ";".join(_field(value) for value in fields)


def _field(value: Field) -> str:
    if value is None:
        return ""
    if isinstance(value, Text):
        return '"' + value.replace('"', '""') + '"'
    return str(value)

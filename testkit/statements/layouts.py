"""The generated statement layouts: generic look-alikes (no logos, no real names or
numbers) of the ten largest German retail banks, neobanks, credit cards, English,
Dutch, French, Spanish, Italian and US banks and a broker's cash account.

`held_out` layouts were written before the reader was generalised and never looked at
while it was: they are the honest check (reported apart by the corpus report).
"""

from __future__ import annotations

from datetime import date

from testkit.statements import formats as f
from testkit.statements.data import DataSpec, Kind
from testkit.statements.model import Balances, Col, Column, Counterparty, Labels, Layout
from testkit.statements.neobank_types import (
    NEOBANK_DE_TYPES,
    NEOBANK_EN_TYPES,
    NEOBANK_NL_TYPES,
)
from testkit.statements.portfolio_layouts import PORTFOLIO_LAYOUTS

C = Column
DE_TYPES = {
    Kind.INCOMING: "Gutschrift",
    Kind.OUTGOING: "Überweisung",
    Kind.DIRECT_DEBIT: "Lastschrift",
    Kind.CARD: "Kartenzahlung",
    Kind.FEE: "Entgelt",
}
DE_SEPA = {
    Kind.INCOMING: "SEPA-Gutschrift",
    Kind.OUTGOING: "SEPA-Überweisung",
    Kind.DIRECT_DEBIT: "SEPA-Lastschrift",
    Kind.CARD: "Kartenzahlung girocard",
    Kind.FEE: "Abschluss",
}
EN_TYPES = {
    Kind.INCOMING: "Credit transfer",
    Kind.OUTGOING: "Transfer",
    Kind.DIRECT_DEBIT: "Direct debit",
    Kind.CARD: "Card payment",
    Kind.FEE: "Fee",
}
NO_TYPES = {kind: "" for kind in Kind}
NL_TYPES = {
    Kind.INCOMING: "Overschrijving",
    Kind.OUTGOING: "Overboeking",
    Kind.DIRECT_DEBIT: "Incasso",
    Kind.CARD: "Betaalautomaat",
    Kind.FEE: "Kosten",
}
FR_TYPES = {
    Kind.INCOMING: "Virement reçu",
    Kind.OUTGOING: "Virement émis",
    Kind.DIRECT_DEBIT: "Prélèvement",
    Kind.CARD: "Paiement par carte",
    Kind.FEE: "Frais",
}
ES_TYPES = {
    Kind.INCOMING: "Transferencia recibida",
    Kind.OUTGOING: "Transferencia emitida",
    Kind.DIRECT_DEBIT: "Recibo domiciliado",
    Kind.CARD: "Compra con tarjeta",
    Kind.FEE: "Comisión",
}
IT_TYPES = {
    Kind.INCOMING: "Bonifico a vostro favore",
    Kind.OUTGOING: "Bonifico disposto",
    Kind.DIRECT_DEBIT: "Addebito diretto SDD",
    Kind.CARD: "Pagamento POS",
    Kind.FEE: "Commissioni",
}
US_TYPES = {
    Kind.INCOMING: "Online Transfer From",
    Kind.OUTGOING: "Online Transfer To",
    Kind.DIRECT_DEBIT: "ACH Debit",
    Kind.CARD: "Purchase authorized",
    Kind.FEE: "Monthly Service Fee",
}
BROKER_TYPES = {
    Kind.INCOMING: "Deposit",
    Kind.OUTGOING: "Securities purchase",
    Kind.DIRECT_DEBIT: "Securities purchase",
    Kind.CARD: "Withholding tax",
    Kind.FEE: "Custody fee",
}


def _neobank_columns(*headers: str) -> tuple[Column, ...]:
    """Date, type, description, money in, money out, balance (a neobank's cash account)."""
    kinds = (Col.BOOKING, Col.TYPE, Col.TEXT, Col.CREDIT, Col.DEBIT, Col.BALANCE)
    widths = (18, 26, 52, 34, 34, 24)
    return tuple(C(*cell) for cell in zip(kinds, headers, widths, strict=True))


def _german_cash_account(
    name: str,
    bank: str,
    data: DataSpec,
    dates: f.DateFormat,
    balances: Balances,
    held_out: bool = False,
) -> Layout:
    """A German neobank's or broker's cash account under the headers `DATUM TYP
    BESCHREIBUNG ZAHLUNGSEINGANG ZAHLUNGSAUSGANG SALDO`."""
    headers = ("DATUM", "TYP", "BESCHREIBUNG", "ZAHLUNGSEINGANG", "ZAHLUNGSAUSGANG", "SALDO")
    return Layout(
        name,
        bank,
        data,
        _neobank_columns(*headers),
        dates,
        f.currency_after(f.de, "€"),
        _de("Anfangssaldo", "Endsaldo"),
        NEOBANK_DE_TYPES,
        iban_colon,
        Counterparty.PLAIN,
        balances,
        period_dates=f.dmy_dot,
        held_out=held_out,
    )


def iban_grouped(iban: str) -> str:
    return "IBAN " + " ".join(iban[i : i + 4] for i in range(0, len(iban), 4))


def iban_colon(iban: str) -> str:
    return f"IBAN: {iban}"


def iban_bare(iban: str) -> str:
    return f"{iban} BIC: TESTDEFFXXX"


def konto(iban: str) -> str:
    return f"Konto/IBAN {iban}"


DE = "Seite {page} von {nb}"
EN = "Page {page} of {nb}"
DE_LABELS = Labels(
    "Kontoauszug Nr. {number}", "Zeitraum: {start} bis {end}", "IBAN {iban}", DE, None, None
)
EN_LABELS = Labels(
    "Statement of account no. {number}", "Period {start} to {end}", "IBAN {iban}", EN, None, None
)


def _de(opening: str, closing: str, **more: str) -> Labels:
    return Labels(**{**DE_LABELS.__dict__, "opening": opening, "closing": closing, **more})


def _en(opening: str, closing: str, **more: str) -> Labels:
    return Labels(**{**EN_LABELS.__dict__, "opening": opening, "closing": closing, **more})


LAYOUTS: tuple[Layout, ...] = (
    Layout(
        "sparkasse", "Sparkasse Musterstadt", DataSpec("de", transactions=24),
        (C(Col.BOOKING, "Buchungstag", 24), C(Col.VALUE, "Wert", 22),
         C(Col.TEXT, "Erläuterung", 100), C(Col.AMOUNT, "Betrag EUR", 34)),
        f.dmy_dot, f.lead_minus(f.de),
        _de("Kontostand am {date}", "Kontostand am {date}"),
        DE_TYPES, iban_grouped, Counterparty.BELOW, Balances.TABLE, scan=True,
    ),
    Layout(
        "deutsche_bank", "Deutsche Musterbank AG", DataSpec("de", transactions=12),
        (C(Col.BOOKING, "Buchung", 18), C(Col.VALUE, "Valuta", 18), C(Col.TEXT, "Vorgang", 98),
         C(Col.DEBIT, "Soll", 24), C(Col.CREDIT, "Haben", 24)),
        f.dm_dot, f.plus_minus(f.de),
        _de("Alter Saldo per {date}", "Neuer Saldo per {date}"),
        DE_SEPA, iban_grouped, unsigned=f.plus_minus(f.de), period_dates=f.dmy_dot,
    ),
    Layout(
        "commerzbank", "Commerz-Musterbank", DataSpec("de", transactions=26),
        (C(Col.BOOKING, "Buchungsdatum", 26), C(Col.TEXT, "Angaben zu den Umsätzen", 96),
         C(Col.VALUE, "Valuta", 22), C(Col.AMOUNT, "Betrag in EUR", 36)),
        f.dmy_dot, f.trailing_minus(f.de),
        _de("Alter Kontostand", "Neuer Kontostand", carried="Übertrag auf Blatt",
            brought="Übertrag von Blatt"),
        DE_SEPA, konto, Counterparty.INLINE, Balances.TABLE, value_dates=f.dm_dot_bare,
    ),
    Layout(
        "ing_de", "ING-Muster AG", DataSpec("de", transactions=9),
        (C(Col.BOOKING, "Buchung", 24, "Valuta"), C(Col.TEXT, "Buchung / Verwendungszweck", 120),
         C(Col.AMOUNT, "Betrag (EUR)", 36)),
        f.dmy_dot, f.lead_minus(f.de), _de("Alter Saldo", "Neuer Saldo"),
        DE_TYPES, iban_colon, value_stacked=True,
    ),
    Layout(
        "dkb", "Deutsche Muster-Kreditbank", DataSpec("de", transactions=11),
        (C(Col.BOOKING, "Buchungstag", 24), C(Col.VALUE, "Wertstellung", 24),
         C(Col.TEXT, "Buchungstext", 96), C(Col.AMOUNT, "Betrag", 36)),
        f.dmy_dot_short, f.suffix_marks(f.de, "S", "H"),
        _de("Saldo alt", "Saldo neu"), DE_TYPES, iban_grouped, Counterparty.BELOW,
    ),
    Layout(
        "postbank", "Muster-Postbank", DataSpec("de", transactions=18),
        (C(Col.BOOKING, "Buchung", 18), C(Col.VALUE, "Wert", 18),
         C(Col.TEXT, "Vorgang/Buchungsinformation", 96), C(Col.DEBIT, "Soll", 24),
         C(Col.CREDIT, "Haben", 24)),
        f.dm_dot, f.plus_minus(f.de, " "), _de("Alter Kontostand", "Neuer Kontostand"),
        DE_SEPA, iban_grouped, Counterparty.BELOW, unsigned=f.plus_minus(f.de, " "),
        period_dates=f.dmy_dot, font="times",
    ),
    Layout(
        "volksbank", "Volks- und Musterbank eG", DataSpec("de", transactions=22),
        (C(Col.BOOKING, "Bu-Tag", 18), C(Col.VALUE, "Wert", 18), C(Col.TEXT, "Vorgang", 104),
         C(Col.AMOUNT, "Betrag EUR", 30), C(Col.MARK, "", 8)),
        f.dm_dot, f.suffix_marks(f.de, "S", "H"),
        _de("alter Kontostand vom {date}", "neuer Kontostand vom {date}", carried="Übertrag",
            brought="Übertrag"),
        DE_TYPES, iban_grouped, Counterparty.INLINE, Balances.TABLE, unsigned=f.de,
        period_dates=f.dmy_dot, font="courier", size=8,
    ),
    Layout(
        "hypovereinsbank", "Muster-Vereinsbank", DataSpec("de", transactions=12),
        (C(Col.BOOKING, "Buchungsdatum", 24), C(Col.VALUE, "Valuta", 22),
         C(Col.TEXT, "Buchungstext", 80), C(Col.AMOUNT, "Betrag", 28), C(Col.BALANCE, "Saldo", 28)),
        f.dmy_dot, f.lead_minus(f.de), _de("Anfangssaldo", "Endsaldo"),
        DE_SEPA, iban_colon, Counterparty.INLINE, Balances.TABLE,
    ),
    Layout(
        "comdirect", "Musterdirect Bank", DataSpec("de", transactions=30),
        (C(Col.BOOKING, "Buchungstag", 22), C(Col.VALUE, "Valuta", 22), C(Col.TYPE, "Vorgang", 34),
         C(Col.TEXT, "Buchungstext", 72), C(Col.AMOUNT, "Umsatz in EUR", 30)),
        f.dmy_dot, f.plus_minus(f.de), _de("Alter Saldo", "Neuer Saldo"),
        DE_TYPES, iban_colon,
    ),
    Layout(
        "targobank", "Targo-Musterbank", DataSpec("de", transactions=13),
        (C(Col.BOOKING, "Datum", 22), C(Col.TEXT, "Umsatzart / Verwendungszweck", 94),
         C(Col.VALUE, "Wert", 20), C(Col.DEBIT, "Belastung", 26), C(Col.CREDIT, "Gutschrift", 26)),
        f.dmy_dot, f.lead_minus(f.de), _de("Saldo alt", "Saldo neu"),
        DE_TYPES, konto, Counterparty.BELOW, Balances.TABLE, held_out=True,
    ),
    Layout(
        "n26_de", "N-Muster Bank", DataSpec("de", transactions=12),
        (C(Col.TEXT, "Beschreibung", 110), C(Col.BOOKING, "Verbuchungsdatum", 36),
         C(Col.AMOUNT, "Betrag", 34)),
        f.dmy_dot, f.currency_after(f.de, "€", "", plus=True),
        _de("Alter Kontostand", "Neuer Kontostand"), NO_TYPES, iban_bare, Counterparty.PLAIN,
    ),
    Layout(
        "neobank_en_no_balances", "Mono Money", DataSpec("en", transactions=15),
        (C(Col.BOOKING, "Date", 28), C(Col.TEXT, "Description", 116), C(Col.AMOUNT, "Amount", 36)),
        f.d_mon_y, f.currency_before(f.en, "€"), EN_LABELS, EN_TYPES, iban_colon,
        Counterparty.INLINE, Balances.NONE,
    ),
    Layout(
        "revolut_en", "Revo Money Ltd", DataSpec("en", transactions=16),
        (C(Col.BOOKING, "Date", 26), C(Col.TEXT, "Description", 82), C(Col.DEBIT, "Money out", 24),
         C(Col.CREDIT, "Money in", 24), C(Col.BALANCE, "Balance", 24)),
        f.d_mon_y, f.currency_before(f.en, "€"), _en("Opening balance", "Closing balance"),
        EN_TYPES, iban_colon, Counterparty.INLINE, Balances.SUMMARY, scan=True,
    ),
    Layout(
        "revolut_de", "Revo Money Ltd", DataSpec("de", transactions=14),
        (C(Col.BOOKING, "Datum", 28), C(Col.TEXT, "Beschreibung", 80),
         C(Col.DEBIT, "Ausgehend", 24), C(Col.CREDIT, "Eingehend", 24),
         C(Col.BALANCE, "Saldo", 24)),
        f.d_month_de, f.currency_after(f.de, "€"), _de("Anfangssaldo", "Endsaldo"),
        DE_TYPES, iban_colon, Counterparty.INLINE, Balances.SUMMARY,
    ),
    Layout(
        "revolut_fr", "Revo Money Ltd", DataSpec("fr", transactions=14, country="FR"),
        (C(Col.BOOKING, "Date", 28), C(Col.TEXT, "Description", 80),
         C(Col.DEBIT, "Argent sortant", 24), C(Col.CREDIT, "Argent entrant", 24),
         C(Col.BALANCE, "Solde", 24)),
        f.d_month_fr, f.currency_after(f.fr, "€"),
        Labels("Relevé de compte n° {number}", "Du {start} au {end}", "IBAN {iban}",
               "Page {page} sur {nb}", "Solde d'ouverture", "Solde de clôture"),
        FR_TYPES, iban_colon, Counterparty.INLINE, Balances.SUMMARY,
    ),
    Layout(
        "card_sg", "Lion City Card Services", DataSpec("en", "SGD", "GB", 18, card=True),
        (C(Col.BOOKING, "Post date", 24), C(Col.VALUE, "Trans date", 24),
         C(Col.TEXT, "Description", 96), C(Col.AMOUNT, "Amount (SGD)", 36)),
        f.d_mon_upper, f.suffix_marks(f.en, "CR", ""),
        _en("Previous balance", "New balance", title="Credit card statement {number}",
            account="Card number 4123 XXXX XXXX 9876"),
        EN_TYPES, iban_colon, Counterparty.PLAIN, Balances.TOP, owed=True,
        period_dates=f.d_mon_y, scan=True,
    ),
    Layout(
        "card_de", "Muster Kreditkarten GmbH", DataSpec("de", transactions=12, card=True),
        (C(Col.VALUE, "Belegdatum", 24), C(Col.BOOKING, "Buchungsdatum", 26),
         C(Col.TEXT, "Umsatz", 96), C(Col.AMOUNT, "Betrag in EUR", 34)),
        f.dmy_dot, f.lead_minus(f.de),
        _de("Saldo letzte Abrechnung", "Neuer Saldo", title="Kreditkartenabrechnung {number}",
            account="Kartennummer 5232 XXXX XXXX 1234"),
        DE_TYPES, iban_colon, Counterparty.PLAIN, Balances.TABLE,
    ),
    Layout(
        "uk_bank", "Crown & Harbour Bank plc", DataSpec("en", "GBP", "GB", 24),
        (C(Col.BOOKING, "Date", 22), C(Col.TEXT, "Payment type and details", 86),
         C(Col.DEBIT, "Paid out", 24), C(Col.CREDIT, "Paid in", 24), C(Col.BALANCE, "Balance", 24)),
        f.d_mon_yy, f.lead_minus(f.en),
        _en("Balance brought forward", "Balance carried forward",
            carried="Balance carried forward", brought="Balance brought forward"),
        EN_TYPES, iban_grouped, Counterparty.INLINE, Balances.TABLE, sparse_balance=True,
    ),
    Layout(
        "dutch_bank", "Oranje Muster Bank NV", DataSpec("nl", country="NL", transactions=13),
        (C(Col.BOOKING, "Datum", 24), C(Col.TEXT, "Omschrijving", 110), C(Col.DEBIT, "Af", 24),
         C(Col.CREDIT, "Bij", 24)),
        f.dmy_dash, f.lead_minus(f.de),
        Labels("Rekeningafschrift {number}", "Periode {start} t/m {end}", "IBAN {iban}",
               "Pagina {page} van {nb}", "Beginsaldo", "Eindsaldo"),
        NL_TYPES, iban_colon, Counterparty.INLINE, Balances.TOP,
    ),
    Layout(
        "french_bank", "Banque Muster SA", DataSpec("fr", country="FR", transactions=14),
        (C(Col.BOOKING, "Date", 16), C(Col.TEXT, "Nature des opérations", 98),
         C(Col.VALUE, "Valeur", 18), C(Col.DEBIT, "Débit", 24), C(Col.CREDIT, "Crédit", 24)),
        f.dm_dot_bare, f.lead_minus(f.fr),
        Labels("Relevé de compte n° {number}", "du {start} au {end}", "IBAN {iban}",
               "Page {page} / {nb}", "SOLDE CREDITEUR AU {date}", "NOUVEAU SOLDE CREDITEUR"),
        FR_TYPES, iban_grouped, Counterparty.BELOW, Balances.TABLE, value_dates=f.dmy_dot_short,
        period_dates=f.dmy_slash,
    ),
    Layout(
        "spanish_bank", "Banco Ejemplo SA", DataSpec("es", country="ES", transactions=13),
        (C(Col.BOOKING, "F. Operación", 22), C(Col.VALUE, "F. Valor", 22),
         C(Col.TEXT, "Concepto", 80), C(Col.AMOUNT, "Importe", 28), C(Col.BALANCE, "Saldo", 28)),
        f.dmy_slash, f.lead_minus(f.de),
        Labels("Extracto de cuenta {number}", "Periodo {start} - {end}", "IBAN {iban}",
               "Página {page} de {nb}", "Saldo anterior", "Saldo final"),
        ES_TYPES, iban_colon, Counterparty.INLINE, Balances.TOP,
    ),
    Layout(
        "italian_bank", "Banca Esempio SpA", DataSpec("it", country="IT", transactions=12),
        (C(Col.BOOKING, "Data contabile", 24), C(Col.VALUE, "Data valuta", 22),
         C(Col.TEXT, "Descrizione operazioni", 86), C(Col.DEBIT, "Dare", 24),
         C(Col.CREDIT, "Avere", 24)),
        f.dmy_slash, f.lead_minus(f.de),
        Labels("Estratto conto n. {number}", "Periodo dal {start} al {end}", "IBAN {iban}",
               "Pagina {page} di {nb}", "Saldo iniziale", "Saldo finale"),
        IT_TYPES, iban_grouped, Counterparty.BELOW, Balances.TABLE, held_out=True,
    ),
    Layout(
        "us_bank", "First Example Bank, N.A.", DataSpec("en", "USD", "GB", 20),
        (C(Col.BOOKING, "Date", 16), C(Col.TEXT, "Description", 86),
         C(Col.CREDIT, "Deposits/", 26, "Credits"), C(Col.DEBIT, "Withdrawals/", 26, "Debits"),
         C(Col.BALANCE, "Ending daily", 28, "balance")),
        f.md_slash, f.lead_minus(f.en),
        _en("Beginning balance on {date}", "Ending balance on {date}",
            title="Checking account statement", account="Account number 000123456789"),
        US_TYPES, lambda iban: f"Ref {iban[-8:]}", Counterparty.INLINE, Balances.TOP,
        sparse_balance=True, period_dates=f.month_d_y, held_out=True,
    ),
    Layout(
        "broker_cash", "Example Brokerage AG", DataSpec("en", transactions=11),
        (C(Col.BOOKING, "Date", 22), C(Col.VALUE, "Value date", 22), C(Col.TEXT, "Transaction", 82),
         C(Col.AMOUNT, "Amount (EUR)", 28), C(Col.BALANCE, "Balance (EUR)", 28)),
        f.iso, f.lead_minus(f.en), _en("Opening balance", "Closing balance",
                                       title="Cash account statement {number}"),
        BROKER_TYPES, iban_colon, Counterparty.BELOW, Balances.TABLE, held_out=True, scan=True,
    ),
    # Issue 40, class 2: neobank and broker cash accounts, dates broken over lines.
    _german_cash_account(
        "neobank_de", "Muster Neobank AG",
        DataSpec("de", transactions=14, start=date(2025, 8, 18), days=80),
        f.d_mon_y_broken_de, Balances.SUMMARY,
    ),
    Layout(
        "neobank_en", "Example Invest Bank SE",
        DataSpec("en", transactions=15, start=date(2022, 12, 12), days=45),
        _neobank_columns("DATE", "TYPE", "DESCRIPTION", "MONEY IN", "MONEY OUT", "BALANCE"),
        f.mon_d_broken_y, f.currency_before(f.en, "€"), _en("Opening balance", "Closing balance"),
        NEOBANK_EN_TYPES, iban_colon, Counterparty.PLAIN, Balances.SUMMARY,
        period_dates=f.d_mon_y,
    ),
    Layout(
        "neobank_nl", "Voorbeeld Beleggen NV",
        DataSpec("nl", country="NL", transactions=13, start=date(2025, 4, 22), days=190),
        _neobank_columns("DATUM", "TYPE", "OMSCHRIJVING", "BIJ", "AF", "SALDO"),
        f.d_mon_broken_y_nl, f.currency_after(f.de, "€"),
        Labels("Rekeningoverzicht {number}", "Periode {start} t/m {end}", "IBAN {iban}",
               "Pagina {page} van {nb}", "Beginsaldo", "Eindsaldo"),
        NEOBANK_NL_TYPES, iban_colon, Counterparty.PLAIN, Balances.SUMMARY,
        period_dates=f.dmy_dash, held_out=True,
    ),
    _german_cash_account(
        "broker_de", "Beispiel Depotbank AG",
        DataSpec("de", transactions=12, start=date(2025, 2, 10), days=50),
        f.d_mon_y_short_de, Balances.TOP, held_out=True,
    ),
    *PORTFOLIO_LAYOUTS,  # issue 40, class 2: overview pages and asset lines
)  # fmt: skip
LAYOUT = {layout.name: layout for layout in LAYOUTS}
DEVELOPMENT = tuple(layout for layout in LAYOUTS if not layout.held_out)
HELD_OUT = tuple(layout for layout in LAYOUTS if layout.held_out)

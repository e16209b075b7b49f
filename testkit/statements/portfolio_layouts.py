"""Broker and neobank statements with an overview (issue 40, class 2, second trait): a
first page (or a box above the cash table) that sums up the products, the cash
account's balances among them, and asset lines beside the cash (`Cash €0.00`,
`Gold 0.000 gr`, shares, crypto, ETF holdings) that are no bookings. The cash bookings,
trades included, are the transactions.

The `held_out` layouts were written with the development ones, before the reader was
changed, and never tuned on.
"""

from __future__ import annotations

from datetime import date

from testkit.statements import formats as f
from testkit.statements.data import DataSpec, Kind
from testkit.statements.model import (
    Balances,
    Col,
    Column,
    Counterparty,
    Holding,
    Labels,
    Layout,
    Overview,
)
from testkit.statements.neobank_types import NEOBANK_DE_TYPES, NEOBANK_EN_TYPES

NL_TYPES = {
    Kind.INCOMING: "Overboeking",
    Kind.OUTGOING: "Aankoop",
    Kind.DIRECT_DEBIT: "Incasso",
    Kind.CARD: "Betaalautomaat",
    Kind.FEE: "Kosten",
}
DEPOT_TYPES = {
    Kind.INCOMING: "Gutschrift",
    Kind.OUTGOING: "Wertpapierkauf",
    Kind.DIRECT_DEBIT: "Lastschrift",
    Kind.CARD: "Kartenzahlung",
    Kind.FEE: "Depotentgelt",
}
BELEGGEN_TYPES = {
    Kind.INCOMING: "Storting",
    Kind.OUTGOING: "Aankoop",
    Kind.DIRECT_DEBIT: "Incasso",
    Kind.CARD: "Betaalautomaat",
    Kind.FEE: "Servicekosten",
}


def _columns(
    kinds: tuple[Col, ...], headers: tuple[str, ...], widths: tuple[int, ...]
) -> tuple[Column, ...]:
    return tuple(Column(*cell) for cell in zip(kinds, headers, widths, strict=True))


NEOBANK = (Col.BOOKING, Col.TYPE, Col.TEXT, Col.CREDIT, Col.DEBIT, Col.BALANCE)
NEOBANK_WIDTHS = (18, 26, 52, 34, 34, 24)


def iban_colon(iban: str) -> str:
    return f"IBAN: {iban}"


def _labels(title: str, period: str, page: str) -> Labels:
    return Labels(title, period, "IBAN {iban}", page, None, None)


PORTFOLIO_LAYOUTS: tuple[Layout, ...] = (
    Layout(
        "broker_overview_de", "Muster Trade Bank AG",
        DataSpec("de", transactions=14, start=date(2025, 9, 1), days=30, trades=True),
        _columns(NEOBANK, ("DATUM", "TYP", "BESCHREIBUNG", "ZAHLUNGSEINGANG", "ZAHLUNGSAUSGANG",
                           "SALDO"), NEOBANK_WIDTHS),
        f.d_mon_y_broken_de, f.currency_after(f.de, "€"),
        _labels("KONTOAUSZUG", "DATUM {start} - {end}", "Seite {page} von {nb}"),
        NEOBANK_DE_TYPES, iban_colon, Counterparty.PLAIN, Balances.OVERVIEW,
        period_dates=f.dmy_dot,
        overview=Overview(
            "ÜBERSICHT",
            ("PRODUKT", "ANFANGSSALDO", "ZAHLUNGSEINGANG", "ZAHLUNGSAUSGANG", "ENDSALDO"),
            "Cashkonto", others=(("Geldmarktfonds", "2.000,00 €", "2.012,34 €"),),
            assets_title="VERMÖGENSÜBERSICHT",
            assets=(Holding("Aktien", "", "4.210,77 €"), Holding("ETF", "", "12.345,67 €"),
                    Holding("Krypto", "0,01234 BTC", "812,40 €"),
                    Holding("Gold", "0,000 g", "0,00 €")),
            cash_asset="Cash",
        ),
    ),
    Layout(
        "neobank_overview_en", "Example Money Europe UAB",
        DataSpec("en", transactions=16, start=date(2025, 1, 1), days=31, trades=True),
        _columns((Col.BOOKING, Col.TEXT, Col.DEBIT, Col.CREDIT, Col.BALANCE),
                 ("Date", "Description", "Money out", "Money in", "Balance"), (26, 82, 24, 24, 24)),
        f.d_mon_y, f.currency_before(f.en, "€"),
        _labels("EUR Statement", "Generated for {start} to {end}", "Page {page} of {nb}"),
        NEOBANK_EN_TYPES, iban_colon, Counterparty.INLINE, Balances.OVERVIEW,
        overview=Overview(
            "Balance summary",
            ("Product", "Opening balance", "Money in", "Money out", "Closing balance"),
            "Account (Current Account)", others=(("Savings Vault", "€250.00", "€250.00"),),
            assets_title="Your assets",
            assets=(Holding("Cash", "", "€0.00"), Holding("Stocks", "", "€1,234.56"),
                    Holding("Crypto", "", "€98.10"), Holding("Gold", "0.000 gr"),
                    Holding("Silver", "0.000 oz")),
            own_page=False,
        ),
    ),
    Layout(
        "broker_overview_nl", "Voorbeeld Broker NV",
        DataSpec("nl", country="NL", transactions=13, start=date(2025, 5, 1), days=31, trades=True),
        _columns(NEOBANK, ("DATUM", "TYPE", "OMSCHRIJVING", "BIJ", "AF", "SALDO"), NEOBANK_WIDTHS),
        f.dmy_dash, f.currency_after(f.de, "€"),
        _labels("Rekeningoverzicht", "Periode {start} t/m {end}", "Pagina {page} van {nb}"),
        NL_TYPES, iban_colon, Counterparty.PLAIN, Balances.OVERVIEW,
        overview=Overview(
            "Overzicht", ("Product", "Beginsaldo", "Bij", "Af", "Eindsaldo"), "Geldrekening",
            assets_title="Vermogen",
            assets=(Holding("Aandelen", "", "3.456,78 €"), Holding("ETF's", "", "9.876,54 €"),
                    Holding("Goud", "0,000 gr", "0,00 €")),
            cash_asset="Geld",
        ),
    ),
    Layout(
        "neobank_side_en", "Example Money Europe UAB",
        DataSpec("en", transactions=14, start=date(2025, 6, 1), days=30, trades=True),
        _columns((Col.BOOKING, Col.TEXT, Col.DEBIT, Col.CREDIT, Col.BALANCE),
                 ("Date", "Description", "Money out", "Money in", "Balance"), (26, 82, 24, 24, 24)),
        f.d_mon_y, f.currency_before(f.en, "€"),
        _labels("Account statement", "{start} - {end}", "Page {page} of {nb}"),
        NEOBANK_EN_TYPES, iban_colon, Counterparty.INLINE, Balances.OVERVIEW,
        overview=Overview(
            "Summary",
            ("Product", "Opening balance", "Money in", "Money out", "Closing balance"),
            "Current account", others=(("Savings", "€1,000.00", "€1,003.12"),),
            assets_title="Portfolio",
            assets=(Holding("Cash", "", "€0.00"), Holding("Gold", "0.000 gr"),
                    Holding("Stocks", "", "€2,431.90"), Holding("Crypto", "", "€310.05")),
            own_page=False, side=140, widths=(44, 24),
        ),
    ),
    Layout(
        "depot_holdings_de", "Muster Direktdepot AG",
        DataSpec("de", transactions=9, start=date(2025, 6, 1), days=30, trades=True),
        _columns((Col.BOOKING, Col.VALUE, Col.TEXT, Col.AMOUNT, Col.BALANCE),
                 ("Datum", "Valuta", "Buchungstext", "Betrag", "Saldo"), (22, 22, 90, 28, 28)),
        f.dmy_dot, f.lead_minus(f.de),
        _labels("Depotauszug und Kontoauszug", "Zeitraum {start} bis {end}",
                "Seite {page} von {nb}"),
        DEPOT_TYPES, iban_colon, Counterparty.BELOW, Balances.OVERVIEW,
        overview=Overview(
            "Übersicht", ("Konto", "Anfangssaldo", "Eingänge", "Ausgänge", "Endsaldo"),
            "Verrechnungskonto", assets_title="Depotbestand",
            assets_header=("Kursdatum", "Wertpapier", "Stück", "Kurswert EUR"),
            assets=tuple(
                Holding(name, quantity, value, "30.06.2025")
                for name, quantity, value in (
                    ("iShares Core MSCI World", "125,000", "12.340,50"),
                    ("Vanguard FTSE All-World", "80,512", "10.022,13"),
                    ("Xtrackers MSCI Emerging", "40,000", "2.301,20"),
                    ("Muster Technologie AG", "15,000", "1.204,35"),
                    ("Example Pharma plc", "30,000", "987,60"),
                    ("Xetra-Gold", "10,000", "986,40"),
                    ("Bitcoin ETN", "12,000", "402,84"),
                    ("Euro Staatsanleihe 2030", "5.000,000", "5.012,50"),
                    ("Global Clean Energy ETF", "200,000", "1.420,00"),
                    ("Muster Immobilien REIT", "55,000", "611,05"),
                )
            ),
        ),
    ),
    # Held out: written once, measured, never tuned on.
    Layout(
        "depot_overview_de", "Beispiel Kapital Bank AG",
        DataSpec("de", transactions=15, start=date(2025, 3, 1), days=31, trades=True),
        _columns((Col.BOOKING, Col.VALUE, Col.TYPE, Col.TEXT, Col.AMOUNT, Col.BALANCE),
                 ("Buchungstag", "Valuta", "Vorgang", "Buchungstext", "Betrag", "Saldo"),
                 (22, 20, 30, 64, 28, 26)),
        f.dmy_dot, f.lead_minus(f.de),
        _labels("Finanzstatus und Kontoauszug", "Zeitraum {start} bis {end}", "Seite {page}/{nb}"),
        DEPOT_TYPES, iban_colon, Counterparty.PLAIN, Balances.OVERVIEW,
        overview=Overview(
            "Vermögensübersicht",
            ("Konto/Depot", "Saldo alt", "Eingänge", "Ausgänge", "Saldo neu"),
            "Verrechnungskonto", others=(("Depot 4711", "15.234,10", "16.002,35"),),
            assets_title="Vermögensaufstellung",
            assets=(Holding("Aktien", "", "8.120,55"), Holding("ETF", "", "7.881,80"),
                    Holding("Xetra-Gold", "12,000 g", "1.089,12")),
            cash_asset="Guthaben Verrechnungskonto",
        ),
        held_out=True,
    ),
    Layout(
        "invest_overview_en", "Sample Invest Ltd",
        DataSpec("en", transactions=12, start=date(2024, 10, 1), days=31, trades=True),
        _columns(NEOBANK, ("DATE", "TYPE", "DESCRIPTION", "MONEY IN", "MONEY OUT", "BALANCE"),
                 NEOBANK_WIDTHS),
        f.d_mon_y, f.currency_before(f.en, "€"),
        _labels("Account statement", "Period {start} to {end}", "Page {page} of {nb}"),
        NEOBANK_EN_TYPES, iban_colon, Counterparty.PLAIN, Balances.OVERVIEW,
        overview=Overview(
            "Account overview",
            ("Account", "Opening balance", "Money in", "Money out", "Closing balance"),
            "Cash account", others=(("Investment account", "€5,000.00", "€5,120.44"),),
            assets_title="Holdings at the end of the period",
            assets=(Holding("Cash", "", "€0.00"), Holding("Gold", "0.000 gr"),
                    Holding("Bitcoin", "0.00412 BTC", "€251.30"),
                    Holding("Vanguard FTSE All-World", "12.500 sh", "€1,498.75")),
            own_page=False, assets_after=True,
        ),
        held_out=True,
    ),
    Layout(
        "beleggen_overview_nl", "Voorbeeld Vermogen BV",
        DataSpec("nl", country="NL", transactions=12, start=date(2025, 10, 1), days=31,
                 trades=True),
        _columns((Col.BOOKING, Col.TEXT, Col.AMOUNT, Col.BALANCE),
                 ("Datum", "Omschrijving", "Bedrag", "Saldo"), (26, 100, 30, 30)),
        f.d_mon_broken_y_nl, f.currency_after(f.de, "€"),
        _labels("Afschrift beleggingsrekening", "Periode {start} t/m {end}",
                "Pagina {page} van {nb}"),
        BELEGGEN_TYPES, iban_colon, Counterparty.BELOW, Balances.OVERVIEW,
        period_dates=f.dmy_dash,
        overview=Overview(
            "Overzicht", ("Rekening", "Beginsaldo", "Bijgeschreven", "Afgeschreven", "Eindsaldo"),
            "Geldrekening", assets_title="Beleggingen",
            assets=(Holding("Aandelen", "", "2.345,60 €"),
                    Holding("Crypto", "0,0500 ETH", "98,20 €"),
                    Holding("Goud", "0,000 gr", "0,00 €")),
        ),
        held_out=True,
    ),
    Layout(
        "crypto_side_nl", "Voorbeeld Crypto & Beleggen BV",
        DataSpec("nl", country="NL", transactions=11, start=date(2025, 2, 1), days=28,
                 trades=True),
        _columns((Col.BOOKING, Col.TEXT, Col.AMOUNT, Col.BALANCE),
                 ("Datum", "Omschrijving", "Bedrag", "Saldo"), (24, 104, 30, 30)),
        f.dmy_dash, f.lead_minus(f.de),
        _labels("Overzicht geldrekening", "{start} t/m {end}", "Pagina {page} van {nb}"),
        BELEGGEN_TYPES, iban_colon, Counterparty.BELOW, Balances.OVERVIEW,
        overview=Overview(
            "Overzicht", ("Product", "Beginsaldo", "Bij", "Af", "Eindsaldo"), "Geldrekening",
            others=(("Spaarrekening", "500,00", "500,00"),),
            assets_title="Uw vermogen",
            assets=(Holding("Geld", "", "0,00"), Holding("Bitcoin", "0,01234 BTC"),
                    Holding("Ether", "0,5000 ETH"), Holding("Goud", "0,000 gr"),
                    Holding("Aandelen", "", "1.250,00")),
            side=135, widths=(38, 24),
        ),
        held_out=True,
    ),
    Layout(
        "portfolio_holdings_en", "Sample Wealth Platform Ltd",
        DataSpec("en", "GBP", "GB", transactions=10, start=date(2025, 4, 1), days=30,
                 trades=True),
        _columns((Col.BOOKING, Col.TEXT, Col.DEBIT, Col.CREDIT, Col.BALANCE),
                 ("Date", "Details", "Paid out", "Paid in", "Balance"), (24, 86, 26, 26, 26)),
        f.dmy_slash, f.en,
        _labels("Cash account statement", "{start} to {end}", "Page {page} of {nb}"),
        NEOBANK_EN_TYPES, iban_colon, Counterparty.INLINE, Balances.OVERVIEW,
        overview=Overview(
            "Your account at a glance",
            ("Account", "Opening balance", "Paid in", "Paid out", "Closing balance"),
            "Cash", others=(("Stocks and shares ISA", "18,204.11", "18,950.37"),),
            assets_title="Your investments",
            assets_header=("Valued on", "Investment", "Units", "Value GBP"),
            assets=tuple(
                Holding(name, units, value, "30/04/2025")
                for name, units, value in (
                    ("Global Equity Index Fund", "1,204.551", "6,310.22"),
                    ("UK Gilts 2031", "2,000.000", "1,944.00"),
                    ("Vanguard FTSE All-World", "45.120", "5,081.61"),
                    ("Physical Gold ETC", "12.000", "402.84"),
                    ("Example Pharma plc", "150.000", "2,911.50"),
                    ("Sterling cash fund", "2,300.000", "2,300.20"),
                )
            ),
            own_page=False, assets_after=True,
        ),
        held_out=True,
    ),
)  # fmt: skip

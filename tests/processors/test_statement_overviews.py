"""Broker and neobank statements with an overview (issue 40, class 2): the balances of
a product table read from their own column though an asset box stands beside it, and
holdings lines (a date, a name, a quantity, a value) are not taken for bookings. The
generated layouts are read field by field in test_statement_layouts.py."""

from __future__ import annotations

from decimal import Decimal

from processors.bank_statement import parse
from processors.statements.output import counterparty

OVERVIEW = (
    "Summary\n"
    "Product      Opening balance   Money in  Money out Closing balance   Portfolio\n"
    "Current acc.       €1,523.40    €900.00      €704.50     €1,718.90   Cash      €0.00\n"
    "Savings            €1,000.00      €0.00        €0.00     €1,003.12   Gold   0.000 gr\n"
    "                                                                     Stocks €2,431.90\n"
)
"""Proportional type laid out as text: the money-out amounts reach under the next label."""
CASH_TABLE = (
    "Date          Description                         Money out      Money in       Balance\n"
    "03 Jun 2025   Card transaction Uber BV               €4.50                    €1,518.90\n"
    "04 Jun 2025   Transfer Bright Future Ltd                           €900.00    €2,418.90\n"
    "                Salary June\n"
    "09 Jun 2025   Trade Example Pharma plc             €700.00                    €1,718.90\n"
    "                Buy trade, quantity 12.500\n"
)
HOLDINGS = (
    "Depotbestand\n"
    "Kursdatum   Wertpapier                   Stück   Kurswert EUR\n"
    "30.06.2025  iShares Core MSCI World        125      12.340,50\n"
    "30.06.2025  Vanguard FTSE All-World         80      10.022,13\n"
    "30.06.2025  Xtrackers MSCI Emerging         40       2.301,20\n"
    "30.06.2025  Xetra-Gold                      10         986,40\n"
)
BOOKINGS = (
    "Datum       Buchungstext                               Betrag         Saldo\n"
    "03.06.2025  Kartenzahlung Uber BV                     -147,44      1.375,96\n"
    "04.06.2025  Gutschrift Arbeitgeber Nord AG           3.164,24      4.540,20\n"
    "              Gehalt Juni\n"
    "16.06.2025  Wertpapierkauf Vanguard FTSE All-World    -931,23      3.608,97\n"
    "              Kauf 60,620 Stk.\n"
)


def test_product_table_balances_are_read_from_their_own_column_beside_an_asset_box() -> None:
    reading = parse([OVERVIEW + CASH_TABLE])
    assert [t.amount for t in reading.transactions] == [
        Decimal("-4.50"),
        Decimal("900.00"),
        Decimal("-700.00"),
    ]
    assert (reading.opening, reading.closing) == (Decimal("1523.40"), Decimal("1718.90"))
    assert reading.reconciled is True


def test_holdings_without_a_running_balance_are_no_bookings() -> None:
    """The holdings' dates stand in the bookings' date column; their block fills no
    running balance, the bookings' does."""
    for pages in ([HOLDINGS, BOOKINGS], [BOOKINGS + HOLDINGS]):
        reading = parse(pages)
        amounts = [t.amount for t in reading.transactions]
        assert amounts == [Decimal("-147.44"), Decimal("3164.24"), Decimal("-931.23")], pages
        assert reading.transactions[1].purpose == ["Gehalt Juni"]


def test_without_a_balance_column_every_block_is_kept() -> None:
    """The rule needs a running balance to tell bookings from holdings: two blocks of a
    table without one both stay."""
    text = (
        "Datum       Buchungstext                               Betrag\n"
        "03.06.2025  Kartenzahlung Uber BV                     -147,44\n"
        "04.06.2025  Gutschrift Arbeitgeber Nord AG           3.164,24\n"
        "Weitere Umsätze\n"
        "16.06.2025  Lastschrift Stadtwerke                    -931,23\n"
        "18.06.2025  Kartenzahlung REWE                         -12,00\n"
    )
    assert len(parse(text).transactions) == 4


def test_a_known_type_with_a_name_repeated_keeps_the_name() -> None:
    """A security bought every month: `Trade <name>` on many transactions is a type and
    a name; an unknown word repeated alone is still taken for a type."""
    first = "Trade Vanguard FTSE All-World"
    assert counterparty(first, ["Buy trade, quantity 1.000"], {first}) == "Vanguard FTSE All-World"
    assert counterparty("Storting", ["Werkgever BV"], {"Storting"}) == "Werkgever BV"

"""Issue 40, class 2: dates a neobank or broker prints over lines in its date column are
put together on their row (`processors/statements/broken_dates.py`); the generated
neobank and broker layouts are read in `test_statement_layouts.py`."""

from __future__ import annotations

from decimal import Decimal

import pytest

from processors.bank_statement import parse
from processors.statements.broken_dates import join_broken_dates

ROW = "{date:<14}Handel        Allianz AG                 1.468,71 €    2.625,28 €"


@pytest.mark.parametrize(
    ("parts", "joined"),
    [
        (["22", "Sept.", "2025"], "22.09.2025"),
        (["1", "Mrz.", "2025"], "01.03.2025"),
        (["3 Mär", "2025"], "03.03.2025"),
        (["Jan 1", "2023"], "01.01.2023"),
        (["1 okt", "2025"], "01.10.2025"),
        (["14 mei", "2025"], "14.05.2025"),
        (["7", "okt 2025"], "07.10.2025"),
    ],
)
def test_a_date_broken_over_lines_is_put_together(parts: list[str], joined: str) -> None:
    lines = [
        ROW.format(date=parts[0]),
        *(f"{part:<14}Rechnung {n}" for n, part in enumerate(parts[1:])),
    ]
    out = join_broken_dates(lines, comma=True)
    assert out[0].startswith(f"{joined}    Handel")
    assert [line.strip() for line in out[1:]] == [f"Rechnung {n}" for n in range(len(parts) - 1)]
    assert len(out[0]) == len(lines[0])  # the columns stay where they were


@pytest.mark.parametrize(
    "lines",
    [
        ["22            Stück Apple Inc.", "Sept.         Börse"],  # no year: not a date
        ["12            Positionen", "2025          Summe"],  # a count above a year
        ["22            Handel", "          Sept.", "2025"],  # not in the date's column
        ["22 Sept. 2025 Handel", "2025"],  # complete already
    ],
)
def test_lines_that_are_no_broken_date_stay(lines: list[str]) -> None:
    assert join_broken_dates(lines, comma=True) == lines


def test_a_statement_with_broken_dates_is_read() -> None:
    page = "\n".join(
        [
            "DATUM        TYP          BESCHREIBUNG    ZAHLUNGSEINGANG  ZAHLUNGSAUSGANG   SALDO",
            "Anfangssaldo                                                            1.000,00 €",
            "30           Handel       Allianz AG                         468,71 €   531,29 €",
            "Sept.                     Rechnung 12",
            "2025",
            "1            Überweisung  Arbeitgeber AG  2.000,00 €                    2.531,29 €",
            "Okt.                      Gehalt",
            "2025",
            "Endsaldo                                                                2.531,29 €",
        ]
    )
    reading = parse(page)
    read = [(t.booking, t.amount, t.purpose) for t in reading.transactions]
    assert read == [
        ("30.09.2025", Decimal("-468.71"), ["Rechnung 12"]),
        ("01.10.2025", Decimal("2000.00"), ["Gehalt"]),
    ]
    assert (reading.opening, reading.closing) == (Decimal("1000.00"), Decimal("2531.29"))

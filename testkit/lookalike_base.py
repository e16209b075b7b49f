"""The page helper and random values shared by the lookalike generators
(`lookalike_docs.py`, `lookalike_numbers.py`)."""

from __future__ import annotations

import random
from decimal import Decimal

from fpdf import FPDF
from fpdf.enums import XPos, YPos

CENT = Decimal("0.01")


class Doc:
    def __init__(self, width: float = 210, height: float = 297, size: int = 10) -> None:
        self.pdf = FPDF(format=(width, height))
        self.pdf.set_margins(8 if width < 100 else 15, 10)
        self.pdf.set_auto_page_break(auto=True, margin=10)
        self.pdf.add_page()
        self.size = size
        self.width = width - (16 if width < 100 else 30)

    def line(self, text: str, bold: bool = False, align: str = "L") -> None:
        self.pdf.set_font("helvetica", style="B" if bold else "", size=self.size)
        self.pdf.cell(0, self.size * 0.5, text, align=align, new_x=XPos.LMARGIN, new_y=YPos.NEXT)

    def row(self, *cells: tuple[str, float, str]) -> None:
        """Cells of (text, share of the width, alignment) on one line."""
        self.pdf.set_font("helvetica", size=self.size)
        for text, share, align in cells:
            self.pdf.cell(self.width * share, self.size * 0.5, text, align=align)
        self.pdf.ln(self.size * 0.5)

    def pair(self, label: str, value: str, bold: bool = False) -> None:
        self.pdf.set_font("helvetica", style="B" if bold else "", size=self.size)
        self.pdf.cell(self.width * 0.6, self.size * 0.5, label)
        self.pdf.cell(self.width * 0.4, self.size * 0.5, value, align="R")
        self.pdf.ln(self.size * 0.5)

    def gap(self) -> None:
        self.pdf.ln(self.size * 0.4)

    def bytes(self) -> bytes:
        return bytes(self.pdf.output())


def random_price(rng: random.Random, low: int, high: int) -> Decimal:
    return Decimal(rng.randint(low * 100, high * 100)) / 100


def included_tax(gross: Decimal, rate: Decimal) -> Decimal:
    return (gross * rate / (100 + rate)).quantize(CENT)

"""Held-out reference documents (issue 40, class 5): written once after the rule, never
tuned on; their result is reported apart in docs/realworld.md. An English chart of
accounts with tax rates, a Dutch grootboekrekeningschema, an English price list in a
ruled table, and the contents of an English bookkeeping handbook."""

from __future__ import annotations

import random
from collections.abc import Iterator
from decimal import Decimal

from tests.processors.pdf_invoice_pages import Page
from tests.processors.pdf_invoice_truth import amount_in
from tests.processors.reference_docs import Reference, Row, _numbered_pages

_EN_ACCOUNTS = (
    ("Sales", "Revenue", "20% (VAT on Income)"),
    ("Other Revenue", "Revenue", "20% (VAT on Income)"),
    ("Interest Income", "Revenue", "No VAT"),
    ("Cost of Goods Sold", "Direct Costs", "20% (VAT on Expenses)"),
    ("Advertising", "Overhead", "20% (VAT on Expenses)"),
    ("Bank Fees", "Overhead", "No VAT"),
    ("Cleaning", "Overhead", "20% (VAT on Expenses)"),
    ("Consulting & Accounting", "Overhead", "20% (VAT on Expenses)"),
    ("Entertainment", "Overhead", "No VAT"),
    ("General Expenses", "Overhead", "20% (VAT on Expenses)"),
    ("Insurance", "Overhead", "Exempt Expenses"),
    ("Light, Power, Heating", "Overhead", "5% (VAT on Expenses)"),
    ("Motor Vehicle Expenses", "Overhead", "20% (VAT on Expenses)"),
    ("Postage", "Overhead", "Exempt Expenses"),
    ("Printing & Stationery", "Overhead", "20% (VAT on Expenses)"),
    ("Rent", "Overhead", "Exempt Expenses"),
    ("Accounts Receivable", "Current Asset", "No VAT"),
    ("Prepayments", "Current Asset", "No VAT"),
    ("Invoice Discounting Facility", "Current Liability", "No VAT"),
    ("Accounts Payable", "Current Liability", "No VAT"),
    ("VAT", "Current Liability", "No VAT"),
    ("Accruals and Deferred Income", "Current Liability", "No VAT"),
    ("Unpaid Expense Claims", "Current Liability", "No VAT"),
    ("Loan", "Non-current Liability", "No VAT"),
    ("Office Equipment", "Fixed Asset", "20% (VAT on Expenses)"),
    ("Retained Earnings", "Equity", "No VAT"),
    ("Owner A Drawings", "Equity", "No VAT"),
    ("Rounding", "Current Liability", "No VAT"),
)


def chart_of_accounts(seed: str) -> bytes:
    """Code, name, type and default tax rate, in a ruled table."""
    rng = random.Random(seed)

    def header(page: Page, number: int) -> float:
        page.text(20, 12, "Northwind Trading Ltd", bold=True, size=12)
        page.text(20, 19, "Chart of Accounts  -  as at 31 March 2025", size=9)
        for x, label in ((20, "Code"), (38, "Name"), (110, "Type"), (150, "Tax Rate")):
            page.text(x, 28, label, bold=True)
        page.rule(33)
        return 36

    def rows() -> Iterator[Row]:
        code = 90
        for _ in range(300):
            code += rng.choice((1, 2, 5, 10))
            name, kind, tax = rng.choice(_EN_ACCOUNTS)
            yield ((20, str(code), ""), (38, name, ""), (110, kind, ""), (150, tax, ""))

    return _numbered_pages(header, rows(), pages=5, step=4.8)


_NL_ACCOUNTS = (
    "Debiteuren",
    "Crediteuren",
    "Te betalen btw hoog",
    "Te betalen btw laag",
    "Te vorderen btw",
    "Voorbelasting",
    "Omzet hoog tarief",
    "Omzet laag tarief",
    "Omzet verlegd",
    "Inkoopwaarde van de omzet",
    "Kas",
    "Bank",
    "Kruisposten",
    "Vooruitbetaalde kosten",
    "Nog te ontvangen facturen",
    "Nog te betalen kosten",
    "Huisvestingskosten",
    "Autokosten",
    "Kantoorkosten",
    "Verkoopkosten",
    "Afschrijving inventaris",
    "Rente en bankkosten",
    "Privé-opnamen",
    "Eigen vermogen",
    "Inventaris",
    "Vervoermiddelen",
)


def grootboekschema(seed: str) -> bytes:
    """A Dutch chart of accounts: number right-aligned, name, balance or P&L column."""
    rng = random.Random(seed)

    def header(page: Page, number: int) -> float:
        page.text(20, 14, "Grootboekrekeningschema MKB 2025", bold=True, size=13)
        page.text(20, 22, "Nummer", bold=True)
        page.text(45, 22, "Omschrijving", bold=True)
        page.text(140, 22, "Balans / W&V", bold=True)
        return 30

    def rows() -> Iterator[Row]:
        number = 0
        for _ in range(280):
            number += rng.choice((10, 20, 50, 100, 1))
            side = "Balans" if number < 4000 else "Winst & verlies"
            yield ((35, str(number), "R"), (45, rng.choice(_NL_ACCOUNTS), ""), (140, side, ""))

    return _numbered_pages(header, rows(), pages=5, step=4.4)


_ITEMS = (
    "Hex bolt M8 x 40 zinc plated",
    "Washer M8 DIN 125",
    "Wood screw 4 x 30 (box of 200)",
    "Cable tie 200 mm black",
    "Wall plug 8 mm",
    "Threaded rod M10 x 1 m",
    "Hinge 80 mm brass",
    "Padlock 40 mm",
    "Sandpaper P120 (pack of 10)",
    "Masking tape 25 mm",
)


def price_list(seed: str) -> bytes:
    """An English trade price list: item code, description, pack, price excl. VAT,
    price incl. VAT; letterhead with VAT number and bank details."""
    rng = random.Random(seed)

    def header(page: Page, number: int) -> float:
        page.text(20, 12, "Harbour Fixings Ltd, 4 Quay Street, Bristol BS1 4DJ", size=8)
        page.text(20, 19, "TRADE PRICE LIST", bold=True, size=14)
        page.text(120, 19, "Prices valid from 1 April 2025", size=8)
        for x, label in (
            (20, "Item code"),
            (45, "Description"),
            (120, "Pack"),
            (140, "Excl. VAT"),
            (165, "Incl. VAT"),
        ):
            page.text(x, 28, label, bold=True)
        page.rule(33)
        page.text(
            20, 283, "VAT Reg. No. GB 123 4567 89  -  Sort code 20-00-00  Account 12345678", size=7
        )
        return 36

    def rows() -> Iterator[Row]:
        for index in range(240):
            price = Decimal(rng.randint(25, 4999)) / 100
            gross = (price * Decimal("1.2")).quantize(Decimal("0.01"))
            yield (
                (20, f"HF-{2000 + index * 3}", ""),
                (45, rng.choice(_ITEMS), ""),
                (120, str(rng.choice((1, 10, 50, 100))), ""),
                (158, amount_in("en", price), "R"),
                (183, amount_in("en", gross), "R"),
            )

    return _numbered_pages(header, rows(), pages=5, step=4.8)


_PARTS = (
    (
        "Getting started",
        ("Choosing a year end", "Registering for VAT", "Opening a business bank account"),
    ),
    (
        "Invoicing",
        (
            "What an invoice must show",
            "Invoice numbers",
            "Invoice date and tax point",
            "Credit notes",
            "Pro forma invoices",
            "Total amount payable",
        ),
    ),
    (
        "VAT",
        (
            "Standard, reduced and zero rates",
            "Input tax and output tax",
            "The VAT return",
            "Reverse charge",
            "Receipts and simplified invoices",
        ),
    ),
    (
        "Closing the books",
        (
            "Accruals and prepayments",
            "Depreciation",
            "Trial balance",
            "Profit and loss account",
            "Balance sheet",
        ),
    ),
)


def contents(seed: str) -> bytes:
    """Contents of an English bookkeeping handbook: part, chapter, page, dot leaders."""
    rng = random.Random(seed)

    def header(page: Page, number: int) -> float:
        if number == 1:
            page.text(20, 18, "Contents", bold=True, size=18)
            return 32
        return 18

    def rows() -> Iterator[Row]:
        at = 1
        chapter = 0
        for volume in range(4):
            for title, sections in _PARTS:
                chapter += 1
                at += rng.randint(2, 6)
                yield ((20, f"Chapter {chapter}", "B"), (50, title, "B"), (185, str(at), "R"))
                for index, section in enumerate(sections, start=1):
                    for sub in range(rng.randint(1, 2 + volume % 2)):
                        at += rng.randint(1, 4)
                        name = section if not sub else f"{section} (worked example {sub})"
                        yield (
                            (26, f"{chapter}.{index}", ""),
                            (42, name, ""),
                            (140, ". " * 12, ""),
                            (185, str(at), "R"),
                        )

    return _numbered_pages(header, rows(), pages=5, step=5.0)


HELD_OUT: tuple[Reference, ...] = (
    Reference("chart_of_accounts_en", chart_of_accounts),
    Reference("grootboekschema_nl", grootboekschema),
    Reference("price_list_en", price_list),
    Reference("contents_en", contents),
)

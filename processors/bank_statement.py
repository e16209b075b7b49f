"""Bank statements printed as PDF: balances and transactions from the layout text.

The reader (`processors/statements/`) finds the transaction table from general
evidence, not from one bank's layout: columns of dates and amounts lining up, header
words in six languages, running balances; docs/statements.md. A statement whose
balances are printed but do not reconcile (opening + sum of transactions = closing) is
returned with `reconciled: false`.
"""

from __future__ import annotations

from collections.abc import Sequence

from processors.base import (
    DocumentType,
    FailureCode,
    FileKind,
    Outcome,
    ProcessingContext,
    ProcessingError,
)
from processors.pdf_text import read_pdf_text
from processors.statements.broken_dates import join_broken_dates
from processors.statements.lines import split_line
from processors.statements.output import statement_result
from processors.statements.reading import Reading, balances, opening_balance, transactions
from processors.statements.table import find_table
from processors.statements.tokens import decimal_comma
from processors.statements.vocabulary import CLOSING, OPENING, STATEMENT_WORDS
from processors.text_values import forget_lines, lines_of

BANK_STATEMENT_SCORE = 60
MAX_PAGES = 50
MIN_STATEMENT_WORDS = 3
MIN_TABLE_ROWS = 3


class BankStatementProcessor:
    name = "bank_statement"

    def score(self, kind: FileKind, head: bytes, context: ProcessingContext) -> int:
        if kind is FileKind.PDF and context.document_type is DocumentType.BANK_STATEMENT:
            return BANK_STATEMENT_SCORE
        return 0

    def process(self, data: bytes, context: ProcessingContext) -> Outcome:
        forget_lines()
        pdf_text = read_pdf_text(data, context.ocr_command, MAX_PAGES)
        if pdf_text.empty:
            raise pdf_text.nothing_to_read("the statement")
        layout = "\n".join(pdf_text.layout)
        reading = parse(pdf_text.layout)
        if not looks_like_statement(layout + "\n" + "\n".join(pdf_text.plain), reading):
            raise ProcessingError(
                FailureCode.NOT_A_BANK_STATEMENT,
                "The file does not look like a bank statement (no balances, no bookings).",
            )
        if not reading.transactions:
            raise ProcessingError(
                FailureCode.NO_TRANSACTIONS_FOUND, "No transactions were found in the statement."
            )
        return Outcome(statement_result(reading, layout, decimal_comma(layout), pdf_text.source()))


def looks_like_statement(text: str, reading: Reading | None = None) -> bool:
    """Three distinct statement words, a printed opening or closing balance, or a table
    of at least three dated amounts."""
    words = {" ".join(match.lower().split()) for match in STATEMENT_WORDS.findall(text)}
    if len(words) >= MIN_STATEMENT_WORDS or OPENING.search(text) or CLOSING.search(text):
        return True
    return reading is not None and len(reading.transactions) >= MIN_TABLE_ROWS


def parse(pages: str | Sequence[str]) -> Reading:
    """The transactions and balances of a statement's layout text, page by page."""
    pages = [pages] if isinstance(pages, str) else list(pages)
    comma = decimal_comma("\n".join(pages))
    lines = [
        split_line(text, number, comma)
        for number, page in enumerate(pages)
        for text in join_broken_dates(lines_of(page), comma)
    ]
    table = find_table(lines)
    found = transactions(lines, table, opening_balance(lines)) if table is not None else []
    opening, closing = balances(lines, found)
    return Reading(tuple(found), opening, closing)

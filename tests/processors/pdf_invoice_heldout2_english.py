"""English-language families of the SECOND held-out set of generated plain PDF invoices
(issue 36): a US invoice with an "Amount Due" box and an Irish one with the seller in a
side bar. Listed in pdf_invoice_heldout2.py.

To the engineers working on the PDF invoice reader: never open this file, do not tune on
it and do not change it to make the reader pass (docs/pdf_invoices.md, "The sets")."""

from __future__ import annotations

from tests.processors.pdf_invoice_heldout2_values import (
    dollars,
    euro_english,
    quantity,
    rate_label,
    slashed,
    sums,
    table,
    us_long,
)
from tests.processors.pdf_invoice_pages import Page
from tests.processors.pdf_invoice_truth import Truth, grouped_iban


def us_invoice(truth: Truth) -> bytes:
    """United States: INVOICE and "Invoice #" top right, dates in words and the due date
    month first (04/04/2025), sales tax, an "Amount Due" box, payment by check or ACH."""
    page, seller = Page(size=9), truth.seller
    page.lines(20, 14, [seller.street, seller.city, "Phone (312) 555-0148"])
    page.text(20, 8, seller.name, bold=True, size=14)
    page.text(150, 10, "INVOICE", bold=True, size=20)
    due = truth.due_date
    meta = (
        ("Invoice #", truth.number),
        ("Date", us_long(truth.issue_date)),
        ("Due Date", f"{due.month:02d}/{due.day:02d}/{due.year}"),
        ("Terms", f"Net {(due - truth.issue_date).days}"),
        ("P.O. #", f"PO-{truth.number[-3:]}7"),
    )
    for index, (label, value) in enumerate(meta):
        page.text(130, 22 + index * 5, label, bold=True)
        page.right(192, 22 + index * 5, value)
    page.text(20, 50, "BILL TO", bold=True)
    page.lines(
        20, 55, [truth.buyer.name, f"Attn: {truth.contact}", truth.buyer.street, truth.buyer.city]
    )
    page.pdf.set_fill_color(225)
    page.pdf.rect(20, 82, 170, 6, style="F")
    heads = (
        ("DESCRIPTION", 22, False),
        ("QTY", 125, True),
        ("RATE", 158, True),
        ("AMOUNT", 190, True),
    )
    y = table(
        page,
        83,
        truth,
        heads,
        lambda i, t: (
            t.lines[i].description,
            quantity(t, i),
            dollars(t.lines[i].unit_price),
            dollars(t.lines[i].net),
        ),
    )
    rate = next(iter(truth.taxes()))
    rows = [
        ("SUBTOTAL", dollars(truth.net)),
        (f"TAX ({rate_label(rate, False)}%)", dollars(truth.vat)),
        ("TOTAL", dollars(truth.gross)),
    ]
    rows += [("PAYMENTS/CREDITS", dollars(-truth.prepaid))] if truth.prepaid else []
    y = sums(page, y, rows, x=125, bold_last=False)
    page.pdf.rect(123, y + 1, 69, 9)
    page.text(126, y + 3.5, "AMOUNT DUE", bold=True, size=11)
    page.right(190, y + 3.5, f"{dollars(truth.amount_due)} USD", bold=True)
    page.lines(
        20,
        y + 20,
        [
            f"Make all checks payable to {seller.name}",
            "ACH: routing 071000013, account 4471009231.",
        ],
    )
    page.text(20, 280, f"Thank you for your business!   {seller.register}", size=7.5)
    return page.bytes()


def sidebar_invoice(truth: Truth) -> bytes:
    """Ireland, two columns: the seller's address, VAT number, company number and bank
    in a grey side bar (label over value), the invoice in the wide column, dates
    day first with slashes, €1,234.56."""
    page, seller = Page(size=9), truth.seller
    page.pdf.set_fill_color(236)
    page.pdf.rect(0, 0, 62, 297, style="F")
    page.text(8, 20, seller.name, bold=True, size=10)
    y = page.lines(8, 28, [seller.street, seller.city, "Ireland"])
    for label, value in (
        ("VAT No.", seller.vat_id),
        ("Company No.", seller.register[12:]),
        ("IBAN", grouped_iban(truth.iban)),
        ("BIC", truth.bic),
    ):
        page.text(8, y + 4, label, bold=True, size=7.5)
        page.text(8, y + 8, value, size=8)
        y += 10
    page.text(72, 20, "Invoice", bold=True, size=24)
    for index, (label, value) in enumerate(
        (
            ("INVOICE NO.", truth.number),
            ("DATE ISSUED", slashed(truth.issue_date)),
            ("DUE DATE", slashed(truth.due_date)),
        )
    ):
        page.text(72 + index * 42, 38, label, bold=True, size=7)
        page.text(72 + index * 42, 42, value)
    page.text(72, 56, "BILLED TO", bold=True, size=7)
    page.lines(72, 61, [truth.buyer.name, truth.buyer.street, truth.buyer.city])
    heads = (("Item", 72, False), ("Qty", 140, True), ("Price", 168, True), ("Total", 198, True))
    y = table(
        page,
        84,
        truth,
        heads,
        lambda i, t: (
            t.lines[i].description,
            quantity(t, i).replace(",", "."),
            euro_english(t.lines[i].unit_price),
            euro_english(t.lines[i].net),
        ),
        x1=72,
    )
    rows = [("Subtotal (excl. VAT)", euro_english(truth.net))]
    rows += [(f"VAT @ {rate_label(r, False)}%", euro_english(t)) for r, t in truth.taxes().items()]
    y = sums(page, y, [*rows, ("Total (incl. VAT)", euro_english(truth.gross))], 130, 198)
    page.text(72, y + 8, "Payment within the due date by bank transfer, quoting the invoice no.")
    return page.bytes()

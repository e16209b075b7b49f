"""Invoices or other documents by structure, not single words (issue 36): invoices that
mention orders and delivery notes, invoices titled by their kind, and credit notes, against
delivery notes, orders, quotes, reminders and account statements."""

from __future__ import annotations

import pytest

from processors.pdf_invoices.classify import classify

_PARTIES = """Lieferant GmbH - Lieferantenstraße 20 - 80333 München
Kunden AG Mitte
Kundenstraße 15
69876 Frankfurt
"""
_TOTALS = """Pos  Beschreibung      Menge   Einzelpreis   Betrag
1    Trennblätter A4   20      9,90          198,00 EUR
Nettobetrag: 198,00 EUR
USt. 19 % auf 198,00 EUR: 37,62 EUR
Gesamtbetrag: 235,62 EUR
USt-IdNr.: DE123456789
IBAN: DE02 1203 0000 0000 2020 51
"""


def _document(title: str, body: str = "", totals: str = _TOTALS) -> str:
    return f"{_PARTIES}\n{title}\n{body}\n{totals}"


INVOICES = {
    "order reference": _document(
        "Rechnung Nr. 2024-17 vom 03.02.2024", "Bestellung: 2018-471331\nDatum: 03.02.2024"
    ),
    "order in a remark": _document(
        "Rechnung 2024-17",
        "Rechnungsdatum: 03.02.2024\nRechnung gemäß Bestellung Nr. 2018-471331 vom 01.02.2024.",
    ),
    "delivery note reference": _document(
        "Rechnung", "Rechnungsnr.: 4711\nDatum: 03.02.2024\nLieferschein Nr. 2018-51112"
    ),
    "delivery note label": _document(
        "RECHNUNG", "Lieferschein-Nr : L8765\nBestell-Nr : B1234\nBeleg-Datum : 06.08.2013"
    ),
    "kind title, type code": _document(
        "Handelsrechnung (380) Nr. 471102 vom 05.03.2020",
        "ZUGFeRD-Version: 2.1 vom 24.03.2020\nBestellung Nr. Kunde: 2018-471331",
    ),
    "insurance premium": _document(
        "Beitragsrechnung zur Kraftfahrtversicherung Nr. 55-123456 vom 01.01.2024"
    ),
    "final invoice": _document("Schlussrechnung Nr. 12 vom 01.06.2024"),
    "partial invoice": _document("Abschlagsrechnung Nr. 3", "Datum: 01.06.2024"),
    "spaced letters": _document("W A R E N R E C H N U N G   Seite 1", "Beleg-Datum: 06.08.2013"),
    "french": _document("Facture N° F20180027 du 31/12/2018", "Bon de commande : BC-77"),
    "dutch": _document("Factuur", "Factuurnummer: 2024-88\nFactuurdatum: 12-03-2024"),
    "italian": _document("Fattura n. 17/2024 del 03.02.2024"),
    "spanish": _document("Factura nº 2024-17", "Fecha: 03.02.2024\nPedido: 4711"),
    "english": _document("TAX INVOICE", "Invoice No: INV-17\nPurchase order: PO-99"),
}
CREDIT_NOTES = {
    "gutschrift": _document("Gutschrift Nr. G-2024-3 vom 03.02.2024"),
    "rechnungskorrektur": _document("Rechnungskorrektur Nr. 2024-17-K", "Datum: 03.02.2024"),
    "avoir": _document("AVOIR N° AV-2017-0005", "Date : 03/02/2017"),
    "credit note": _document("Credit note CN-2024-3", "Date: 03.02.2024"),
}
OTHER_DOCUMENTS = {
    "delivery note": (
        "delivery_note",
        _document(
            "Lieferschein Nr. 2018-51112 vom 03.06.2018",
            "Zu Rechnung Nr. 471102\nPos  Artikel  Menge\n1  Kunstrasen  3 m²",
            totals="USt-IdNr.: DE123456789\n",
        ),
    ),
    "order": ("order", _document("Bestellung Nr. 4500012345 vom 01.02.2024")),
    "purchase order": ("order", _document("PURCHASE ORDER PO-2024-17", "Invoice to: Kunden AG")),
    "quote": (
        "quote",
        _document("Angebot Nr. 2024-88 vom 01.02.2024", "Das Angebot gilt bis 01.03.2024."),
    ),
    "reminder": (
        "reminder",
        _document(
            "1. Mahnung",
            "Rechnung Nr. 2024-17 vom 03.01.2024 über 235,62 EUR\nDatum: 03.03.2024",
        ),
    ),
    "untitled reminder": (
        "reminder",
        _document(
            "",
            "Rechnungsnummer: 2024-17\nDatum: 03.03.2024\nDie Rechnung ist überfällig.",
        ),
    ),
    "payment reminder": ("reminder", _document("Payment reminder", "Invoice No: INV-17")),
    "statement": ("statement", _document("Kontoauszug Nr. 3/2024", "Rechnung Nr. 17 bezahlt")),
}


@pytest.mark.parametrize("name", INVOICES)
def test_an_invoice_that_mentions_other_documents_is_an_invoice(name: str) -> None:
    classification = classify(INVOICES[name])
    assert classification.is_invoice, classification
    assert "title" in classification.signals
    assert not classification.credit_note


@pytest.mark.parametrize("name", CREDIT_NOTES)
def test_a_credit_note_is_an_invoice_with_a_negative_sign(name: str) -> None:
    classification = classify(CREDIT_NOTES[name])
    assert classification.is_invoice, classification
    assert classification.credit_note


@pytest.mark.parametrize("name", OTHER_DOCUMENTS)
def test_other_documents_are_not_invoices(name: str) -> None:
    kind, text = OTHER_DOCUMENTS[name]
    classification = classify(text)
    assert not classification.is_invoice, classification
    assert classification.other == kind

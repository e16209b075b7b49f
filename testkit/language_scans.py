"""Business letters in French, Dutch, Spanish and Italian with many accented words, for
the OCR language tests and measurements (issue 40, class 6). fpdf2's core fonts
(Latin-1) print every accent used here."""

from __future__ import annotations

import re

import pypdfium2 as pdfium  # type: ignore[import-untyped]
from fpdf import FPDF

_ACCENTED_WORD = re.compile(r"\w*[À-ÖØ-öø-ÿ]\w*")

LETTERS = {
    "fra": (
        "Société Générale des Écoles Privées",
        "Relevé de compte n° 12 du 1er février à fin février",
        "Opération   Libellé                          Débit      Crédit",
        "03.02       Prélèvement Électricité de Marseille  84,90",
        "07.02       Virement reçu de la Mairie de Besançon          1 250,00",
        "12.02       Carte bancaire Café des Arènes     12,60",
        "Nous vous remercions de votre fidélité et restons à votre disposition pour",
        "toute question concernant les opérations réalisées ce mois-ci.",
        "Échéance du prêt: règlement par prélèvement à réception de cet avis.",
    ),
    "nld": (
        "Coöperatieve Bank België en Nederland",
        "Rekeningafschrift nummer 4 van het eerste kwartaal",
        "Datum      Omschrijving                         Af          Bij",
        "03-02      Betaling aan Café de Gaîté          18,40",
        "07-02      Overschrijving van de Financiële Dienst             950,00",
        "12-02      Privé opname voor één ideeën-sessie     75,00",
        "Wij danken u voor het vertrouwen in onze bank en zijn altijd bereikbaar voor",
        "vragen over deze rekening. Reële rente op financiële producten: zie website.",
        "Met vriendelijke groet, uw adviseur in België.",
    ),
    "spa": (
        "Compañía Española de Gestión Económica",
        "Extracto de cuenta número 7 del mes de febrero",
        "Fecha      Concepto                            Cargo       Abono",
        "03/02      Comisión de mantenimiento          12,00",
        "07/02      Transferencia recibida de la Dirección Técnica      1.480,00",
        "12/02      Recibo teléfono móvil Señor Muñoz     29,95",
        "Para cualquier información sobre los movimientos de esta cuenta, puede",
        "dirigirse a su oficina o consultar la página de atención al cliente.",
        "Año fiscal en curso: la liquidación se realizará por domiciliación.",
    ),
    "ita": (
        "Società Cooperativa di Credito della Città",
        "Estratto conto numero 3 per il mese di febbraio",
        "Data       Descrizione                          Dare        Avere",
        "03/02      Attività di manutenzione caldaia    140,00",
        "07/02      Bonifico ricevuto dalla Università di Perugia        2.100,00",
        "12/02      Pagamento caffè Più Qualità        8,50",
        "Perché questa comunicazione: le condizioni del conto sono cambiate e la",
        "nuova tariffa sarà applicata dal mese prossimo. Può rivolgersi alla filiale",
        "della sua città per qualsiasi necessità.",
    ),
}


def language_letter(language: str) -> bytes:
    """One A4 page with the letter of `language`."""
    pdf = FPDF(format="A4")
    pdf.add_page()
    pdf.set_font("helvetica", size=11)
    for line in LETTERS[language]:
        pdf.cell(0, 7, line, new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def accented_words(pdf: bytes) -> list[str]:
    """The words with a letter outside ASCII in the PDF's text layer."""
    document = pdfium.PdfDocument(pdf)
    try:
        return [
            word
            for page in document
            for word in _ACCENTED_WORD.findall(page.get_textpage().get_text_range())
        ]
    finally:
        document.close()

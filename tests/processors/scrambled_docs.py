"""PDFs whose text layer reads like a substitution cipher, for the scrambled-text gate.

The page renders as before, but the fonts map glyphs to the wrong characters, as some
real PDFs do ("hontoauszug", "mostbank", "Teäefon"): every font of the chosen pages
gets a ToUnicode CMap in which a share of the letters is sent to other letters.
- simple fonts (fpdf2's core fonts, WinAnsi codes): a ToUnicode over codes 32-255;
- composite fonts (fpdf2's TrueType subsets, glyph ids in order of first use): their
  own ToUnicode with the letters replaced.
Fonts are cloned per scrambled page, so the other pages keep a right text layer.

Sources: the invoice and statement layouts of `generated_docs` and letters of running
text in German and English, in Helvetica (core font) or DejaVu Sans (embedded subset).
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass

from fpdf import FPDF
from fpdf.enums import XPos, YPos
from pypdf import PdfReader, PdfWriter
from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZäöüÄÖÜß"
DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
_BFCHAR = re.compile(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>")


@dataclass(frozen=True)
class Scramble:
    share: float
    """Share of `LETTERS` sent to other letters (1.0: all of them)."""
    mode: str = "permute"
    """`permute`: a random permutation of the chosen letters; `shift`: each chosen
    letter becomes the one a few places later in `LETTERS` (a font whose map is off by
    some glyphs); `capitals`: the chosen capitals (`share` of the 26) become the small
    letter a few places earlier, the rest stays (`hontoauszug mostbank diro` for
    "Kontoauszug Postbank Giro", issue 40)."""
    seed: int = 1

    def mapping(self) -> dict[str, str]:
        rng = random.Random(self.seed)
        if self.mode == "capitals":
            capitals = rng.sample(LETTERS[26:52], round(self.share * 26))
            step = rng.randint(2, 5)
            return {c: LETTERS[(LETTERS.index(c) - 26 - step) % 26] for c in capitals}
        chosen = rng.sample(LETTERS, round(self.share * len(LETTERS)))
        if self.mode == "shift":
            step = rng.randint(1, 5)
            return {c: LETTERS[(LETTERS.index(c) + step) % len(LETTERS)] for c in chosen}
        targets = chosen[:]
        while len(chosen) > 1 and any(a == b for a, b in zip(chosen, targets, strict=True)):
            rng.shuffle(targets)
        return dict(zip(chosen, targets, strict=True))


def scramble(pdf: bytes, how: Scramble, pages: Iterable[int] | None = None) -> bytes:
    """The PDF with the text layer of `pages` (0-based; all by default) scrambled."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    mapping = how.mapping()
    chosen = set(range(len(writer.pages))) if pages is None else set(pages)
    for number in sorted(chosen):
        fonts = writer.pages[number]["/Resources"]["/Font"]
        for name in list(fonts):
            font = DictionaryObject(fonts[name].get_object())
            stream = DecodedStreamObject()
            stream.set_data(_cmap(font, mapping))
            font[NameObject("/ToUnicode")] = writer._add_object(stream)
            fonts[NameObject(name)] = writer._add_object(font)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _cmap(font: DictionaryObject, mapping: dict[str, str]) -> bytes:
    if font.get("/Subtype") == "/Type0":
        own = font["/ToUnicode"].get_object().get_data().decode("latin-1")
        pairs = [(int(code, 16), chr(int(uni, 16))) for code, uni in _BFCHAR.findall(own)]
        width = 4
    else:
        pairs = [(code, bytes([code]).decode("cp1252", "replace")) for code in range(32, 256)]
        width = 2
    entries = [f"<{code:0{width}X}> <{ord(mapping.get(char, char)):04X}>" for code, char in pairs]
    blocks = [entries[i : i + 100] for i in range(0, len(entries), 100)]
    body = "\n".join(f"{len(b)} beginbfchar\n" + "\n".join(b) + "\nendbfchar" for b in blocks)
    space = "<0000> <FFFF>" if width == 4 else "<00> <FF>"
    return (
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
        "/CMapName /Scrambled def /CMapType 2 def\n"
        f"1 begincodespacerange {space} endcodespacerange\n{body}\n"
        "endcmap CMapName currentdict /CMap defineresource pop end end\n"
    ).encode("ascii")


# --- letters of running text -----------------------------------------------------------

GERMAN_LETTER = (
    "Beispiel Versand GmbH, Lindenstraße 12, 04109 Leipzig",
    "Sehr geehrte Damen und Herren,",
    "vielen Dank für Ihre Anfrage vom 14. März. Gerne bestätigen wir Ihnen die Lieferung "
    "der bestellten Ware bis Ende des Monats. Die Kosten für den Versand übernehmen wir, "
    "da der Auftragswert die vereinbarte Grenze übersteigt.",
    "Bitte beachten Sie, dass sich unsere Bankverbindung geändert hat. Überweisungen "
    "richten Sie bitte ab sofort an das unten genannte Konto bei der Sparkasse Leipzig.",
    "Für Rückfragen stehen wir Ihnen telefonisch unter 0341 123456 oder per E-Mail gern "
    "zur Verfügung. Unser Kundenservice ist montags bis freitags von 8 bis 18 Uhr für "
    "Sie erreichbar.",
    "Mit freundlichen Grüßen",
    "Ihr Team der Beispiel Versand GmbH",
    "Geschäftsführer: Max Mustermann, Amtsgericht Leipzig HRB 12345, USt-IdNr. DE123456789",
)

ENGLISH_LETTER = (
    "Example Trading Ltd, 22 Harbour Road, Bristol BS1 4QA",
    "Dear Sir or Madam,",
    "thank you for your order of 14 March. We are pleased to confirm that the goods will "
    "be delivered by the end of the month. As the value of your order exceeds the agreed "
    "limit, we will cover the shipping costs.",
    "Please note that our bank details have changed. From now on, please send all "
    "payments to the account shown below, quoting your customer number as reference.",
    "If you have any questions, our customer service team is available by telephone on "
    "0117 496 0123 or by email from Monday to Friday between 8 am and 6 pm.",
    "Yours faithfully,",
    "The team at Example Trading Ltd",
    "Registered in England and Wales, company number 01234567, VAT number GB123456789",
)

NEIGHBOUR_LETTERS = {
    "fr": (
        "Exemple Services SARL, 12 rue de la République, 69002 Lyon",
        "Madame, Monsieur,",
        "nous vous remercions de votre commande du 14 mars. Nous avons le plaisir de vous "
        "confirmer que la marchandise sera livrée avant la fin du mois. Les frais de "
        "livraison sont à notre charge, le montant de la commande dépassant le seuil convenu.",
        "Veuillez noter que nos coordonnées bancaires ont changé. Merci d'effectuer vos "
        "virements sur le compte indiqué ci-dessous en précisant votre numéro de client.",
        "Nous restons à votre disposition pour toute question et vous prions d'agréer nos "
        "salutations distinguées.",
    ),
    "nl": (
        "Voorbeeld Handel B.V., Keizersgracht 100, 1015 AA Amsterdam",
        "Geachte heer, mevrouw,",
        "hartelijk dank voor uw bestelling van 14 maart. Wij bevestigen graag dat de "
        "goederen voor het einde van de maand worden geleverd. De verzendkosten nemen wij "
        "voor onze rekening, omdat het orderbedrag de afgesproken grens overschrijdt.",
        "Let op: ons rekeningnummer is gewijzigd. Wij verzoeken u vriendelijk om betalingen "
        "voortaan over te maken naar de onderstaande rekening onder vermelding van uw "
        "klantnummer.",
        "Met vriendelijke groet, namens het team van Voorbeeld Handel",
    ),
    "es": (
        "Ejemplo Comercial S.L., Calle Mayor 25, 28013 Madrid",
        "Estimados señores:",
        "les agradecemos su pedido del 14 de marzo. Nos complace confirmarles que la "
        "mercancía será entregada antes de final de mes. Los gastos de envío corren de "
        "nuestra cuenta, ya que el importe del pedido supera el límite acordado.",
        "Les rogamos tengan en cuenta que nuestros datos bancarios han cambiado. Por favor, "
        "realicen sus pagos a la cuenta indicada a continuación, indicando su número de "
        "cliente.",
        "Quedamos a su disposición para cualquier consulta. Atentamente, el equipo de Ejemplo",
    ),
    "it": (
        "Esempio Forniture S.r.l., Via Garibaldi 7, 20121 Milano",
        "Gentili signori,",
        "vi ringraziamo per il vostro ordine del 14 marzo. Siamo lieti di confermarvi che la "
        "merce sarà consegnata entro la fine del mese. Le spese di spedizione sono a nostro "
        "carico, poiché l'importo dell'ordine supera la soglia concordata.",
        "Vi preghiamo di notare che le nostre coordinate bancarie sono cambiate. Effettuate i "
        "pagamenti sul conto indicato qui sotto, indicando il vostro numero cliente.",
        "Restiamo a disposizione per qualsiasi chiarimento. Cordiali saluti, il team di Esempio",
    ),
}


def letter(paragraphs: tuple[str, ...], embedded_font: bool, copies: int = 1) -> bytes:
    """The paragraphs as a letter, `copies` times in a row (one page each for 1-2)."""
    pdf = FPDF(format="A4")
    family = "helvetica"
    if embedded_font:
        pdf.add_font("dejavu", fname=DEJAVU)
        family = "dejavu"
    for _ in range(copies):
        pdf.add_page()
        pdf.set_font(family, size=11)
        for paragraph in paragraphs:
            pdf.multi_cell(0, 6, paragraph, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
            pdf.ln(3)
    return bytes(pdf.output())
